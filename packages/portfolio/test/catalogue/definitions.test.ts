import { describe, expect, it } from 'vitest';
import { scalableCapital } from '../../src/import/definitions/catalogue/europe.js';
import { recogniseAll } from '../../src/import/definitions/catalogue/index.js';
import { fileHead, recognise } from '../../src/import/definitions/definition.js';
import {
  draftDefinition,
  FormatDefinition,
  fold,
  parseBrokerCsv,
  proposeMapping,
} from '../../src/index.js';

const UNKNOWN = [
  'Datum;Typ;Wertpapier;ISIN;Anzahl;Kurs;Währung;Gebühren;Betrag',
  '21.03.2024;Einzahlung;;;;;USD;;1.000,00',
  '22.03.2024;Kauf;Apple Inc.;US0378331005;2;150,50;USD;1,00;-302,00',
].join('\n');

describe('format definitions', () => {
  it('folds header names as Portfolio Performance does, accents and punctuation away', () => {
    expect(
      ['Quantità', 'Price / share', 'Währung', 'Stück / Nom.', 'Værdipapirer'].map(fold),
    ).toEqual(['quantita', 'priceshare', 'wahrung', 'stucknom', 'vaerdipapirer']);
  });

  it("turns the mapper's answer into a draft definition that is JSON, recognises the file and reads it alike", () => {
    const proposal = proposeMapping(UNKNOWN);
    if (!proposal) throw new Error('no proposal');
    const header = UNKNOWN.split('\n')[0]?.split(';') ?? [];
    const draft = draftDefinition(proposal.mapping, header);
    expect(draft.source.kind).toBe('draft');
    const saved = FormatDefinition.parse(
      JSON.parse(JSON.stringify(draftDefinition(proposal.mapping, header, { confirmed: true }))),
    );
    expect(saved.source.kind).toBe('user');
    // the catalogue does not know the file: the user's definition reads it, as `mapped`
    expect(parseBrokerCsv(UNKNOWN).ok).toBe(false);
    const own = parseBrokerCsv(UNKNOWN, { definitions: [saved] });
    const mapped = parseBrokerCsv(UNKNOWN, { mapping: proposal.mapping });
    if (!own.ok || !mapped.ok) throw new Error('not read');
    expect(own).toMatchObject({ format: 'mapped', definitionId: saved.id });
    expect(own.transactions).toEqual(mapped.transactions);
    // and the same columns in another order and case
    const reordered = UNKNOWN.split('\n')
      .map((line) => {
        const cells = line.split(';');
        return [cells[8], ...cells.slice(0, 8)].join(';');
      })
      .join('\n')
      .replace('Betrag;Datum', 'BETRAG;DATUM');
    const again = parseBrokerCsv(reordered, { definitions: [saved] });
    expect(again.ok && again.transactions).toEqual(mapped.transactions);
  });

  it('never lets a user definition shadow the catalogue, and reports every entry that recognises a file', () => {
    const scalable = [
      'date;time;status;reference;description;assetType;type;isin;shares;price;amount;fee;tax;currency',
      '2024-01-03;10:00:00;Executed;"r2";"World";Security;Buy;IE00B4L5Y983;10;50;-500;1;0;EUR',
    ].join('\n');
    const lookalike = { ...scalableCapital, id: 'user-lookalike', label: 'mine' };
    const read = parseBrokerCsv(scalable, { definitions: [lookalike] });
    expect(read).toMatchObject({ ok: true, format: 'scalable-capital' });
    expect(read.ok && 'definitionId' in read).toBe(false);
    // two entries that both recognise a file are both named (the parser then refuses to guess)
    const both = recogniseAll(scalable, [scalableCapital, lookalike]).map((r) => r.entry.id);
    expect(both).toEqual(['scalable-capital', 'user-lookalike']);
  });

  it('finds a header below a preamble, and reads ISIN and ticker both', () => {
    const text = [
      'Conto : 1',
      '',
      'Data operazione,Data valuta,Tipo operazione,Ticker,Isin,Protocollo,Descrizione,Quantità,Importo euro,Importo Divisa,Divisa,Riferimento ordine',
      '03-01-2024,05-01-2024,Acquisto,ENEL,IT0003128367,2,ENEL,10,-500,,,R1',
    ].join('\n');
    const read = parseBrokerCsv(text);
    expect(read).toMatchObject({
      ok: true,
      format: 'directa',
      rows: [
        { line: 4, isin: 'IT0003128367', ticker: 'ENEL', transaction: { symbol: 'IT0003128367' } },
      ],
    });
  });
  it('recognises from the first 40 lines only: a header on line 40 is found, on line 41 not', () => {
    const header =
      'Data operazione,Data valuta,Tipo operazione,Ticker,Isin,Protocollo,Descrizione,Quantità,Importo euro,Importo Divisa,Divisa,Riferimento ordine';
    const row = '03-01-2024,05-01-2024,Acquisto,ENEL,IT0003128367,2,ENEL,10,-500,,,R1';
    const rows = Array.from({ length: 5_000 }, () => row);
    const at = (line: number) =>
      [...Array.from({ length: line - 1 }, (_, i) => `Conto : ${i}`), header, ...rows].join('\n');
    expect(recogniseAll(at(40)).map((r) => [r.entry.id, r.found.headerLine])).toEqual([
      ['directa', 40],
    ]);
    expect(recogniseAll(at(41))).toEqual([]);
    const head = fileHead(at(3));
    expect(head.lines).toHaveLength(40); // not the 5,002 lines of the file
    expect(head.lines.slice(0, 3)).toEqual(['Conto : 0', 'Conto : 1', header]);
    // one head serves every definition, and answers as the text itself does
    const directa = recogniseAll(at(3))[0]?.entry;
    if (!directa) throw new Error('directa not recognised');
    const fromHead = recognise(head, directa.recognise, directa.read.delimiter);
    expect(fromHead).toEqual(recognise(at(3), directa.recognise, directa.read.delimiter));
    expect(fromHead?.headerLine).toBe(3);
    // a file shorter than 40 lines, its last line unterminated or empty, splits as `split` does
    expect(fileHead('a\nb').lines).toEqual(['a', 'b']);
    expect(fileHead('a\n').lines).toEqual(['a', '']);
    expect(fileHead('').lines).toEqual(['']);
  });
});

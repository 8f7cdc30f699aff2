import { describe, expect, it } from 'vitest';
import { FIRST_DEFINITION_IDS } from '../../src/import/definitions/catalogue/first.js';
import { CATALOGUE } from '../../src/import/definitions/catalogue/index.js';
import type { FingerprintedRow } from '../../src/index.js';
import { INPUTS, outcomeOf, recorded } from './module-golden/outcome.js';

// Issue 40: "the twelve modules become definitions". A module was replaced by its definition only
// once the definition read every file the module was recorded on (module-golden/<id>.json: the real
// sample in ../shared/data/broker-exports, texts of earlier tests, hand-made rows of every row
// kind the module told apart) into exactly what the module read: the same transactions field for
// field (notes included), the same broker ids and instrument names, hence the same import
// fingerprints, and the same lines skipped. The definition may add what the module did not keep
// (the row's ticker or ISIN beside the symbol; neither enters the fingerprint); skip reasons are
// worded by the engine.

/** Module entries converted to definitions. */
const CONVERTED = [
  'etoro',
  'revolut',
  'ibkr-cash',
  'trade-republic',
  'schwab',
  'xtb',
  'saxo',
  'ibkr-trades',
  'degiro',
  'ghostfolio',
  'trading212',
];

/** A row as compared: everything but the identifiers a definition may add. */
function comparable(rows: readonly FingerprintedRow[]) {
  return rows.map(({ ticker: _t, isin: _i, ...rest }) => rest);
}

describe('definitions that replaced import modules read what the modules read', () => {
  for (const id of CONVERTED) {
    it(`${id}: same transactions, ids, names, fingerprints and skipped lines on every recorded file`, () => {
      expect(CATALOGUE.find((e) => e.id === id)).toBeDefined();
      const inputs = INPUTS[id] ?? [];
      const before = recorded(id);
      expect(inputs.length).toBeGreaterThan(0);
      expect(before).toHaveLength(inputs.length);
      inputs.forEach((input, i) => {
        const was = before[i];
        const now = outcomeOf(id, input);
        const label = input.sample ?? `text ${i}`;
        expect(now.ok, label).toBe(was?.ok);
        expect(now.format, label).toBe(was?.format);
        if (!now.ok || !was?.ok) {
          expect(now, label).toEqual(was);
          return;
        }
        expect(comparable(now.rows), label).toEqual(comparable(was.rows));
        // identifiers the definition adds are the row's own
        for (const row of now.rows) {
          if (row.ticker !== undefined && row.transaction.symbol !== undefined) {
            expect([row.ticker, row.isin]).toContain(row.transaction.symbol);
          }
        }
        expect(now.skippedLines, label).toEqual(was.skippedLines);
      });
    });
  }

  it('lists every converted format as a definition of the first modules', () => {
    expect([...FIRST_DEFINITION_IDS].sort()).toEqual([...CONVERTED].sort());
  });

  it('counts the rows compared', () => {
    const counted = CONVERTED.map((id) => {
      const rows = recorded(id).reduce((n, o) => n + (o.ok ? o.rows.length : 0), 0);
      return `${id} ${rows}`;
    });
    console.log(`module equivalence, transactions compared: ${counted.join(', ')}`);
    expect(counted).toHaveLength(CONVERTED.length);
  });
});

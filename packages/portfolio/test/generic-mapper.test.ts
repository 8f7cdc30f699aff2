import { describe, expect, it } from 'vitest';
import { parseBrokerCsv, proposeMapping } from '../src/index.js';
import { importSample, readSample } from './formats/sample.js';

/**
 * Generalisation of the generic mapper: with the ten modules switched off (the proposal is made
 * for every file, whether a module reads it or not), the proposal is accepted unchanged and the
 * holdings (symbol, currency, quantity, average cost) are compared with the module's.
 */
const FILES = [
  'degiro',
  'etoro',
  'ibkr-dividends',
  'ibkr-trades',
  'revolut-invest',
  'saxo',
  'schwab',
  'traderepublic',
  'trading212',
  'xtb',
] as const;

/** Why the generic mapper's holdings differ from the module's, per file it misses. */
const MISSES: Partial<Record<(typeof FILES)[number], string>> = {
  degiro:
    'one row differs: "STOCK DIVIDEND: Koop 999 @ 0 EUR" (Prosus) is read as 999 units received at no cost, which the module skips as a row without an amount; the other eight holdings are identical',
  trading212:
    'corporate-action rows carry two extra cells (their values sit two columns to the right), so the stock distribution is not read; the price currency column is then mostly numbers and the total currency is taken instead',
};

function holdings(path: string, mapped: boolean): string[] {
  const text = readSample(path);
  if (!mapped) return importSample(path).plan.after.holdings.map(holdingLine);
  const proposal = proposeMapping(text);
  if (proposal === undefined) return ['no proposal'];
  const parsed = parseBrokerCsv(text, { mapping: proposal.mapping });
  if (!parsed.ok) return parsed.errors.map((e) => `line ${e.line}: ${e.message}`);
  return importSample(path, { mapping: proposal.mapping }).plan.after.holdings.map(holdingLine);
}

const holdingLine = (h: {
  symbol: string;
  currency: string;
  quantity: string;
  averageCost: string;
}) => `${h.symbol} ${h.currency} ${h.quantity} @ ${h.averageCost}`;

describe('the generic mapper on the exports of the ten brokers with modules', () => {
  const results = FILES.map((name) => {
    const path = `export-to-ghostfolio/${name}-export.csv`;
    const module = holdings(path, false);
    const generic = holdings(path, true);
    return { name, same: JSON.stringify(module.sort()) === JSON.stringify(generic.sort()) };
  });

  it("gives the modules' holdings for 8 of the 10 exports, accepted unchanged", () => {
    expect(results.filter((r) => r.same).map((r) => r.name)).toEqual(
      FILES.filter((name) => MISSES[name] === undefined),
    );
  });

  it.each(Object.entries(MISSES))('misses %s for a known reason: %s', (name) => {
    expect(results.find((r) => r.name === name)?.same).toBe(false);
  });

  it('checks its own result: Revolut and Schwab are refused unchanged, with their doubts', () => {
    const refused = FILES.flatMap((name) => {
      const proposal = proposeMapping(readSample(`export-to-ghostfolio/${name}-export.csv`));
      return proposal?.acceptable ? [] : [name];
    });
    // Revolut: entity-transfer rows carry units the mapping records as cash; Schwab: mergers,
    // name changes and reverse splits move units and are skipped. DEGIRO and Trading 212 pass
    // every check although their holdings differ from the module's (MISSES).
    expect(refused).toEqual(['revolut-invest', 'schwab']);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintRows, parseBrokerCsv, planImport } from '../src/index.js';

/**
 * The generic path measured the way a user meets it, on real exports of brokers without a module
 * (`fixtures/generic-exports/`, sources and licences in its SOURCES.md): upload, read the dry
 * run's proposal, accept it unchanged, compare the holdings with what the file holds. A proposal
 * that is not `acceptable` is refused unchanged (the import answers its questions): not right, but
 * not wrong either. Holdings are `SYMBOL CURRENCY quantity`.
 */
const DIR = join(import.meta.dirname, 'fixtures', 'generic-exports');

/** What each file holds (worked out by hand from its rows; see SOURCES.md). */
const HOLDS: Record<string, string[]> = {
  'bitvavo-buy.csv': ['STORJ EUR 34.75825253'],
  'bitvavo-kauf01.csv': ['BTC EUR 0.005'],
  'bitvavo-verkauf01.csv': [], // a sale of units bought before the export
  'centraal-beheer-purchase.csv': ['Mixfonds Ambitieus EUR 1.6597'],
  'coinbase-example1.csv': [], // a sale of units bought before the export
  'coinbase-example2.csv': ['ATOM EUR 0.087842', 'ETH EUR 0.0016103'], // a conversion ETH → ATOM
  'scalable-capital-baader-wum.csv': ['IE00077FRP95 EUR 5'],
  'scalable-capital-prime-savings-plan.csv': ['IE00BJ0KDQ92 EUR 4.981'],
  'scalable-capital-prime-sell.csv': [], // a sale of units bought before the export
};

type Outcome = 'right' | 'wrong' | 'refused';

function holdingsOf(rows: Parameters<typeof fingerprintRows>[1]): string[] | undefined {
  const plan = planImport({
    existing: [],
    existingFingerprints: new Set(),
    rows: fingerprintRows('mapped', rows),
  });
  if (!plan.ok) return undefined;
  return plan.after.holdings.map((h) => `${h.symbol} ${h.currency} ${h.quantity}`).sort();
}

function measure(name: string): {
  outcome: Outcome;
  holdings: string[];
  failed: string[];
  format?: string;
} {
  const text = readFileSync(join(DIR, name), 'utf8');
  const first = parseBrokerCsv(text);
  if (first.ok) {
    // a catalogue definition knows the layout by name: its import is measured the same way
    const holdings = holdingsOf(first.rows);
    if (holdings === undefined) return { outcome: 'wrong', holdings: [], failed: ['plan failed'] };
    const right = JSON.stringify(holdings) === JSON.stringify([...(HOLDS[name] ?? [])].sort());
    return { outcome: right ? 'right' : 'wrong', holdings, failed: [], format: first.format };
  }
  const proposal = first.proposal;
  if (proposal === undefined) return { outcome: 'refused', holdings: [], failed: ['no proposal'] };
  const failed = proposal.checks.filter((c) => !c.passed).map((c) => c.id);
  const parsed = parseBrokerCsv(text, { mapping: proposal.mapping });
  if (!parsed.ok) return { outcome: 'wrong', holdings: [], failed: ['refused by its own import'] };
  const plan = planImport({
    existing: [],
    existingFingerprints: new Set(),
    rows: fingerprintRows('mapped', parsed.rows),
  });
  if (!plan.ok) return { outcome: 'wrong', holdings: [], failed: ['plan failed'] };
  const holdings = plan.after.holdings.map((h) => `${h.symbol} ${h.currency} ${h.quantity}`).sort();
  if (!proposal.acceptable) return { outcome: 'refused', holdings, failed };
  const right = JSON.stringify(holdings) === JSON.stringify([...(HOLDS[name] ?? [])].sort());
  return { outcome: right ? 'right' : 'wrong', holdings, failed };
}

describe('real exports of brokers without a module, proposal accepted unchanged', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.csv'));
  const results = Object.fromEntries(files.map((f) => [f, measure(f)]));

  it('has the expected holdings of every fixture', () => {
    expect(files.sort()).toEqual(Object.keys(HOLDS).sort());
  });

  it('reads the Baader securities file and the two PRIME files with their catalogue definitions', () => {
    // the Baader definition came from GhostfolioSidekick's reader of Baader's field codes
    expect(results['scalable-capital-baader-wum.csv']).toMatchObject({
      outcome: 'right',
      format: 'scalable-capital-baader',
    });
    expect(results['scalable-capital-prime-savings-plan.csv']).toMatchObject({
      outcome: 'right',
      format: 'scalable-capital',
    });
    expect(results['scalable-capital-prime-sell.csv']).toMatchObject({
      outcome: 'right',
      format: 'scalable-capital',
    });
  });

  it('gives the right holdings for 8 of 9, imports none wrongly, and refuses 1 with questions', () => {
    const count = (o: Outcome) => files.filter((f) => results[f]?.outcome === o).length;
    expect({ right: count('right'), wrong: count('wrong'), refused: count('refused') }).toEqual({
      right: 8,
      wrong: 0,
      refused: 1,
    });
  });

  it('refuses the one it cannot read, naming the failed check', () => {
    expect(results['coinbase-example2.csv']).toMatchObject({
      outcome: 'refused',
      failed: ['sides'], // Send, Receive and Convert are no action words: every row would be a buy
    });
  });
});

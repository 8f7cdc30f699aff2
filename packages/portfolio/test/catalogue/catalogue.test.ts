import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeNewlines } from '../../src/import/csv-records.js';
import {
  CATALOGUE,
  DEFINITIONS,
  recogniseAll,
} from '../../src/import/definitions/catalogue/index.js';
import {
  BROKER_CATALOGUE,
  BROKER_FORMATS,
  FormatDefinition,
  fingerprintRows,
  parseBrokerCsv,
  planImport,
} from '../../src/index.js';
import { FIXTURES } from './fixtures.js';

const dataDir =
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../../shared/data');
const sample = (path: string) =>
  readFileSync(join(dataDir, 'broker-exports', path), 'utf8').replace(/^\uFEFF/, '');

/** The real samples of the module entries (../shared/data/broker-exports), by entry id. */
const SAMPLES: Record<string, string> = {
  ghostfolio: 'ghostfolio/ok_sample.csv',
  revolut: 'export-to-ghostfolio/revolut-invest-export.csv',
  'ibkr-trades': 'export-to-ghostfolio/ibkr-trades-export.csv',
  'ibkr-cash': 'export-to-ghostfolio/ibkr-dividends-export.csv',
  degiro: 'export-to-ghostfolio/degiro-export.csv',
  etoro: 'export-to-ghostfolio/etoro-export.csv',
  saxo: 'export-to-ghostfolio/saxo-export.csv',
  schwab: 'export-to-ghostfolio/schwab-export.csv',
  'trade-republic': 'export-to-ghostfolio/traderepublic-export.csv',
  trading212: 'export-to-ghostfolio/trading212-export.csv',
  xtb: 'export-to-ghostfolio/xtb-export.csv',
};

const filesById: Record<string, string> = {
  ...Object.fromEntries(Object.entries(SAMPLES).map(([id, path]) => [id, sample(path)])),
  ...Object.fromEntries(Object.entries(FIXTURES).map(([id, f]) => [id, f.text])),
};

describe('the catalogue of broker formats', () => {
  it('has a file for every entry, and every definition validates', () => {
    expect(Object.keys(filesById).sort()).toEqual(CATALOGUE.map((e) => e.id).sort());
    for (const definition of DEFINITIONS) {
      expect(FormatDefinition.safeParse(definition).success, definition.id).toBe(true);
    }
    expect(BROKER_FORMATS).toEqual([...CATALOGUE.map((e) => e.id), 'ghostfolio-json', 'mapped']);
    for (const entry of BROKER_CATALOGUE) expect(entry.source.reference.length).toBeGreaterThan(10);
  });

  it('recognises every file by exactly one entry: its own (every file fed to every entry)', () => {
    const confusions: string[] = [];
    for (const [id, text] of Object.entries(filesById)) {
      const matched = recogniseAll(normalizeNewlines(text)).map((r) => r.entry.id);
      if (matched.length !== 1 || matched[0] !== id)
        confusions.push(`${id} → ${matched.join(',') || 'none'}`);
    }
    expect(confusions).toEqual([]);
  });

  for (const [id, fixture] of Object.entries(FIXTURES)) {
    it(`${id}: reads its documented layout into the holdings and cash it holds`, () => {
      const parsed = parseBrokerCsv(fixture.text);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      expect(parsed.format).toBe(id);
      const plan = planImport({
        existing: [],
        existingFingerprints: new Set(),
        rows: fingerprintRows(parsed.format, parsed.rows),
      });
      if (!plan.ok) throw new Error(JSON.stringify(plan.errors));
      expect(plan.warnings).toEqual([]);
      const holdings = plan.after.holdings.map((h) => `${h.symbol} ${h.currency} ${h.quantity}`);
      expect(holdings.sort()).toEqual([...fixture.holdings].sort());
      const cash = Object.fromEntries(plan.after.cash.map((c) => [c.currency, c.amount]));
      expect(cash).toEqual(fixture.cash);
      const types = new Set(parsed.transactions.map((t) => t.type));
      for (const type of fixture.types ?? ['buy', 'sell', 'dividend', 'fee']) {
        expect(types.has(type as never), `${id} yields ${type}`).toBe(true);
      }
      if (fixture.types === undefined) {
        expect(types.has('deposit') || types.has('withdrawal'), `${id} moves cash`).toBe(true);
      }
    });
  }
});

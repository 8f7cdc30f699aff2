// The SEC verdicts of the 30 shared companies (issue 39: they must stay explained): each company's
// total, maximum, verdict and methodology version, evaluated offline from the shared companyfacts
// snapshot (prices from the shared CSVs), as the service does.
//
//   pnpm --filter @svc/use-cases exec node bench/sec-verdicts.mjs [--as-of YYYY-MM-DD] [--json]
//       [--compare before.json] [--dist <dir of an @svc/use-cases build>]
//
// --json prints the table as JSON (save it before a change); --compare reads such a file and adds
// the change of each total and verdict, flagging shifts of more than 5 points (the issue's bar: a
// larger shift must name its cause in the calibration table); --dist evaluates with another build
// (another checkout's packages/use-cases/dist), to print "before" beside "after" in one run.
// Run after `pnpm turbo run build --filter=@svc/use-cases... --filter=@svc/providers`. Env: SHARED_DATA_DIR.
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'as-of': { type: 'string' },
    json: { type: 'boolean', default: false },
    compare: { type: 'string' },
    dist: { type: 'string' },
  },
});
const DATA_DIR = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const COMPANYFACTS_DIR = resolve(DATA_DIR, 'fundamentals/raw/companyfacts');
const PRICES_DIR = resolve(DATA_DIR, 'prices');
const NOW = new Date('2026-09-01T12:00:00.000Z');
/** A shift of the total above this many points must name its cause (issue 39). */
const EXPLAIN_ABOVE = 5;

const dist = resolve(values.dist ?? resolve(import.meta.dirname, '../dist'), 'index.js');
const { evaluateCompany, ...build } = await import(dist);
// The providers come from @svc/providers (builds before issue 37 exported them themselves).
const { createFundamentalsProvider, createQuoteSource } = build.createQuoteSource
  ? build
  : await import('@svc/providers');

const symbols = readdirSync(COMPANYFACTS_DIR)
  .map((name) => /^(.+)_CIK\d{10}\.json$/.exec(name)?.[1])
  .filter((s) => s !== undefined)
  .sort();
const fundamentals = createFundamentalsProvider({
  provider: 'snapshot',
  snapshotDir: COMPANYFACTS_DIR,
});
const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
const asOf = values['as-of'];

const rows = [];
for (const symbol of symbols) {
  try {
    const e = await evaluateCompany(
      symbol,
      { fundamentals, quotes, splitsOf, now: () => NOW },
      asOf === undefined ? {} : { asOf },
    );
    rows.push({
      symbol,
      totalScore: e.totalScore,
      maxScore: e.maxScore,
      verdict: e.verdict,
      methodologyVersion: e.methodologyVersion ?? null,
      fiscalYears: `${e._fiscalYears[0]}–${e._fiscalYears.at(-1)}`,
    });
  } catch (error) {
    rows.push({ symbol, error: `${error.code ?? 'error'}: ${error.message}` });
  }
}

if (values.json) {
  process.stdout.write(`${JSON.stringify({ asOf: asOf ?? null, rows }, null, 2)}\n`);
} else {
  const before = values.compare
    ? new Map(JSON.parse(readFileSync(values.compare, 'utf8')).rows.map((r) => [r.symbol, r]))
    : undefined;
  const pad = (text, width) => String(text).padEnd(width);
  const head = ['symbol', 'years', 'total', 'verdict', 'method'];
  if (before) head.push('before', 'change');
  process.stdout.write(`${asOf ? `as of ${asOf}\n` : ''}${head.join('\t')}\n`);
  let shifted = 0;
  let changedVerdicts = 0;
  for (const r of rows) {
    if (r.error) {
      process.stdout.write(`${pad(r.symbol, 6)}\t${r.error}\n`);
      continue;
    }
    const cells = [
      pad(r.symbol, 6),
      r.fiscalYears,
      `${r.totalScore.toFixed(2)}/${r.maxScore}`,
      pad(r.verdict, 36),
      r.methodologyVersion ?? '-',
    ];
    const b = before?.get(r.symbol);
    if (before) {
      if (!b || b.error) {
        cells.push(b?.error ?? 'absent', '');
      } else {
        const delta = r.totalScore - b.totalScore;
        const verdictChanged = b.verdict !== r.verdict;
        if (Math.abs(delta) > EXPLAIN_ABOVE) shifted += 1;
        if (verdictChanged) changedVerdicts += 1;
        cells.push(
          `${b.totalScore.toFixed(2)}/${b.maxScore}`,
          `${delta >= 0 ? '+' : ''}${delta.toFixed(2)}${Math.abs(delta) > EXPLAIN_ABOVE ? ' (> 5: name the cause)' : ''}${verdictChanged ? ` verdict was ${b.verdict}` : ''}`,
        );
      }
    }
    process.stdout.write(`${cells.join('\t')}\n`);
  }
  if (before) {
    process.stdout.write(
      `\n${rows.length} companies: ${changedVerdicts} verdict(s) changed, ${shifted} total(s) moved more than ${EXPLAIN_ABOVE} points\n`,
    );
  }
}

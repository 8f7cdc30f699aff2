// Calibration bench (issue 39): how well the moat score separates companies that analysts rate
// wide-moat from those they rate no-moat, each scored as of its rating date, on both providers.
// Run `pnpm calibrate` from the root (builds first), or after a build:
//
//   node bench/calibrate.mjs [--half dev|test|all|holdout|holdout2|holdout3|holdout4] [--record "<change>"] [--sec-baseline] [--no-reconcile]
//
// --half      which half of the labelled set (fixed hash of the ticker; default dev). Tuning
//             reads dev only; the test half is run once, at the end (README, "Calibration").
//             `holdout` scores calibration/holdout.json instead (companies not in labels.json,
//             assembled after tuning; run only for the final figures, never while tuning).
//             `holdout2` scores calibration/holdout2.json, a second hold-out (42 companies in
//             none of labels.json, holdout.json and the SEC snapshot, assembled after holdout.json
//             had been run once; not run while it was assembled): run it once, for the next round's
//             final figures, never while tuning.
//             `holdout3` scores calibration/holdout3.json, a third hold-out (37 companies in none
//             of labels.json, holdout.json, holdout2.json and the SEC snapshot, assembled after
//             holdout2.json had been run once; not run while it was assembled): run it once, for
//             the next round's final figures, never while tuning.
//             `holdout4` scores calibration/holdout4.json, a fourth hold-out (28 companies in none
//             of labels.json, holdout.json, holdout2.json, holdout3.json and the SEC snapshot,
//             assembled after holdout3.json had been run once; not run while it was assembled):
//             run it once, for the next round's final figures, never while tuning.
// --record    append this run's figures to calibration/history.json under the change's name;
//             the per-change delta table compares each row with the last kept row of the same
//             half. A change tried and not kept (dev AUROC fell, or a no-moat company crossed
//             50) is recorded with "kept": false by hand after its code is reverted.
// --sec-baseline  rewrite calibration/sec-baseline.json (the SEC scores later runs compare with).
// --no-reconcile  score each labelled company on one provider only; by default a company both
//             providers cover is scored with the other provider's figures as `reconcileWith`
//             (issue 39: a criterion resting on a series the providers disagree on earns no
//             points from the gap). The 30 shared SEC companies are always scored on SEC alone.
//
// Reads ../shared/data or $SHARED_DATA_DIR (SimFin bulk statements, SEC companyfacts snapshots); never copies them.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSimfinProvider, createSnapshotProvider } from '@svc/fundamentals-client';
import { evaluateMoat } from '../dist/index.js';
import { auroc, pct, withSector } from './calibration-support.mjs';

const here = import.meta.dirname;
const SHARED = resolve(process.env.SHARED_DATA_DIR ?? join(here, '../../../../shared/data'));
const DATA = join(SHARED, 'fundamentals/raw');
const SIMFIN_DIR = join(DATA, 'simfin_us_annual_2021-04');
const SEC_DIR = join(DATA, 'companyfacts');
const LABELS = join(here, 'calibration/labels.json');
const HOLDOUT = join(here, 'calibration/holdout.json');
const HOLDOUT2 = join(here, 'calibration/holdout2.json');
const HOLDOUT3 = join(here, 'calibration/holdout3.json');
const HOLDOUT4 = join(here, 'calibration/holdout4.json');
/** The hold-out sets: each is scored whole, from its own file, instead of a half of labels.json. */
const HOLDOUT_FILES = {
  holdout: HOLDOUT,
  holdout2: HOLDOUT2,
  holdout3: HOLDOUT3,
  holdout4: HOLDOUT4,
};
const HISTORY = join(here, 'calibration/history.json');
const SEC_BASELINE = join(here, 'calibration/sec-baseline.json');

/** The snapshot's weak, cyclical or loss-making companies (shared/data/README.md). */
const WEAK_SET = 'DAL UAL LUV F GM TSLA KR TGT BBY NUE MOS XOM MU CCL UBER SNOW'.split(' ');
/** SimFin ticker → SEC snapshot ticker where they differ. */
const SEC_TICKER = { GOOG: 'GOOGL' };

const { values: args } = parseArgs({
  options: {
    half: { type: 'string', default: 'dev' },
    record: { type: 'string' },
    'sec-baseline': { type: 'boolean', default: false },
    'no-reconcile': { type: 'boolean', default: false },
  },
});
if (!['dev', 'test', 'all', 'holdout', 'holdout2', 'holdout3', 'holdout4'].includes(args.half)) {
  throw new Error('--half must be dev, test, all, holdout, holdout2, holdout3 or holdout4');
}
const holdoutFile = HOLDOUT_FILES[args.half];

/** Fixed split: first byte of SHA-256 of the ticker, even → dev, odd → test. */
const halfOf = (ticker) =>
  createHash('sha256').update(ticker).digest()[0] % 2 === 0 ? 'dev' : 'test';

const labels = JSON.parse(readFileSync(holdoutFile ?? LABELS, 'utf8')).companies;
const chosen = labels.filter(
  (l) => args.half === 'all' || holdoutFile !== undefined || halfOf(l.ticker) === args.half,
);

function qualityCodes(e) {
  const codes = [];
  for (const q of e.dataQuality ?? []) codes.push(q.code);
  for (const c of e.criteria) for (const q of c.dataQuality ?? []) codes.push(`${c.key}:${q.code}`);
  return codes;
}

/** The fundamentals of `ticker` as of `asOf`, or null when the provider has too little. */
async function read(provider, ticker, asOf) {
  try {
    return withSector(await provider.getFundamentals(ticker, asOf ? { asOf } : {}), ticker);
  } catch {
    return null;
  }
}

async function score(provider, ticker, asOf, other = null) {
  try {
    const f = withSector(await provider.getFundamentals(ticker, asOf ? { asOf } : {}), ticker);
    const lastEnd = f.years.at(-1)?.periodEnd ?? null;
    const e = evaluateMoat(f, other ? { reconcileWith: other } : {});
    return { pct: pct(e), evaluation: e, lastEnd, honoured: !asOf || !lastEnd || lastEnd < asOf };
  } catch (error) {
    return { error: error.code ?? error.message };
  }
}

/** Deterministic PRNG (mulberry32) so the bootstrap interval is reproducible. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 95% percentile bootstrap interval of the AUROC, resampling each class apart (2,000 draws). */
function bootstrap(pos, neg, draws = 2000) {
  if (pos.length === 0 || neg.length === 0) return [Number.NaN, Number.NaN];
  const random = rng(39);
  const pick = (xs) => Array.from(xs, () => xs[Math.floor(random() * xs.length)]);
  const values = [];
  for (let i = 0; i < draws; i += 1) values.push(auroc(pick(pos), pick(neg)));
  values.sort((a, b) => a - b);
  return [values[Math.floor(0.025 * draws)], values[Math.floor(0.975 * draws)]];
}

const median = (xs) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');

const BANDS = [
  ['< 35', 0, 35],
  ['35–50', 35, 50],
  ['50–70', 50, 70],
  ['≥ 70', 70, 101],
];

function summarise(name, rows) {
  const scored = rows.filter((r) => r.pct !== undefined);
  const by = (rating, basis) =>
    scored.filter((r) => r.rating === rating && (!basis || r.basis !== 'recall')).map((r) => r.pct);
  const wide = by('wide');
  const none = by('none');
  const [lo, hi] = bootstrap(wide, none);
  const figures = {
    n: { wide: wide.length, narrow: by('narrow').length, none: none.length },
    unscored: rows.filter((r) => r.pct === undefined).map((r) => `${r.ticker} (${r.error})`),
    auroc: auroc(wide, none),
    ci: [lo, hi],
    aurocWithoutRecall: auroc(by('wide', true), by('none', true)),
    wideAt50: wide.filter((x) => x >= 50).length / (wide.length || 1),
    noneAt50: scored.filter((r) => r.rating === 'none' && r.pct >= 50).map((r) => r.ticker),
    noneMedian: median(none),
    narrowMedian: median(by('narrow')),
  };
  console.log(`\n== ${name}: ${args.half} half ==`);
  console.log(
    `scored wide ${figures.n.wide}, narrow ${figures.n.narrow}, none ${figures.n.none}; unscored: ${figures.unscored.join(', ') || 'none'}`,
  );
  console.log(
    `AUROC wide vs none ${f3(figures.auroc)} (95% bootstrap ${f3(lo)}–${f3(hi)}); without 'recall' labels ${f3(figures.aurocWithoutRecall)}`,
  );
  console.log(
    `wide at ≥ 50: ${f1(100 * figures.wideAt50)}%; no-moat at ≥ 50: ${figures.noneAt50.join(', ') || 'none'}; no-moat median ${f1(figures.noneMedian)}`,
  );
  console.log(`narrow median ${f1(figures.narrowMedian)}`);
  // What each criterion adds (diagnostic, never used in the score): its own score's AUROC wide vs
  // none, and the total's AUROC without it (above the total's: the criterion costs separation here).
  const withCriteria = scored.filter((r) => r.evaluation && r.rating !== 'narrow');
  if (
    withCriteria.some((r) => r.rating === 'wide') &&
    withCriteria.some((r) => r.rating === 'none')
  ) {
    console.log('criteria (AUROC of the criterion alone | of the total without it):');
    for (const { key } of withCriteria[0].evaluation.criteria) {
      const points = (r) => r.evaluation.criteria.find((c) => c.key === key)?.score ?? 0;
      const of = (rating, f) => withCriteria.filter((r) => r.rating === rating).map(f);
      const rest = (r) => r.evaluation.totalScore - points(r);
      console.log(
        `  ${key.padEnd(27)} ${f3(auroc(of('wide', points), of('none', points)))} | ${f3(auroc(of('wide', rest), of('none', rest)))}`,
      );
    }
  }
  console.log('reliability (share of each rating per score band):');
  console.log('  band    n   wide  narrow  none');
  for (const [label, from, to] of BANDS) {
    const inBand = scored.filter((r) => r.pct >= from && r.pct < to);
    const share = (rating) =>
      inBand.length
        ? `${Math.round((100 * inBand.filter((r) => r.rating === rating).length) / inBand.length)}%`
        : '-';
    console.log(
      `  ${label.padEnd(6)} ${String(inBand.length).padStart(3)}  ${share('wide').padStart(5)}  ${share('narrow').padStart(6)}  ${share('none').padStart(5)}`,
    );
  }
  const counts = new Map();
  for (const r of scored) for (const code of r.codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  console.log(
    `data-quality flags: ${[...counts].map(([c, k]) => `${c} ×${k}`).join(', ') || 'none'}`,
  );
  for (const code of new Set(scored.flatMap((r) => r.codes.filter((c) => !c.includes(':'))))) {
    const who = scored.filter((r) => r.codes.includes(code)).map((r) => `${r.ticker} ${f1(r.pct)}`);
    console.log(`  ${code}: ${who.join(', ')}`);
  }
  console.log('per company (rating score ticker):');
  const line = scored
    .sort((a, b) => b.pct - a.pct)
    .map((r) => `${r.rating[0]} ${f1(r.pct)} ${r.ticker}`)
    .join(' | ');
  console.log(`  ${line}`);
  return figures;
}

const simfin = createSimfinProvider({ dir: SIMFIN_DIR });
const sec = createSnapshotProvider({ dir: SEC_DIR });
const secTickers = new Set((await sec.listTickers()).filter((t) => t));

const simfinRows = [];
const secRows = [];
for (const label of chosen) {
  const secTicker = SEC_TICKER[label.ticker] ?? label.ticker;
  const both = secTickers.has(secTicker) && !args['no-reconcile'];
  const secFigures = both ? await read(sec, secTicker, label.ratedOn) : null;
  const simfinFigures = both ? await read(simfin, label.ticker, label.ratedOn) : null;
  const s = await score(simfin, label.ticker, label.ratedOn, secFigures);
  simfinRows.push({ ...label, ...s, codes: s.evaluation ? qualityCodes(s.evaluation) : [] });
  if (secTickers.has(secTicker)) {
    const t = await score(sec, secTicker, label.ratedOn, simfinFigures);
    secRows.push({ ...label, ...t, codes: t.evaluation ? qualityCodes(t.evaluation) : [] });
  }
}

const simfinFigures = summarise('SimFin, as of each rating date (Publish Date)', simfinRows);
const secFigures = summarise('SEC snapshot, labelled companies', secRows);
const ignoredAsOf = secRows.filter((r) => r.honoured === false).length;
if (ignoredAsOf > 0) {
  console.log(
    `  note: the SEC provider ignored asOf for ${ignoredAsOf} of ${secRows.length} companies (scored as available)`,
  );
}

// The 30 shared SEC companies, scored as available (the service's current verdicts), against
// the recorded baseline: a shift of more than 5 points names the criteria that moved.
console.log('\n== SEC snapshot, the 30 shared companies, newest data ==');
const current = {};
for (const ticker of [...secTickers].sort()) {
  const r = await score(sec, ticker);
  if (!r.evaluation) {
    console.log(`  ${ticker}: ${r.error}`);
    continue;
  }
  current[ticker] = {
    pct: Number(r.pct.toFixed(2)),
    criteria: Object.fromEntries(r.evaluation.criteria.map((c) => [c.key, c.score])),
    codes: qualityCodes(r.evaluation),
  };
}
const flagged = Object.entries(current)
  .filter(([, c]) => c.codes.some((code) => !code.includes(':')))
  .map(([t, c]) => `${t} (${c.codes.filter((code) => !code.includes(':')).join(', ')})`);
console.log(`data-quality flags: ${flagged.join(', ') || 'none'}`);
const weak = WEAK_SET.filter((t) => current[t]).map((t) => current[t].pct);
console.log(
  `weak set (${weak.length}): median ${f1(median(weak))}, at ≥ 50: ${WEAK_SET.filter((t) => current[t]?.pct >= 50).join(', ') || 'none'}`,
);
let baseline = {};
try {
  baseline = JSON.parse(readFileSync(SEC_BASELINE, 'utf8'));
} catch {
  // no baseline recorded yet
}
const shifts = [];
for (const [ticker, now] of Object.entries(current)) {
  const before = baseline[ticker];
  if (!before) continue;
  const delta = now.pct - before.pct;
  if (Math.abs(delta) <= 5) continue;
  const causes = Object.entries(now.criteria)
    .map(([key, points]) => [key, points - (before.criteria[key] ?? 0)])
    .filter(([, d]) => Math.abs(d) >= 0.5)
    .map(([key, d]) => `${key} ${d > 0 ? '+' : ''}${d.toFixed(2)}`);
  shifts.push(
    `  ${ticker} ${f1(before.pct)} → ${f1(now.pct)}: ${causes.join(', ')}; flags ${now.codes.join(', ') || 'none'}`,
  );
}
const moves = Object.entries(current)
  .filter(([t, now]) => baseline[t] && Math.abs(now.pct - baseline[t].pct) >= 0.01)
  .map(
    ([t, now]) =>
      `${t} ${now.pct - baseline[t].pct > 0 ? '+' : ''}${(now.pct - baseline[t].pct).toFixed(2)}`,
  );
console.log(`moves against sec-baseline.json: ${moves.join(', ') || 'none'}`);
console.log(`shifts > 5 points against sec-baseline.json: ${shifts.length ? '' : 'none'}`);
for (const s of shifts) console.log(s);
if (args['sec-baseline']) {
  writeFileSync(SEC_BASELINE, `${JSON.stringify(current, null, 1)}\n`);
  console.log('  (sec-baseline.json rewritten)');
}

// Per-change delta table: the recorded runs of this half, each against the one before.
let history = [];
try {
  history = JSON.parse(readFileSync(HISTORY, 'utf8'));
} catch {
  // first run
}
if (args.record) {
  history.push({
    change: args.record,
    half: args.half,
    simfin: {
      auroc: Number(f3(simfinFigures.auroc)),
      ci: simfinFigures.ci.map((x) => Number(f3(x))),
      wideAt50: Number(f1(100 * simfinFigures.wideAt50)),
      noneAt50: simfinFigures.noneAt50,
      noneMedian: Number(f1(simfinFigures.noneMedian)),
      narrowMedian: Number(f1(simfinFigures.narrowMedian)),
    },
    sec: {
      auroc: Number(f3(secFigures.auroc)),
      weakMedian: Number(f1(median(weak))),
      shifts: shifts.length,
    },
  });
  writeFileSync(HISTORY, `${JSON.stringify(history, null, 1)}\n`);
}
const mine = history.filter((h) => h.half === args.half);
if (mine.length > 0) {
  console.log(`\n== per-change delta table (${args.half} half, SimFin unless named) ==`);
  console.log(
    '  change | AUROC | Δ AUROC | wide ≥ 50 % | Δ | no-moat ≥ 50 | SEC AUROC | SEC weak median',
  );
  let p;
  mine.forEach((h) => {
    const d = (a, b) => (p ? `${a - b >= 0 ? '+' : ''}${(a - b).toFixed(3)}` : '');
    console.log(
      `  ${h.change}${h.kept === false ? ' (NOT KEPT)' : ''} | ${h.simfin.auroc} | ${p ? d(h.simfin.auroc, p.simfin.auroc) : ''} | ${h.simfin.wideAt50} | ${p ? d(h.simfin.wideAt50, p.simfin.wideAt50) : ''} | ${h.simfin.noneAt50.join(' ') || 'none'} | ${h.sec?.auroc ?? 'n/a'} | ${h.sec?.weakMedian ?? 'n/a'}`,
    );
    if (h.kept !== false) p = h;
  });
}

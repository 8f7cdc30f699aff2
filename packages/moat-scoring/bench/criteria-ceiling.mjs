// How much of the separation of wide from no-moat companies the eight criteria hold (issue 39,
// a diagnostic of the calibration bench; nothing here enters the score, whose weights the
// interface spec fixes at 12.5 points a criterion).
//
//   node bench/criteria-ceiling.mjs [--sets labels,holdout,holdout2,holdout3]
//
// Scores every company of the named label files on SimFin as of its rating date (no provider
// reconciliation, so totals can differ from `calibrate.mjs` by a few points where the SEC snapshot
// also covers a company), then for each set in turn fits a logistic regression of the rating
// (wide = 1, none = 0; narrow left out) on the eight criterion scores of the *other* sets and
// prints the AUROC of that fitted combination on the held-out set beside the AUROC of the
// equal-weight total. The gap is what any weighting of the same eight scores could add on data it
// was not fitted on: the ceiling of re-weighting, not a proposal to fit weights (the issue rules
// out a model fitted to labels inside the score). Last, the weights fitted on all the sets, which
// say which criteria carry the separation.
//
// Default sets are the ones already scored (used); a hold-out set kept unseen for the next round
// must not be named here. Reads ../shared/data or $SHARED_DATA_DIR; about 3 s after a build.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createSimfinProvider } from '@svc/fundamentals-client';
import { evaluateMoat } from '../dist/index.js';
import { auroc, pct, withSector } from './calibration-support.mjs';

const here = import.meta.dirname;
const SHARED = resolve(process.env.SHARED_DATA_DIR ?? join(here, '../../../../shared/data'));
const SIMFIN_DIR = join(SHARED, 'fundamentals/raw/simfin_us_annual_2021-04');
const { values: args } = parseArgs({
  options: { sets: { type: 'string', default: 'labels,holdout,holdout2,holdout3' } },
});
const sets = args.sets.split(',').map((s) => s.trim());
for (const s of sets) {
  if (!/^(labels|holdout\d*)$/.test(s)) throw new Error(`--sets: unknown set ${s}`);
}

const simfin = createSimfinProvider({ dir: SIMFIN_DIR });

/** One row per wide or no-moat company: its set, label (1 wide, 0 none), scores and total. */
const rows = [];
let keys = null;
for (const set of sets) {
  const file = join(here, `calibration/${set}.json`);
  for (const label of JSON.parse(readFileSync(file, 'utf8')).companies) {
    if (label.rating === 'narrow') continue;
    let f;
    try {
      f = await simfin.getFundamentals(label.ticker, { asOf: label.ratedOn });
    } catch {
      continue;
    }
    const e = evaluateMoat(withSector(f, label.ticker));
    keys ??= e.criteria.map((c) => c.key);
    rows.push({
      set,
      y: label.rating === 'wide' ? 1 : 0,
      x: keys.map((k) => (e.criteria.find((c) => c.key === k)?.score ?? 0) / 12.5),
      total: pct(e),
    });
  }
}

/** AUROC of scores `s` for labels `y` (1 wide, 0 none). */
const aurocOf = (s, y) =>
  auroc(
    s.filter((_, i) => y[i] === 1),
    s.filter((_, i) => y[i] === 0),
  );

/** Logistic regression by batch gradient descent, L2 penalty 1 on the weights (not the bias). */
function fit(data) {
  const w = new Array(data[0].x.length + 1).fill(0);
  for (let step = 0; step < 5000; step += 1) {
    const grad = new Array(w.length).fill(0);
    for (const { x, y } of data) {
      const z = x.reduce((t, v, k) => t + v * w[k], w[w.length - 1]);
      const err = 1 / (1 + Math.exp(-z)) - y;
      x.forEach((v, k) => {
        grad[k] += err * v;
      });
      grad[w.length - 1] += err;
    }
    for (let k = 0; k < w.length; k += 1) {
      const penalty = k < w.length - 1 ? w[k] : 0;
      w[k] -= (0.5 * (grad[k] + penalty)) / data.length;
    }
  }
  return w;
}
const predict = (w, x) => x.reduce((t, v, k) => t + v * w[k], w[w.length - 1]);

console.log(
  'held-out set | wide | none | AUROC equal-weight total | AUROC fitted on the other sets',
);
for (const set of sets) {
  const test = rows.filter((r) => r.set === set);
  const train = rows.filter((r) => r.set !== set);
  const y = test.map((r) => r.y);
  if (!y.includes(1) || !y.includes(0) || train.length === 0) continue;
  const w = fit(train);
  console.log(
    `${set.padEnd(12)} | ${String(y.filter((v) => v === 1).length).padStart(4)} | ${String(y.filter((v) => v === 0).length).padStart(4)} | ${aurocOf(
      test.map((r) => r.total),
      y,
    ).toFixed(3)} | ${aurocOf(
      test.map((r) => predict(w, r.x)),
      y,
    ).toFixed(3)}`,
  );
}
const all = fit(rows);
console.log('weights fitted on all the sets (per full criterion; diagnostic only):');
for (const [k, key] of keys.entries()) console.log(`  ${key.padEnd(27)} ${all[k].toFixed(2)}`);

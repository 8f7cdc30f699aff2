import { describe, expect, it } from 'vitest';
import { MCD } from '../../test/fixtures/mcd.js';
import { dataFacts } from './data-facts.js';
import { evaluationFacts } from './evaluation-facts.js';
import { mergeFacts } from './facts.js';
import { Grounder } from './ground.js';

const MAX_ANSWER = 20_000;

function facts() {
  const set = evaluationFacts(MCD);
  const rows = Array.from({ length: 300 }, (_, i) => ({
    symbol: `S${i}`,
    quantity: String(i + 1),
    currency: 'USD',
    marketValueEur: (100 + i).toFixed(2),
    weight: '0.003',
  }));
  return mergeFacts(set, dataFacts(rows, 'listHoldings'));
}

/** Streams `text` in 4-character pieces; the work of the costliest push and of all of them. */
function stream(text: string) {
  const grounder = new Grounder(facts());
  let costliest = 0;
  let before = grounder.work;
  const step = (push: () => void) => {
    push();
    costliest = Math.max(costliest, grounder.work - before);
    before = grounder.work;
  };
  for (let at = 0; at < text.length; at += 4) step(() => grounder.push(text.slice(at, at + 4)));
  step(() => grounder.end());
  return { costliest, total: grounder.work, report: grounder.report() };
}

const fill = (unit: string, chars: number) => unit.repeat(Math.floor(chars / unit.length));

// The worst cases the bench measures (bench/grounding.bench.mjs), as work counts: characters
// read by the scans, a fixed count per figure, facts compared. No clock is read.
const CASES: [string, string][] = [
  ['" 42%" in one sentence (issue 32)', ' 42%'],
  ['"1 " (most figures)', '1 '],
  ['"ROIC 26.5% " (metric and figure)', 'ROIC 26.5% '],
  ['"MCD 1 share " (subject, metric, count)', 'MCD 1 share '],
  ['"Apple’s ROIC 1% " (unknown subjects)', 'Apple’s ROIC 1% '],
  ['table rows', '|1|2|3|4|\n'],
];

describe('the figure check never blocks the process: bounded work (issue 32)', () => {
  it.each(CASES)(
    '%s: each figure checked once; work linear in the answer, bounded per piece',
    (_name, unit) => {
      const small = stream(fill(unit, MAX_ANSWER / 10));
      const large = stream(fill(unit, MAX_ANSWER));
      // Every figure is judged exactly once.
      const figures = (text: string) => text.match(/\d+(?:\.\d+)?/g)?.length ?? 0;
      expect(large.report.total).toBe(figures(fill(unit, MAX_ANSWER)));
      // Ten times the text costs about ten times the work (quadratic would be a hundred)…
      expect(large.total).toBeLessThan(12 * small.total);
      // …at most a few hundred units a character…
      expect(large.total).toBeLessThan(400 * MAX_ANSWER);
      // …and no piece of a long answer costs more than a piece of a short one.
      expect(large.costliest).toBeLessThanOrEqual(small.costliest * 1.5 + 1_000);
    },
  );

  it('one 20,000-character piece costs the same work as the same text in small pieces', () => {
    const text = fill(' 42%', MAX_ANSWER);
    const whole = new Grounder(facts());
    whole.push(text);
    whole.end();
    expect(whole.report().total).toBe(5_000);
    expect(whole.work).toBeLessThan(2 * stream(text).total);
  });
});

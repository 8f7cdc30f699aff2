import { readdirSync } from 'node:fs';
import {
  emptyFacts,
  evaluationFacts,
  type FactSet,
  groundText,
  mergeFacts,
  type NarrativeEvent,
  streamNarrative,
} from '@svc/advisor';
import type { MoatEvaluation } from '@svc/schemas';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPANYFACTS_DIR } from './shared-data.js';
import { realEvaluations } from './support/real-evaluations.js';

/**
 * Issue 17: the grounding of AI answers measured on the real evaluations of ../shared/data.
 * Sentences state a fact of a company correctly (none may be flagged) or perturbed — ±5 % and
 * more, in a wrong unit, for another company, a value for a null fact (none may pass).
 */
const SYMBOLS = readdirSync(COMPANYFACTS_DIR)
  .map((name) => /^(.+)_CIK\d{10}\.json$/.exec(name)?.[1])
  .filter((symbol): symbol is string => symbol !== undefined)
  .sort();
const real = realEvaluations(SYMBOLS, new Date('2026-09-01T12:00:00.000Z'));
let evaluations: MoatEvaluation[] = [];
let all: FactSet = emptyFacts();

beforeAll(async () => {
  await real.load();
  evaluations = SYMBOLS.map((s) => real.result(s) as MoatEvaluation);
  all = emptyFacts();
  for (const e of evaluations) mergeFacts(all, evaluationFacts(e));
}, 180_000);

type Unit = 'percent' | 'years' | 'points' | 'pe' | 'usd' | 'eps';

/** One statable fact: how a sentence names it, its unit, its value (null: N/A), its year. */
interface Statement {
  readonly symbol: string;
  readonly phrase: string;
  readonly unit: Unit;
  readonly value: number | null;
  readonly year?: number;
}

const PHRASES: Record<string, { phrase: string; unit: Unit; trend: string; trendUnit: Unit }> = {
  earnings_consistency: { phrase: 'EPS growth', unit: 'percent', trend: 'EPS', trendUnit: 'eps' },
  gross_margin: {
    phrase: 'gross margin',
    unit: 'percent',
    trend: 'gross margin',
    trendUnit: 'percent',
  },
  net_margin: { phrase: 'net margin', unit: 'percent', trend: 'net margin', trendUnit: 'percent' },
  return_on_invested_capital: {
    phrase: 'ROIC',
    unit: 'percent',
    trend: 'ROIC',
    trendUnit: 'percent',
  },
  debt_sustainability: { phrase: 'debt', unit: 'years', trend: 'debt', trendUnit: 'years' },
  capex_efficiency: { phrase: 'capex', unit: 'percent', trend: 'capex', trendUnit: 'percent' },
  product_durability: {
    phrase: 'product steadiness',
    unit: 'points',
    trend: 'revenue',
    trendUnit: 'usd',
  },
};

function statementsOf(e: MoatEvaluation): Statement[] {
  const out: Statement[] = [
    { symbol: e.symbol, phrase: 'total score', unit: 'points', value: e.totalScore },
    { symbol: e.symbol, phrase: 'P/E', unit: 'pe', value: e.valuation?.peRatio ?? null },
  ];
  for (const c of e.criteria) {
    const p = PHRASES[c.key];
    if (!p) continue;
    out.push({ symbol: e.symbol, phrase: p.phrase, unit: p.unit, value: c.numericValue ?? null });
    (c.trend ?? []).forEach((value, i) => {
      const year = c._trendYears?.[i];
      if (year !== undefined) {
        out.push({ symbol: e.symbol, phrase: p.trend, unit: p.trendUnit, value, year });
      }
    });
  }
  return out;
}

/** The value as a sentence prints it, in `unit` (the fact's own unless perturbed). */
function printed(value: number, unit: Unit): string {
  const v = Math.abs(value);
  switch (unit) {
    case 'percent':
      return `${v.toFixed(1)}%`;
    case 'years':
      return `${v.toFixed(1)} years of net income`;
    case 'points':
      return v.toFixed(1);
    case 'pe':
      return v.toFixed(1);
    case 'usd':
      return `$${(v / 1e9).toFixed(2)}B`;
    case 'eps':
      return `$${v.toFixed(2)}`;
  }
}

function sentence(s: Statement, symbol: string, figure: string): string {
  const when = s.year === undefined ? '' : ` in FY${s.year}`;
  return `${symbol}'s ${s.phrase} was ${figure}${when}.`;
}

const WRONG_UNIT: Record<Unit, (v: number) => string> = {
  percent: (v) => `$${Math.abs(v).toFixed(1)}`,
  years: (v) => `${Math.abs(v).toFixed(1)}%`,
  points: (v) => `$${Math.abs(v).toFixed(1)}`,
  pe: (v) => `${Math.abs(v).toFixed(1)}%`,
  usd: (v) => `${(Math.abs(v) / 1e9).toFixed(2)}%`,
  eps: (v) => `${Math.abs(v).toFixed(2)}%`,
};

/** Whether a printed figure would be a true statement of some fact of that phrase (any year). */
function trueOfSome(statements: Statement[], s: Statement, figure: string): boolean {
  return statements.some(
    (o) =>
      o.phrase === s.phrase &&
      o.unit === s.unit &&
      (s.year === undefined || o.year === s.year) &&
      o.value !== null &&
      printed(o.value, o.unit) === figure,
  );
}

/** The numbers the evaluation's own texts print (display values, benchmarks, notes). */
function printedNumbers(e: MoatEvaluation): { value: number; half: number }[] {
  const notes = (e.valuation as { _notes?: unknown } | undefined)?._notes;
  const texts = [
    ...e.criteria.flatMap((c) => [c.value, c.benchmark ?? '']),
    ...(Array.isArray(notes) ? notes.map(String) : []),
  ];
  return texts.flatMap((t) =>
    [...t.matchAll(/\d+(?:\.(\d+))?/g)].map((m) => ({
      value: Number(m[0]),
      half: 0.5 * 10 ** -(m[1]?.length ?? 0),
    })),
  );
}

/** Whether a perturbed figure happens to be a figure the evaluation prints elsewhere. */
function printedElsewhere(e: MoatEvaluation, figure: string): boolean {
  const m = /(\d+(?:\.(\d+))?)/.exec(figure.replace(/,/g, ''));
  if (!m?.[1]) return false;
  const value = Number(m[1]);
  const half = 0.5 * 10 ** -(m[2]?.length ?? 0);
  if (figure.includes('B')) return false;
  return printedNumbers(e).some((n) => Math.abs(n.value - value) <= n.half + half);
}

function flagged(text: string): number {
  return groundText(text, all).ungrounded.length;
}

describe('grounding over the real evaluations of ../shared/data (issue 17)', () => {
  it('flags no figure of a sentence stating a fact correctly', () => {
    const correct = evaluations.flatMap(statementsOf).filter((s) => s.value !== null);
    expect(correct.length).toBeGreaterThan(1000);
    const wrong = correct.filter(
      (s) => flagged(sentence(s, s.symbol, printed(s.value as number, s.unit))) > 0,
    );
    expect(wrong.map((s) => sentence(s, s.symbol, printed(s.value as number, s.unit)))).toEqual([]);
  });

  it('passes no perturbed figure: ±5 % and more', () => {
    const statements = evaluations.flatMap(statementsOf);
    const stated = statements.filter((s) => s.value !== null && Math.abs(s.value) > 0);
    fc.assert(
      fc.property(
        fc.constantFrom(...stated),
        fc.double({ min: 0.05, max: 3, noNaN: true }),
        fc.boolean(),
        (s, factor, up) => {
          const value = (s.value as number) * (up ? 1 + factor : 1 - Math.min(factor, 0.95));
          const figure = printed(value, s.unit);
          const own = statements.filter((o) => o.symbol === s.symbol);
          const evaluation = evaluations.find((e) => e.symbol === s.symbol) as MoatEvaluation;
          fc.pre(!trueOfSome(own, s, figure) && !printedElsewhere(evaluation, figure));
          expect(flagged(sentence(s, s.symbol, figure))).toBe(1);
        },
      ),
      { numRuns: 600, seed: 17 },
    );
  });

  it('passes no figure in a wrong unit, for another company, or for a null (N/A) fact', () => {
    const statements = evaluations.flatMap(statementsOf);
    const stated = statements.filter((s) => s.value !== null);
    fc.assert(
      fc.property(fc.constantFrom(...stated), fc.constantFrom(...SYMBOLS), (s, other) => {
        expect(flagged(sentence(s, s.symbol, WRONG_UNIT[s.unit](s.value as number)))).toBe(1);
        const figure = printed(s.value as number, s.unit);
        const theirs = statements.filter((o) => o.symbol === other);
        const theirEvaluation = evaluations.find((e) => e.symbol === other) as MoatEvaluation;
        fc.pre(
          other !== s.symbol &&
            !trueOfSome(theirs, s, figure) &&
            !printedElsewhere(theirEvaluation, figure),
        );
        expect(flagged(sentence(s, other, figure))).toBe(1);
      }),
      { numRuns: 600, seed: 17 },
    );
    const nulls = statements.filter((s) => s.value === null);
    expect(nulls.length).toBeGreaterThan(5);
    fc.assert(
      fc.property(
        fc.constantFrom(...nulls),
        fc.double({ min: 0.1, max: 500, noNaN: true }),
        (s, v) => {
          // A null headline (a median) may have yearly values: a figure true of one is not invented.
          const own = statements.filter((o) => o.symbol === s.symbol);
          const evaluation = evaluations.find((e) => e.symbol === s.symbol) as MoatEvaluation;
          const figure = printed(v, s.unit);
          fc.pre(!trueOfSome(own, s, figure) && !printedElsewhere(evaluation, figure));
          expect(flagged(sentence(s, s.symbol, figure))).toBe(1);
        },
      ),
      { numRuns: 300, seed: 17 },
    );
  });

  it('the MCD narrative of the issue: its four invented figures are flagged', () => {
    const text =
      'McDonald’s (MCD) has a gross margin of 80%, a ROIC of 99% and a P/E of 12.3; ' +
      '3 of 8 criteria pass.';
    const report = groundText(text, evaluationFacts(real.result('MCD') as MoatEvaluation));
    expect(report).toMatchObject({ total: 5, grounded: 0 });
    expect(report.ungrounded.map((u) => [u.text, u.reason])).toEqual([
      ['80%', 'not_available'],
      ['99%', 'mismatch'],
      ['12.3', 'not_available'],
      ['3', 'mismatch'],
      ['8', 'mismatch'],
    ]);
  });

  it('the offline template of every real evaluation is 100 % grounded, in every supported language', async () => {
    for (const evaluation of evaluations) {
      for (const language of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt']) {
        let done: Extract<NarrativeEvent, { type: 'done' }> | undefined;
        const signal = new AbortController().signal;
        for await (const event of streamNarrative({
          endpoint: null,
          evaluation,
          language,
          signal,
        })) {
          if (event.type === 'done') done = event;
        }
        expect(done?._grounding.total, `${evaluation.symbol} ${language}`).toBeGreaterThan(10);
        expect(done?._grounding.ungrounded, `${evaluation.symbol} ${language}`).toEqual([]);
      }
    }
  });
});

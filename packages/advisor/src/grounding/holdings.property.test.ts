import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataFacts } from './data-facts.js';
import { groundText } from './ground.js';

/** Holdings rows as `listHoldings` returns them (decimal strings, weight a fraction 0–1). */
const holdingsArb = fc
  .uniqueArray(
    fc.record({
      symbol: fc.constantFrom('AAPL', 'KO', 'MSFT', 'NVDA', 'SAP', 'ASML', 'NESN', 'JNJ'),
      // A bare 1900–2100 reads as a year (not a claim): quantities stay below.
      quantity: fc.integer({ min: 1, max: 1899 }),
      marketValueEur: fc.integer({ min: 100, max: 5_000_000 }).map((c) => c / 100),
    }),
    { minLength: 2, maxLength: 6, selector: (h) => h.symbol },
  )
  .map((rows) => {
    const total = rows.reduce((sum, r) => sum + r.marketValueEur, 0);
    return rows.map((r) => ({
      symbol: r.symbol,
      name: r.symbol,
      quantity: String(r.quantity),
      currency: 'USD',
      marketValueEur: r.marketValueEur.toFixed(2),
      weight: (r.marketValueEur / total).toFixed(6),
    }));
  });

type Row = { symbol: string; quantity: string; marketValueEur: string; weight: string };

const eur = (v: number) =>
  `€${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const sentence = (symbol: string, quantity: string, value: string, weight: string) =>
  `You hold ${quantity} ${symbol} shares worth ${value} (${weight} of your portfolio).`;

function flaggedTexts(rows: Row[], text: string): string[] {
  return groundText(text, dataFacts(rows, 'listHoldings')).ungrounded.map((u) => u.text);
}

describe('grounding of the advisor’s figures about holdings (issue 17)', () => {
  it('states each holding correctly: nothing flagged', () => {
    fc.assert(
      fc.property(holdingsArb, (rows) => {
        for (const r of rows) {
          const weight = `${(Number(r.weight) * 100).toFixed(1)}%`;
          const text = sentence(r.symbol, r.quantity, eur(Number(r.marketValueEur)), weight);
          expect(flaggedTexts(rows, text)).toEqual([]);
        }
      }),
      { numRuns: 200, seed: 17 },
    );
  }, 60_000);

  it('perturbed quantities, EUR values and weights (±5 % and more), or another holding’s: flagged', () => {
    fc.assert(
      fc.property(
        holdingsArb,
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.constantFrom('quantity', 'value', 'weight', 'swap', 'currency'),
        (rows, factor, what) => {
          const [a, b] = rows as unknown as [Row, Row];
          const q = Number(a.quantity);
          const v = Number(a.marketValueEur);
          const w = Number(a.weight) * 100;
          const weight = `${w.toFixed(1)}%`;
          const cases: Record<string, [string, string]> = {
            quantity: [
              sentence(a.symbol, String(Math.round(q * (1 + factor)) + 1), eur(v), weight),
              'q',
            ],
            value: [sentence(a.symbol, a.quantity, eur(v * (1 + factor)), weight), 'v'],
            weight: [
              sentence(a.symbol, a.quantity, eur(v), `${(w * (1 + factor) + 0.2).toFixed(1)}%`),
              'w',
            ],
            swap: [sentence(b.symbol, a.quantity, eur(v), weight), 's'],
            currency: [sentence(a.symbol, a.quantity, `$${v.toFixed(2)}`, weight), 'c'],
          };
          const [text] = cases[what] as [string, string];
          const perturbedQuantity = Math.round(q * (1 + factor)) + 1;
          fc.pre(what !== 'quantity' || perturbedQuantity < 1900 || perturbedQuantity > 2100);
          // A perturbation equal to another holding's figure of the same subject cannot happen;
          // a swap is only wrong where the two holdings differ.
          if (what === 'swap') {
            const differ = [a.quantity !== b.quantity, a.marketValueEur !== b.marketValueEur];
            fc.pre(differ.every(Boolean) && Math.abs(Number(a.weight) - Number(b.weight)) > 0.001);
            expect(flaggedTexts(rows, text).length).toBe(3);
          } else {
            expect(flaggedTexts(rows, text).length).toBe(1);
          }
        },
      ),
      { numRuns: 500, seed: 17 },
    );
  }, 60_000);
});

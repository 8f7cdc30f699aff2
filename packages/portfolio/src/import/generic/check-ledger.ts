import { Dec } from '../../decimal.js';
import { TYPE_RANK } from '../../derive-holdings.js';
import type { ImportedRow } from '../import-result.js';
import { type FileView, type Finding, list, pass, tradesOf } from './check-support.js';

// The checks of what the ledger says after the mapping's import (see verifyMapping).

/**
 * The `quantity-price-amount` and `fractional-quantity` checks (see `verifyMapping`): on the trade
 * rows that name quantity, price and amount.
 */
export function productChecks(file: FileView, rows: readonly ImportedRow[]): Finding[] {
  const samples: { line: number; ratio: number; fits: boolean; fractional: boolean }[] = [];
  const seen = new Set<number>();
  for (const t of tradesOf(rows)) {
    if (seen.has(t.line)) continue;
    seen.add(t.line);
    const row = file.byLine.get(t.line);
    if (!row) continue;
    const q = file.number(row, 'quantity');
    const p = file.number(row, 'price');
    const a = file.number(row, 'amount');
    if (!q || !p || !a || q.isZero() || p.isZero() || a.isZero()) continue;
    const value = q.abs().times(p.abs());
    const paid = a.abs();
    const fee = file.number(row, 'fee')?.abs() ?? new Dec(0);
    const slack = Dec.max(paid.times(0.05), fee.plus(0.011).plus(q.abs().times(0.005)));
    samples.push({
      line: t.line,
      ratio: value.dividedBy(paid).toNumber(),
      fits: value.minus(paid).abs().lte(slack),
      fractional: !q.isInteger(),
    });
  }
  const judge = (id: string, subset: typeof samples, what: string): Finding => {
    if (subset.length === 0) return pass(id, `no ${what} row names quantity, price and amount`);
    const misfits = subset.filter((s) => !s.fits);
    if (misfits.length === 0 || misfits.length <= subset.length * 0.1) {
      return pass(
        id,
        `quantity × price matches the amount on ${subset.length - misfits.length} of ${subset.length} ${what} rows`,
      );
    }
    // judged on every trade row: a fractional row off while whole ones fit is no exchange rate
    const ratios = samples.map((s) => s.ratio).sort((x, y) => x - y);
    const median = ratios[Math.floor(ratios.length / 2)] ?? 1;
    // an amount in another currency: every row off by about the same rate, and not by none
    const steady = ratios.every((r) => r >= median / 1.1 && r <= median * 1.1);
    if (steady && samples.length >= 2 && Math.abs(median - 1) > 0.05) {
      return pass(
        id,
        `quantity × price is the amount times a steady rate (${median.toPrecision(4)}) on ${samples.length} trade rows: the amount is in another currency`,
      );
    }
    const shown = misfits.slice(0, 3).map((m) => `line ${m.line}: ×${m.ratio.toPrecision(3)}`);
    return {
      id,
      passed: false,
      detail: `quantity × price differs from the amount on ${misfits.length} of ${subset.length} ${what} rows (${shown.join(', ')})`,
      lines: misfits.map((m) => m.line),
      question: {
        field: 'quantity',
        question: `On ${misfits.length} ${what} rows (lines ${list(misfits.map((m) => m.line))}) quantity × price is not the amount: do "${file.mapping.columns.quantity}", "${file.mapping.columns.price}" and "${file.mapping.columns.amount}" hold the units, the unit price and the trade's cash?`,
        candidates: [
          file.mapping.columns.quantity ?? '',
          file.mapping.columns.price ?? '',
          file.mapping.columns.amount ?? '',
        ].filter(Boolean),
      },
    };
  };
  return [
    judge('quantity-price-amount', samples, 'trade'),
    judge(
      'fractional-quantity',
      samples.filter((s) => s.fractional),
      'fractional-quantity trade',
    ),
  ];
}

/** The `positions` check (see `verifyMapping`): the units held over time, replayed. */
export function positions(rows: readonly ImportedRow[]): Finding {
  const ordered = [...rows].sort(
    (a, b) =>
      Date.parse(a.transaction.executedAt) - Date.parse(b.transaction.executedAt) ||
      TYPE_RANK[a.transaction.type] - TYPE_RANK[b.transaction.type] ||
      a.line - b.line ||
      a.index - b.index,
  );
  const held = new Map<string, Dec>();
  const bought = new Set<string>();
  const doubts: { line: number; text: string }[] = [];
  let sells = 0;
  let buys = 0;
  for (const { line, transaction: tx } of ordered) {
    if (tx.type === 'split') continue;
    if (tx.type !== 'buy' && tx.type !== 'sell' && tx.type !== 'dividend') continue;
    const key = `${tx.symbol}|${tx.currency}`;
    const now = held.get(key) ?? new Dec(0);
    if (tx.type === 'buy') {
      buys++;
      bought.add(key);
      held.set(key, now.plus(tx.quantity));
    } else if (tx.type === 'sell') {
      sells++;
      const q = new Dec(tx.quantity);
      // beyond the units held by more than a fifth (fractional units are rounded by brokers)
      if (q.gt(now.times(1.2).plus(1e-9)) && bought.has(key)) {
        doubts.push({
          line,
          text: `line ${line} sells ${q.toFixed()} ${tx.symbol} when ${now.toFixed()} are held, although the file bought it before`,
        });
      }
      held.set(key, Dec.max(0, now.minus(q)));
    } else if (now.isZero() && bought.has(key)) {
      doubts.push({
        line,
        text: `line ${line} pays a dividend on ${tx.symbol} when the file's own trades left 0 units`,
      });
    }
  }
  if (sells >= 2 && buys === 0) {
    doubts.push({ line: 0, text: `all ${sells} trades are sales and none is a purchase` });
  }
  if (doubts.length === 0) {
    return pass('positions', 'no position goes below 0 or pays on 0 while the file trades it');
  }
  return {
    id: 'positions',
    passed: false,
    detail:
      doubts
        .slice(0, 3)
        .map((d) => d.text)
        .join('; ') + (doubts.length > 3 ? ` (${doubts.length} in all)` : ''),
    lines: doubts.map((d) => d.line).filter((l) => l > 0),
    question: {
      field: 'side',
      question: `The holdings go below 0 or pay on 0 (${doubts[0]?.text}): are buys and sells told apart right (the action values, or the sign of the quantity or the amount)?`,
      candidates: ['quantity', 'amount', 'action'],
    },
  };
}

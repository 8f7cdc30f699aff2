import type { PortfolioXray } from '@svc/schemas';

const SHORT: Record<string, string> = {
  'Strong Durable Competitive Advantage': 'Strong',
  'Moderate Competitive Advantage': 'Moderate',
  'Narrow Moat — Proceed with Caution': 'Narrow',
  'No Clear Moat Detected': 'None',
};

const pct = (fraction: number | null | undefined) =>
  fraction === null || fraction === undefined ? 'n/a' : `${(fraction * 100).toFixed(1)} %`;
const num = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? 'n/a' : value.toFixed(digits);

/**
 * The portfolio moat X-ray as a terminal table: one line per holding (weight, EUR value, verdict
 * and score or the reason it has none, P/E, PEG, payout, sell trigger), then the share per
 * verdict band, the value-weighted score, the holdings past the sell trigger and the concentration.
 */
export function formatXray(xray: PortfolioXray): string {
  const lines = [
    `Moat X-ray of ${xray.portfolioId}, values as of ${xray.asOf.slice(0, 10)}: ${xray.valueEur ?? 'n/a'} EUR`,
    '',
    'Holding   Weight    Value EUR  Moat                 P/E    PEG  Payout  Sell trigger',
  ];
  for (const h of xray.holdings) {
    const e = h.evaluation;
    const v = h.valuation;
    const moat = e
      ? `${SHORT[e.verdict] ?? e.verdict} ${num(e.totalScore)}/${e.maxScore}`
      : `(${h.reason ?? 'none'})`;
    lines.push(
      [
        h.symbol.padEnd(9),
        pct(h.weight).padStart(7),
        (h.valueEur ?? 'n/a').padStart(12),
        ` ${moat.padEnd(19)}`,
        num(v?.pe).padStart(6),
        num(v?.peg, 2).padStart(6),
        (v?.payoutRatio === null || v?.payoutRatio === undefined
          ? 'n/a'
          : `${v.payoutRatio.toFixed(0)} %`
        ).padStart(7),
        ` ${v ? (v.sellTrigger ? 'PAST' : 'no') : 'n/a'}`,
      ].join(' '),
    );
  }
  const bands = xray.bands.map((b) => `${SHORT[b.verdict] ?? b.verdict} ${pct(b.weight)}`);
  const c = xray.concentration;
  lines.push(
    '',
    `Verdict bands: ${bands.join(', ')}, unrated ${pct(xray.unratedWeight)}`,
    `Value-weighted score: ${xray.weightedScore === null ? 'n/a' : `${num(xray.weightedScore)} / 100`}`,
    `Past the sell trigger (P/E ≥ 40): ${xray.pastSellTrigger.join(', ') || 'none'}`,
    `Concentration: largest ${c.largest ? `${c.largest.symbol} ${pct(c.largest.weight)}` : 'n/a'}, top 5 ${pct(c.top5Weight)}, Herfindahl ${c.herfindahl.toFixed(3)} (≈ ${num(c.effectiveHoldings)} equal holdings)`,
  );
  if (xray.pending.length > 0) lines.push(`Pending evaluations: ${xray.pending.join(', ')}`);
  if (xray.unvalued.length > 0) lines.push(`Without an EUR value: ${xray.unvalued.join(', ')}`);
  lines.push('Informational only, not financial advice.');
  return lines.join('\n');
}

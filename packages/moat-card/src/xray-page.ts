import { type PortfolioXray, VERDICT_LABELS, type XrayHolding } from '@svc/schemas';
import { CARD_DISCLAIMER } from './card.js';
import { CARD_STYLE } from './card-style.js';
import { escapeMarkup as esc } from './escape.js';

/** Options of {@link portfolioXrayPage}. */
export interface XrayPageOptions {
  /** The CSP nonce of the page's one `<style>` element (the page has no script). */
  readonly nonce: string;
  /** The portfolio's name, for the title; default "Portfolio". */
  readonly name?: string;
  /** Where a holding's moat card is (`/evaluation/{symbol}`); none: holdings are not linked. */
  readonly cardHref?: (ticker: string) => string;
}

/** What each reason means to a reader. */
const REASON_TEXT: Record<NonNullable<XrayHolding['reason']>, string> = {
  fund: 'a fund: not scored',
  'not-a-share': 'not a share: not scored',
  unresolved: 'not identified (no ticker)',
  'not-sec-filer': 'files no 10-K with the SEC',
  'no-data': 'too little data to score',
  pending: 'being evaluated: reload shortly',
  quota: 'evaluation quota spent for this period',
  'not-evaluated': 'not evaluated yet',
};

/** Short labels of the verdict bands, strongest first (the legend and the table). */
const BAND_SHORT = ['Strong', 'Moderate', 'Narrow', 'None'] as const;

const percent = (fraction: number | null) =>
  fraction === null ? '–' : `${(fraction * 100).toFixed(1)} %`;
const number = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '–' : value.toFixed(digits);
const euros = (value: string | null) =>
  value === null
    ? '–'
    : `${Number(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} €`;

/** The verdict bands and unrated as one stacked bar (an SVG with a text alternative). */
function bandsBar(xray: PortfolioXray): string {
  const parts = [
    ...xray.bands.map((b) => ({
      key: `band-${3 - VERDICT_LABELS.indexOf(b.verdict)}`,
      label: b.verdict,
      weight: b.weight,
    })),
    { key: 'unrated', label: 'Unrated', weight: xray.unratedWeight },
  ];
  let x = 0;
  const rects = parts
    .filter((p) => p.weight > 0)
    .map((p) => {
      const rect = `<rect class="band ${p.key}" x="${(x * 400).toFixed(1)}" y="0" width="${(p.weight * 400).toFixed(1)}" height="18"><title>${esc(`${p.label}: ${percent(p.weight)}`)}</title></rect>`;
      x += p.weight;
      return rect;
    });
  const label = parts.map((p) => `${p.label} ${percent(p.weight)}`).join('; ');
  const legend = parts
    .map(
      (p, i) =>
        `<li><span class="swatch ${p.key}"></span>${esc(i < 4 ? (BAND_SHORT[i] ?? p.label) : p.label)} ${percent(p.weight)}</li>`,
    )
    .join('');
  return `<svg class="bands" viewBox="0 0 400 18" role="img" aria-label="${esc(`Share of the value per verdict: ${label}`)}" xmlns="http://www.w3.org/2000/svg">${rects.join('')}</svg>
<ul class="legend">${legend}</ul>`;
}

/** One holding as a table row; its symbol links to its moat card when it has a ticker. */
function holdingRow(h: XrayHolding, cardHref: XrayPageOptions['cardHref']): string {
  const ticker = h.instrument.ticker;
  const symbol =
    ticker && cardHref && h.instrument.kind === 'share'
      ? `<a href="${esc(cardHref(ticker))}">${esc(h.symbol)}</a>`
      : esc(h.symbol);
  const e = h.evaluation;
  const v = h.valuation;
  const verdict = e
    ? `${esc(BAND_SHORT[VERDICT_LABELS.indexOf(e.verdict)] ?? e.verdict)} <span class="muted">${number(e.totalScore)} / ${e.maxScore}</span>`
    : `<span class="muted">${esc(h.reason ? REASON_TEXT[h.reason] : '')}</span>`;
  const sell = v?.sellTrigger ? '<strong class="sell">past</strong>' : v ? 'no' : '–';
  const flags =
    e && e.dataQuality.length > 0
      ? ` <span class="muted" title="${esc(e.dataQuality.map((f) => f.message).join('; '))}">(${e.dataQuality.length} data flag${e.dataQuality.length > 1 ? 's' : ''})</span>`
      : '';
  return `<tr data-symbol="${esc(h.symbol)}"${h.reason ? ` data-reason="${esc(h.reason)}"` : ''}>
<th scope="row">${symbol}<div class="muted name">${esc(h.instrument.name ?? '')}</div></th>
<td class="num">${percent(h.weight)}</td><td class="num">${euros(h.valueEur)}</td>
<td>${verdict}${flags}</td>
<td class="num">${number(v?.pe)}</td><td class="num">${number(v?.peg, 2)}</td><td class="num">${v?.payoutRatio === null || v?.payoutRatio === undefined ? '–' : `${v.payoutRatio.toFixed(0)} %`}</td>
<td>${sell}</td>
<td class="muted">${e ? esc(e.evaluatedAt.slice(0, 10)) : ''}</td>
</tr>`;
}

/** The style of the X-ray on top of {@link CARD_STYLE} (same colours, light and dark). */
const XRAY_STYLE = `
.xray{max-width:76rem;margin:0 auto;padding:1rem}.xray h1{font-size:1.35rem;margin:0 0 .3rem}
.figures{display:flex;flex-wrap:wrap;gap:.6rem 1.6rem;margin:.6rem 0;padding:0;list-style:none}
.figures li{display:flex;flex-direction:column}.figures strong{font-size:1.25rem}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;padding:0;margin:.3rem 0 1rem;font-size:.85rem}
.swatch{display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-1px;border:1px solid var(--line)}
.swatch.band-3,.band.band-3{fill:var(--band3);background:var(--band3)}.swatch.band-2,.band.band-2{fill:var(--band2);background:var(--band2)}
.swatch.band-1,.band.band-1{fill:var(--band1);background:var(--band1)}.swatch.band-0,.band.band-0{fill:var(--band0);background:var(--band0)}
.swatch.unrated,.band.unrated{fill:var(--panel);background:var(--panel)}
.table-wrap{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{padding:.35rem .5rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{font-size:.78rem;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.muted{color:var(--muted)}.name{font-size:.78rem;font-weight:400}
a{color:var(--accent)}.sell{color:var(--fail)}.note{color:var(--muted);font-size:.88rem}
`;

/**
 * The portfolio moat X-ray as a whole HTML document, rendered on the server (no script, no
 * external resource; the moat card's colours): the portfolio's EUR value, its value-weighted score
 * and concentration, the share per verdict band and unrated as a stacked bar with a text
 * alternative, the holdings past the sell trigger, and a table of every holding (weight, value,
 * verdict and score or the reason it has none, P/E, PEG, payout, sell trigger, evaluation date),
 * each ticker linked to its moat card. Every value is escaped. Used by `GET /xray/{portfolioId}`.
 *
 * @example
 * reply.type('text/html').send(portfolioXrayPage(xray, { nonce, cardHref: (t) => `/evaluation/${t}` }));
 */
export function portfolioXrayPage(xray: PortfolioXray, options: XrayPageOptions): string {
  const name = options.name ?? 'Portfolio';
  const c = xray.concentration;
  const pending =
    xray.pending.length > 0
      ? `<p class="note">Being evaluated in the background: ${esc(xray.pending.join(', '))}. Reload in a minute.</p>`
      : '';
  const sell =
    xray.pastSellTrigger.length > 0
      ? `<p><strong class="sell">Past the sell trigger (P/E ≥ 40):</strong> ${esc(xray.pastSellTrigger.join(', '))}</p>`
      : '<p class="note">No holding is past the sell trigger (P/E ≥ 40).</p>';
  const cluster =
    c.overThreshold.length > 0
      ? `<p><strong class="sell">Above 50 % of the value:</strong> ${esc(c.overThreshold.join(', '))} (a cluster risk by Ghostfolio's rule)</p>`
      : '';
  const largest = c.largest ? `${esc(c.largest.symbol)} ${percent(c.largest.weight)}` : '–';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(`${name}: moat X-ray`)}</title><style nonce="${esc(options.nonce)}">${CARD_STYLE}${XRAY_STYLE}</style></head>
<body><main class="xray">
<h1>${esc(name)}: moat X-ray</h1>
<p class="muted">Values as of ${esc(xray.asOf.slice(0, 10))}; evaluations from the cache.</p>
<ul class="figures">
<li><span class="muted">Value</span><strong>${euros(xray.valueEur)}</strong></li>
<li><span class="muted">Value-weighted score</span><strong>${xray.weightedScore === null ? '–' : `${xray.weightedScore.toFixed(1)} / 100`}</strong></li>
<li><span class="muted">Largest holding</span><strong>${largest}</strong></li>
<li><span class="muted">Top 5</span><strong>${percent(c.top5Weight)}</strong></li>
<li><span class="muted">Herfindahl</span><strong>${c.herfindahl.toFixed(3)}</strong><span class="muted">≈ ${number(c.effectiveHoldings)} equal holdings</span></li>
</ul>
${bandsBar(xray)}
${sell}
${cluster}
${pending}
<div class="table-wrap"><table>
<thead><tr><th scope="col">Holding</th><th scope="col" class="num">Weight</th><th scope="col" class="num">Value</th><th scope="col">Moat</th><th scope="col" class="num">P/E</th><th scope="col" class="num">PEG</th><th scope="col" class="num">Payout</th><th scope="col">Sell trigger</th><th scope="col">Evaluated</th></tr></thead>
<tbody>
${xray.holdings.map((h) => holdingRow(h, options.cardHref)).join('\n')}
</tbody></table></div>
<footer><p class="disclaimer">${CARD_DISCLAIMER}</p></footer>
</main></body></html>`;
}

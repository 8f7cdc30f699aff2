import {
  type Criterion,
  type MoatEvaluation,
  type ServedEvaluation,
  VERDICT_BANDS,
} from '@svc/schemas';
import { escapeMarkup as esc } from './escape.js';
import { trendChartSvg } from './trend-chart.js';
import { formatThreshold, trendScaleOf } from './trend-scales.js';

/** A filing behind the figures (`FilingReference` of `@svc/schemas`). */
type Filing = NonNullable<ServedEvaluation['_filings']>[number];

/**
 * What the card shows: a {@link MoatEvaluation} and, when the evaluation is one the service served
 * (`ServedEvaluation` of `@svc/schemas`), its fiscal years, provider, filings, currency and
 * cache instants. Fields that are absent are left out of the card.
 */
export type CardEvaluation = MoatEvaluation & {
  readonly _fiscalYears?: readonly number[] | undefined;
  readonly _provider?: string | undefined;
  readonly _filings?: readonly Filing[] | undefined;
  readonly _currency?: string | undefined;
  readonly _reconciliation?: ServedEvaluation['_reconciliation'];
};

/** The disclaimer every card carries. */
export const CARD_DISCLAIMER = 'Informational only, not financial advice.';

const STATUS_TEXT = { pass: 'Pass', warning: 'Warning', fail: 'Fail' } as const;

/** Filings listed in the footer (newest first); the rest are counted. */
const LISTED_FILINGS = 4;

const percentOf = (e: MoatEvaluation) => (e.maxScore > 0 ? (100 * e.totalScore) / e.maxScore : 0);

/** The bar's scale: user units per percent of the maximum score. */
const BAR = 4;

/** The verdict bands as a bar (0–100 % of the maximum score) with the evaluation's mark on it. */
function bandsBar(evaluation: MoatEvaluation): string {
  const percent = percentOf(evaluation);
  const bands = [...VERDICT_BANDS].reverse();
  const segments = bands.map((band, i) => {
    const end = bands[i + 1]?.minPercent ?? 100;
    const active = percent >= band.minPercent && (percent < end || end === 100);
    return `<rect class="band band-${i}${active ? ' active' : ''}" x="${band.minPercent * BAR}" y="2" width="${(end - band.minPercent) * BAR}" height="14"><title>${esc(`${band.label}: ${band.minPercent}% or more`)}</title></rect>`;
  });
  const ticks = bands
    .filter((band) => band.minPercent > 0)
    .map(
      (b) =>
        `<text class="axis" x="${b.minPercent * BAR}" y="30" text-anchor="middle">${b.minPercent}%</text>`,
    );
  const mark = (Math.min(100, Math.max(0, percent)) * BAR).toFixed(1);
  const label =
    `Total ${evaluation.totalScore.toFixed(1)} of ${evaluation.maxScore} (${percent.toFixed(0)}%), ` +
    `verdict bands: ${VERDICT_BANDS.map((b) => `${b.label} from ${b.minPercent}%`).join('; ')}`;
  const svg = `<svg class="bands" viewBox="-4 0 ${100 * BAR + 8} 34" role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg">${segments.join('')}${ticks.join('')}<path class="mark" d="M${mark} 0 v18"/></svg>`;
  const legend = bands.map((band, i) => {
    const end = bands[i + 1]?.minPercent ?? 100;
    const active = percent >= band.minPercent && (percent < end || end === 100);
    const range = end === 100 ? `${band.minPercent}–100%` : `${band.minPercent}–${end}%`;
    return `<li class="band-${i}${active ? ' active' : ''}"${active ? ' aria-current="true"' : ''}><span class="swatch" aria-hidden="true"></span>${esc(range)}: ${esc(band.label)}</li>`;
  });
  return `${svg}<ol class="band-legend" aria-label="Verdict bands">${legend.join('')}</ol>`;
}

/** The valuation extension fields the flow adds (`ValuationExplanation` of `@svc/valuation`). */
interface ValuationExtras {
  readonly _price?: number | null;
  readonly _priceCurrency?: string | null;
  readonly _priceAsOf?: string | null;
  readonly _priceSource?: string | null;
  readonly _epsFiscalYear?: number | null;
}

const ratio = (value: number | null | undefined, suffix = '×') =>
  value === null || value === undefined ? 'n/m' : `${value.toFixed(1)}${suffix}`;

/**
 * The valuation block under the verdict (interface spec 2.5): P/E, forward P/E, PEG, the
 * augmented payout ratio and the sell trigger (P/E ≥ 40), with the price, its trading day and
 * source. A ratio that is not meaningful (`null`: no price, no earnings, no estimate) is `n/m`.
 */
function valuationBlock(e: CardEvaluation): string {
  const v = e.valuation;
  if (!v) return '';
  const x = v as typeof v & ValuationExtras;
  const trailing = x._epsFiscalYear ? ` (EPS FY${x._epsFiscalYear})` : '';
  const rows: [string, string][] = [
    [`P/E${trailing}`, ratio(v.peRatio)],
    ['Forward P/E', ratio(v.forwardPE)],
    ['PEG', ratio(v.pegRatio, '')],
    ['Payout (dividends + buybacks)', ratio(v.augmentedPayoutRatio, '% of net income')],
    [
      'Sell trigger (P/E ≥ 40)',
      v.sellTrigger ? 'Yes: priced past the trigger' : v.peRatio === null ? 'n/m' : 'No',
    ],
  ];
  const price =
    typeof x._price === 'number'
      ? `Price ${x._price.toFixed(2)}${x._priceCurrency ? ` ${x._priceCurrency}` : ''}${x._priceAsOf ? ` on ${x._priceAsOf}` : ''}${x._priceSource ? `, source: ${x._priceSource}` : ''}.`
      : 'No price: the ratios that need one are n/m.';
  return `<section class="valuation${v.sellTrigger ? ' sell' : ''}" aria-labelledby="valuation-title">
<h2 id="valuation-title">Valuation</h2>
<dl>${rows.map(([k, val]) => `<div><dt>${esc(k)}</dt><dd>${esc(val)}</dd></div>`).join('')}</dl>
<p class="price">${esc(price)} n/m: not meaningful.</p>
</section>`;
}

/** One data-quality flag (CONTRACT §9): what is wrong with which series. */
interface DataQualityFlag {
  readonly code: string;
  readonly series?: string;
  readonly message: string;
}

/** The `dataQuality` flags of an evaluation or a criterion, when it carries any (optional field). */
function flagsOf(holder: object): DataQualityFlag[] {
  const raw = (holder as { dataQuality?: unknown }).dataQuality;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (f): f is DataQualityFlag =>
      typeof f === 'object' &&
      f !== null &&
      typeof f.code === 'string' &&
      typeof f.message === 'string',
  );
}

function flagList(flags: readonly DataQualityFlag[]): string {
  if (flags.length === 0) return '';
  const items = flags.map(
    (f) =>
      `<li data-code="${esc(f.code)}"><strong>Data quality:</strong> ${esc(f.message)}${f.series ? ` <span class="series">(${esc(f.series)})</span>` : ''}</li>`,
  );
  return `<ul class="data-quality">${items.join('')}</ul>`;
}

/** One criterion: name, status, score, display value, benchmark and its trend chart. */
function criterionItem(
  c: Criterion,
  currency: string | undefined,
  span: { first: number; last: number } | undefined,
): string {
  const scale = trendScaleOf(c);
  const values = c.trend ?? [];
  const applies = c.maxScore > 0;
  const score = applies
    ? `${c.score.toFixed(1)} / ${c.maxScore.toFixed(1)}`
    : 'does not apply (0 / 0)';
  const rule = scale.threshold
    ? ` · line: ${esc(formatThreshold(scale.threshold, scale.unit))}`
    : '';
  const label = scale.unit === 'money' && currency ? `${scale.label} (${currency})` : scale.label;
  const chart =
    values.length > 0
      ? `<figure>${trendChartSvg({
          id: `trend-${c.key}`,
          title: `${c.name}: ${scale.label}`,
          values,
          years: c._trendYears,
          unit: scale.unit,
          currency,
          threshold: scale.threshold,
          span,
        })}<figcaption>${esc(label)}${rule}</figcaption></figure>`
      : '<p class="no-trend">No yearly series.</p>';
  const benchmark = c.benchmark
    ? `<details><summary>Benchmark</summary><p>${esc(c.benchmark)}</p></details>`
    : '';
  return `<li class="criterion status-${c.status}" data-key="${esc(c.key)}">
<div class="criterion-head"><h2>${esc(c.name)}</h2><span class="status">${STATUS_TEXT[c.status]}</span></div>
<p class="score">${esc(score)}</p>
<p class="value">${esc(c.value)}</p>
${flagList(flagsOf(c))}
${chart}
${benchmark}
</li>`;
}

function filingText(f: Filing): string {
  const years = f.fiscalYears.length > 0 ? ` (FY${f.fiscalYears.join(', FY')})` : '';
  return `${f.form} ${f.accession}, filed ${f.filed}${years}`;
}

/** Fiscal years, source (provider, filings), instants and the disclaimer. */
/** The source line's words about the second provider (issue 39), empty when none was asked. */
function reconciliationText(r: CardEvaluation['_reconciliation']): string {
  if (!r) return '';
  return r.status === 'compared'
    ? `, reconciled with ${esc(r.provider)}`
    : `, not reconciled with ${esc(r.provider)} (no figures from it)`;
}

function footer(e: CardEvaluation): string {
  const lines: string[] = [];
  const years = e._fiscalYears ?? [];
  if (years.length > 0) {
    lines.push(
      `<p class="years">Fiscal years FY${years[0]}–FY${years.at(-1)} (${years.length} scored)</p>`,
    );
  }
  const source = `${e._provider ? `Source: ${esc(e._provider)}` : 'Source: not stated'}${reconciliationText(e._reconciliation)}`;
  const filings = e._filings ?? [];
  const listed = filings.slice(0, LISTED_FILINGS).map((f) => `<li>${esc(filingText(f))}</li>`);
  const more =
    filings.length > LISTED_FILINGS ? `<li>and ${filings.length - LISTED_FILINGS} more</li>` : '';
  lines.push(
    `<p class="source">${source}${filings.length > 0 ? '; filings:' : ''}</p>`,
    filings.length > 0 ? `<ul class="filings">${listed.join('')}${more}</ul>` : '',
  );
  const at = e._evaluatedAt ?? e._cachedAt;
  if (at) lines.push(`<p class="at">Evaluated ${esc(at.slice(0, 10))}</p>`);
  lines.push(`<p class="disclaimer">${CARD_DISCLAIMER}</p>`);
  return `<footer>${lines.filter(Boolean).join('\n')}</footer>`;
}

/**
 * The moat card of an evaluation as an HTML fragment (an `<article class="moat-card">`), the same
 * for the page and the MCP App: the company, the verdict and the total against the verdict bands
 * (`VERDICT_BANDS`, each band named in a legend), the evaluation's data-quality flags (when it
 * carries `dataQuality`), the valuation block (P/E, forward P/E, PEG, payout, the sell trigger,
 * the price's day and source), then each criterion (its own `dataQuality` flags under its value) in order with its status, score, display value, pass rule
 * and its yearly trend as a small SVG chart ({@link trendChartSvg}) with the benchmark line where
 * one applies ({@link TREND_SCALES}); a criterion without a series says so. The footer names the
 * fiscal years, the source (provider and filings) and carries {@link CARD_DISCLAIMER}. The
 * company is the `<h1>` (the card is the whole document, page or app), each criterion an `<h2>`.
 * Every value is escaped; style it with {@link CARD_STYLE}.
 *
 * @example
 * document.querySelector('main').innerHTML = renderMoatCard(evaluation);
 */
export function renderMoatCard(evaluation: CardEvaluation): string {
  const e = evaluation;
  const place = [e.sector, e.industry].filter(Boolean).join(' / ');
  const passed =
    e.passedCount !== undefined && e.criteriaCount !== undefined
      ? `, ${e.passedCount} of ${e.criteriaCount} criteria pass`
      : '';
  const currency = e._currency;
  const fiscal = e._fiscalYears ?? [];
  const span =
    fiscal.length > 0 ? { first: Math.min(...fiscal), last: Math.max(...fiscal) } : undefined;
  return `<article class="moat-card" aria-labelledby="moat-card-title">
<header>
<h1 id="moat-card-title">${esc(e.companyName)} <span class="symbol">${esc(e.symbol)}</span></h1>
${place ? `<p class="place">${esc(place)}</p>` : ''}
<p class="verdict">${esc(e.verdict)}</p>
<p class="total"><strong>${e.totalScore.toFixed(1)}</strong> / ${e.maxScore} (${percentOf(e).toFixed(0)}%)${passed}</p>
${bandsBar(e)}
${flagList(flagsOf(e))}
${valuationBlock(e)}
</header>
<ol class="criteria">
${e.criteria.map((c) => criterionItem(c, currency, span)).join('\n')}
</ol>
${footer(e)}
</article>`;
}

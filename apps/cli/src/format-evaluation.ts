import { formatThreshold, formatTrendValue, sparkline, trendScaleOf } from '@svc/moat-card';
import type { Fundamentals } from '@svc/schemas';
import type { CompanyEvaluation } from '@svc/use-cases';
import { figureMarks } from './format/figure-marks.js';
import { formatFigureMarks, METRIC_ROWS } from './format/fundamentals-table.js';

const STATUS_MARK = { pass: 'PASS', warning: 'WARN', fail: 'FAIL' } as const;

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function ratio(value: number | null | undefined, suffix = ''): string {
  return value === null || value === undefined ? 'n/a' : `${value.toFixed(2)}${suffix}`;
}

type EvaluatedCriterion = CompanyEvaluation['criteria'][number];

/**
 * A criterion's yearly trend as one line: its sparkline (`sparkline` of `@svc/moat-card`), the
 * first and last fiscal year with their values, and the benchmark line where the criterion has
 * one (`trendScaleOf`); undefined for a criterion without a series.
 */
function trendLine(c: EvaluatedCriterion, currency: string | undefined): string | undefined {
  const values = c.trend ?? [];
  if (values.length === 0) return undefined;
  const scale = trendScaleOf(c);
  const years = c._trendYears ?? [];
  const at = (i: number) =>
    `${years[i] === undefined ? '' : `FY${years[i]} `}${formatTrendValue(values[i] as number, scale.unit, currency)}`;
  const ends = values.length > 1 ? `${at(0)} → ${at(values.length - 1)}` : at(0);
  const rule = scale.threshold ? ` (line ${formatThreshold(scale.threshold, scale.unit)})` : '';
  return `${sparkline(values, years.length === values.length ? years : undefined)}  ${ends}${rule}`;
}

/**
 * Renders an evaluation as a plain-text table: one row per criterion (status, score, display
 * value) with its yearly trend as a sparkline on the line below and its data-quality flags, the
 * point in time (`asOf`) and methodology version, the total, the verdict and the valuation signals. With the `fundamentals` the evaluation
 * was computed from, a last section lists the figures of the evaluated fiscal years that were
 * derived (`*`) or adjusted / of another tag (scope) than the year before (`†`), with the reason
 * (the provenance that `--json` of `svc fundamentals` carries per figure).
 */
export function formatEvaluationTable(
  evaluation: CompanyEvaluation,
  fundamentals?: Fundamentals,
): string {
  const lines: string[] = [];
  const sector = [evaluation.sector, evaluation.industry].filter(Boolean).join(' / ');
  lines.push(`${evaluation.companyName} (${evaluation.symbol})${sector ? ` — ${sector}` : ''}`);
  const years = evaluation._fiscalYears;
  lines.push(
    `Fiscal years ${years[0] ?? '?'}–${years.at(-1) ?? '?'} (${years.length}), source: ${evaluation._provider}` +
      `, methodology ${evaluation.methodologyVersion}`,
  );
  if (evaluation.asOf) lines.push(`As of ${evaluation.asOf}: only figures filed by that day`);
  lines.push('');
  const nameWidth = Math.max(...evaluation.criteria.map((c) => c.name.length), 9);
  lines.push(`${pad('Criterion', nameWidth)}  Status  Score         Value`);
  for (const c of evaluation.criteria) {
    const score = `${c.score.toFixed(2)} / ${c.maxScore.toFixed(1)}`;
    lines.push(
      `${pad(c.name, nameWidth)}  ${pad(STATUS_MARK[c.status], 6)}  ${pad(score, 12)}  ${c.value}`,
    );
    const trend = trendLine(c, evaluation._currency);
    if (trend !== undefined) lines.push(`${' '.repeat(nameWidth + 2)}${trend}`);
    for (const flag of c.dataQuality ?? []) {
      lines.push(`${' '.repeat(nameWidth + 2)}data quality: ${flag.series}: ${flag.message}`);
    }
  }
  lines.push('');
  const percent = evaluation.maxScore > 0 ? (100 * evaluation.totalScore) / evaluation.maxScore : 0;
  lines.push(
    `Total ${evaluation.totalScore.toFixed(2)} / ${evaluation.maxScore} (${percent.toFixed(1)}%), ` +
      `${evaluation.passedCount ?? 0} of ${evaluation.criteriaCount ?? 0} criteria pass`,
  );
  lines.push(`Verdict: ${evaluation.verdict}`);
  const flagged = evaluation.dataQuality.length;
  if (flagged > 0) lines.push(`Data-quality flags: ${flagged} (listed under their criteria)`);
  const v = evaluation.valuation;
  {
    lines.push('');
    const price =
      v._price === null || v._price === undefined
        ? 'n/a'
        : `${v._price} ${v._priceCurrency} on ${v._priceAsOf}`;
    lines.push(`Price ${price}`);
    lines.push(
      `P/E ${ratio(v.peRatio)}  forward P/E ${ratio(v.forwardPE)}  PEG ${ratio(v.pegRatio)}  ` +
        `payout ${ratio(v.augmentedPayoutRatio, '%')}  sell trigger ${v.sellTrigger ? 'YES' : 'no'}`,
    );
    for (const note of v._notes) lines.push(`  note: ${note}`);
  }
  if (fundamentals) {
    const marks = figureMarks(
      fundamentals,
      METRIC_ROWS.map((r) => r.key),
      evaluation._fiscalYears,
    );
    if (marks.length > 0) {
      lines.push('');
      lines.push(
        'Figures derived (*) or adjusted / of another tag (scope) than the year before (†):',
      );
      lines.push(...formatFigureMarks(marks));
    }
  }
  lines.push('');
  lines.push('Informational only, not financial advice.');
  return lines.join('\n');
}

import type { Criterion, MoatEvaluation, Valuation } from '@svc/schemas';

/** Options of {@link renderNarrativeTemplate}. */
export interface NarrativeTemplateOptions {
  /**
   * Language the caller asked for (BCP 47 tag or name, e.g. `en`, `de`, `French`). The template
   * is English only: any other value adds the line "(template available in English only)".
   */
  readonly language?: string;
}

/** The closing line of every narrative (interface spec: informational use only). */
export const DISCLAIMER = 'Informational only, not financial advice.';

/** The note added when a language other than English was requested. */
export const ENGLISH_ONLY_NOTE = '(template available in English only)';

/** True for `en`, `en-US`, `english`, … (case-insensitive); an absent language counts as English. */
function isEnglish(language: string | undefined): boolean {
  if (language === undefined) return true;
  const tag = language.trim().toLowerCase();
  return tag === '' || tag === 'en' || tag.startsWith('en-') || tag === 'english';
}

/** A number with `digits` decimals and no trailing zeros (`12.50` → `12.5`). */
function formatNumber(value: number, digits: number): string {
  return String(Number(value.toFixed(digits)));
}

function summary(evaluation: MoatEvaluation): string[] {
  const { companyName, symbol, totalScore, maxScore, verdict, criteria } = evaluation;
  const percent = maxScore > 0 ? ` (${formatNumber((totalScore / maxScore) * 100, 0)}%)` : '';
  const scored = criteria.filter((c) => c.maxScore > 0);
  const passed = scored.filter((c) => c.status === 'pass').length;
  return [
    '## Summary',
    '',
    `${companyName} (${symbol}) scores ${formatNumber(totalScore, 1)} out of ` +
      `${formatNumber(maxScore, 1)}${percent} on the moat framework. Verdict: **${verdict}**.`,
    `${passed} of ${scored.length} scored criteria pass.`,
  ];
}

function criterionLine(criterion: Criterion): string {
  const points = `${formatNumber(criterion.score, 2)}/${formatNumber(criterion.maxScore, 2)}`;
  const scoring = criterion.maxScore > 0 ? points : 'not scored';
  const status = criterion.status === 'pass' ? '' : `${criterion.status}, `;
  return `- **${criterion.name}** (${status}${scoring}): ${criterion.value}`;
}

function criteriaSection(title: string, criteria: readonly Criterion[], none: string): string[] {
  const lines = criteria.length === 0 ? [`- ${none}`] : criteria.map(criterionLine);
  return [`## ${title}`, '', ...lines];
}

function ratio(label: string, value: number | null, unit = ''): string {
  return value === null
    ? `- ${label}: not available`
    : `- ${label}: ${formatNumber(value, 2)}${unit}`;
}

/** The `_notes` of a valuation (set by `@svc/valuation` when a ratio is not meaningful). */
function notesOf(valuation: Valuation): string[] {
  const notes = (valuation as { _notes?: unknown })._notes;
  return Array.isArray(notes) ? notes.filter((n): n is string => typeof n === 'string') : [];
}

function valuationSection(valuation: Valuation | undefined): string[] {
  if (valuation === undefined) {
    return ['## Valuation', '', '- No valuation is available for this evaluation.'];
  }
  const { peRatio, pegRatio, augmentedPayoutRatio, sellTrigger } = valuation;
  const lines = [
    ratio('P/E', peRatio),
    ratio('PEG', pegRatio),
    ratio('Augmented payout ratio', augmentedPayoutRatio, '%'),
    `- Sell trigger (P/E ≥ 40): ${sellTrigger ? 'yes, the P/E is 40 or more' : 'no'}`,
  ];
  const anyNull = peRatio === null || pegRatio === null || augmentedPayoutRatio === null;
  const notes = notesOf(valuation);
  if (notes.length > 0) {
    lines.push('', 'Why some figures are missing or qualified:', ...notes.map((n) => `- ${n}`));
  } else if (anyNull) {
    lines.push('', 'No reason was recorded for the missing figures.');
  }
  return ['## Valuation', '', ...lines];
}

/**
 * Renders a deterministic markdown narrative of a moat evaluation, without a language model: the
 * offline fallback of the narrative tool and stream. Sections, in order:
 * - `## Summary`: company, total score out of the maximum (and in percent of it), the verdict,
 *   and how many scored criteria pass (criteria with `maxScore` 0 do not apply and are not counted);
 * - `## Strengths`: criteria with status `pass`, each with its display value and points;
 * - `## Risks`: criteria with status `warning` or `fail`;
 * - `## Valuation`: P/E, PEG, augmented payout ratio (percent) and the P/E ≥ 40 sell trigger
 *   (Buffett & Clark, as computed by `@svc/valuation`); a null ratio reads "not available", and the
 *   valuation's `_notes` say why when present;
 * - the line {@link DISCLAIMER}.
 * The same evaluation always gives the same text (no clock, no randomness). The text is English;
 * another requested `language` adds {@link ENGLISH_ONLY_NOTE} under the title.
 *
 * @param evaluation - A `MoatEvaluation` (as served by the evaluation flow or saved in a report).
 * @param options - The requested language.
 * @returns Markdown ending with a newline.
 * @example
 * const markdown = renderNarrativeTemplate(evaluation, { language: 'en' });
 * // "# Apple Inc. (AAPL)\n\n## Summary\n\nApple Inc. (AAPL) scores 81.3 out of 100 (81%) …"
 */
export function renderNarrativeTemplate(
  evaluation: MoatEvaluation,
  options: NarrativeTemplateOptions = {},
): string {
  const title = [`# ${evaluation.companyName} (${evaluation.symbol})`, ''];
  if (!isEnglish(options.language)) title.push(`_${ENGLISH_ONLY_NOTE}_`, '');
  const strengths = evaluation.criteria.filter((c) => c.status === 'pass');
  const risks = evaluation.criteria.filter((c) => c.status !== 'pass');
  const sections = [
    summary(evaluation),
    criteriaSection('Strengths', strengths, 'No criterion passes.'),
    criteriaSection('Risks', risks, 'No criterion fails or warns.'),
    valuationSection(evaluation.valuation),
    [DISCLAIMER],
  ];
  const body = sections.map((lines) => lines.join('\n')).join('\n\n');
  return `${title.join('\n')}\n${body}\n`;
}

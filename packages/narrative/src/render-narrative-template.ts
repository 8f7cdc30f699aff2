import {
  type Criterion,
  type DataQualityFlag,
  type MoatEvaluation,
  type Valuation,
  VERDICT_BANDS,
} from '@svc/schemas';

import {
  DISCLAIMER,
  DISCLAIMER_DE,
  type Strings,
  TEMPLATE_STRINGS,
  type TemplateLanguage,
} from './template-strings.js';

export { DISCLAIMER, DISCLAIMER_DE, type TemplateLanguage };

/** Options of {@link renderNarrativeTemplate}. */
export interface NarrativeTemplateOptions {
  /**
   * Language the caller asked for (BCP 47 tag or name, e.g. `en`, `de-AT`, `German`, `fr`). The
   * template exists in every language of the AI answers (en, de, fr, es, it, nl, pt); any other
   * value gives English with the line {@link ENGLISH_ONLY_NOTE} under the title.
   */
  readonly language?: string;
}

/** The note added when a language the template is not written in was requested. */
export const ENGLISH_ONLY_NOTE =
  '(template available in English, German, French, Spanish, Italian, Dutch and Portuguese only; shown in English)';

/** Names (English and native, lower case) of each template language besides its tag. */
const LANGUAGE_NAMES: Record<TemplateLanguage, readonly string[]> = {
  en: ['english'],
  de: ['german', 'deutsch'],
  fr: ['french', 'français', 'francais'],
  es: ['spanish', 'español', 'espanol'],
  it: ['italian', 'italiano'],
  nl: ['dutch', 'nederlands'],
  pt: ['portuguese', 'português', 'portugues'],
};

/**
 * The template language for a requested language: `en` for an absent tag; otherwise the language
 * whose primary subtag (`de`, `de-AT`, `pt-BR`) or English or native name (`german`, `deutsch`,
 * `français`) it is; `null` for any other (the caller falls back to English with
 * {@link ENGLISH_ONLY_NOTE}). Case-insensitive.
 */
export function templateLanguage(language: string | undefined): TemplateLanguage | null {
  const tag = (language ?? '').trim().toLowerCase();
  if (tag === '') return 'en';
  const primary = tag.split(/[-_]/)[0] ?? '';
  for (const [code, names] of Object.entries(LANGUAGE_NAMES) as [
    TemplateLanguage,
    readonly string[],
  ][]) {
    if (primary === code || names.includes(tag)) return code;
  }
  return null;
}

/** A number with `digits` decimals, no trailing zeros (`12.50` → `12.5`), in the language's form. */
function formatNumber(
  value: number,
  digits: number,
  strings: Strings = TEMPLATE_STRINGS.en,
): string {
  const text = String(Number(value.toFixed(digits)));
  return strings.decimal === ',' ? text.replace('.', ',') : text;
}

function summary(evaluation: MoatEvaluation, s: Strings): string[] {
  const { companyName, symbol, totalScore, maxScore, verdict, criteria } = evaluation;
  const percent =
    maxScore > 0 ? ` (${s.percent(formatNumber((totalScore / maxScore) * 100, 0, s))})` : '';
  const scored = criteria.filter((c) => c.maxScore > 0);
  const passed = scored.filter((c) => c.status === 'pass').length;
  const who = `${companyName} (${symbol})`;
  const lines = [
    `## ${s.summaryTitle}`,
    '',
    s.scores(
      who,
      formatNumber(totalScore, 1, s),
      formatNumber(maxScore, 1, s),
      percent,
      verdictIn(verdict, s),
    ),
    s.passes(passed, scored.length),
  ];
  if (evaluation.asOf) lines.push(s.asOf(evaluation.asOf));
  return lines;
}

/** One data-quality flag as markdown text: the series, the check's code and the message. */
function flagText(flag: DataQualityFlag): string {
  // The series and the finding's code, not its message: the message's figures (PP&E growth
  // against capex, …) are the scorer's working, shown on the card and in `dataQuality`; here
  // they would read as claims about the criterion's own figure, which the figure check cannot
  // tell apart (capex as a share of PP&E growth against capex as a share of net income).
  return `${flag.series} (${flag.code})`;
}

/** `## Data quality`: the evaluation's flags (CONTRACT §9); nothing when there are none. */
function dataQualitySection(evaluation: MoatEvaluation, s: Strings): string[] {
  const flags = evaluation.dataQuality ?? [];
  if (flags.length === 0) return [];
  return [
    `## ${s.dataQuality}`,
    '',
    s.dataQualityIntro,
    '',
    ...flags.map((f) => `- ${flagText(f)}`),
  ];
}

/** The verdict label in the language (a label that is not one of `VERDICT_BANDS` as it is). */
function verdictIn(verdict: string, s: Strings): string {
  const at = VERDICT_BANDS.findIndex((b) => b.label === verdict);
  return at < 0 || s === TEMPLATE_STRINGS.en ? verdict : (s.verdicts[at] ?? verdict);
}

/**
 * A criterion's headline value (`numericValue`) in the language's words: medians of margins and
 * ROIC, EPS growth per year, debt in years of net income, capex in percent of net income, the
 * steadiness score of 100. Undefined for a criterion without one (then its display text is
 * shown, marked as English); a null value is "not available".
 */
function headline(criterion: Criterion, s: Strings): string | undefined {
  const value = criterion.numericValue;
  if (value === undefined) return undefined;
  const { key } = criterion;
  if (key === 'retained_earnings') return undefined;
  if (value === null) return s.notAvailable;
  const pct = (digits: number) => s.percent(formatNumber(value, digits, s));
  const h = s.headline;
  switch (key) {
    case 'gross_margin':
    case 'net_margin':
    case 'return_on_invested_capital':
      return h.median(pct(1));
    case 'earnings_consistency':
      return h.perYear(`${value > 0 ? '+' : ''}${pct(1)}`);
    case 'debt_sustainability':
      // Always one decimal ("5.0 years"): a bare "5" would read as a count of years.
      return h.years(s.decimal === ',' ? value.toFixed(1).replace('.', ',') : value.toFixed(1));
    case 'capex_efficiency':
      return h.ofNetIncome(pct(1));
    case 'product_durability':
      return h.outOf100(formatNumber(value, 1, s));
  }
}

function criterionLine(criterion: Criterion, s: Strings): string {
  const points = `${formatNumber(criterion.score, 2, s)}/${formatNumber(criterion.maxScore, 2, s)}`;
  const scoring = criterion.maxScore > 0 ? points : s.notScored;
  const status = criterion.status === 'pass' ? '' : `${s.status[criterion.status]}, `;
  const flags = (criterion.dataQuality ?? [])
    .map((f) => `\n  - ${s.dataQualityFlag}: ${flagText(f)}`)
    .join('');
  if (s === TEMPLATE_STRINGS.en) {
    return `- **${criterion.name}** (${status}${scoring}): ${criterion.value}${flags}`;
  }
  // Another language: the criterion's name and headline in its words; a display text that has
  // no headline is shown as the English it is, and says so.
  const name = s.criteria[criterion.key];
  const value = headline(criterion, s) ?? `${criterion.value} (${s.inEnglish})`;
  return `- **${name}** (${status}${scoring}): ${value}${flags}`;
}

function criteriaSection(
  title: string,
  criteria: readonly Criterion[],
  none: string,
  s: Strings,
): string[] {
  const lines = criteria.length === 0 ? [`- ${none}`] : criteria.map((c) => criterionLine(c, s));
  return [`## ${title}`, '', ...lines];
}

function ratio(label: string, value: number | null, s: Strings, percent = false): string {
  if (value === null) return `- ${label}: ${s.notAvailable}`;
  const number = formatNumber(value, 2, s);
  return `- ${label}: ${percent ? s.percent(number) : number}`;
}

/** The `_notes` of a valuation (set by `@svc/valuation` when a ratio is not meaningful). */
function notesOf(valuation: Valuation): string[] {
  const notes = (valuation as { _notes?: unknown })._notes;
  return Array.isArray(notes) ? notes.filter((n): n is string => typeof n === 'string') : [];
}

function valuationSection(valuation: Valuation | undefined, s: Strings): string[] {
  if (valuation === undefined) return [`## ${s.valuation}`, '', `- ${s.noValuation}`];
  const { peRatio, pegRatio, augmentedPayoutRatio, sellTrigger } = valuation;
  const lines = [
    ratio(s.pe, peRatio, s),
    ratio('PEG', pegRatio, s),
    ratio(s.payout, augmentedPayoutRatio, s, true),
    `- ${s.sellTrigger(sellTrigger)}`,
  ];
  const anyNull = peRatio === null || pegRatio === null || augmentedPayoutRatio === null;
  const notes = notesOf(valuation);
  if (notes.length > 0) {
    lines.push('', s.whyMissing, ...notes.map((n) => `- ${n}`));
  } else if (anyNull) {
    lines.push('', s.noReason);
  }
  return [`## ${s.valuation}`, '', ...lines];
}

/**
 * Renders a deterministic markdown narrative of a moat evaluation, without a language model: the
 * offline fallback of the narrative tool and stream. Sections, in order:
 * - `## Summary`: company, total score out of the maximum (and in percent of it), the verdict,
 *   and how many scored criteria pass (criteria with `maxScore` 0 do not apply and are not counted),
 *   and the day it was evaluated as of when it has an `asOf`;
 * - `## Strengths`: criteria with status `pass`, each with its display value and points, and its
 *   data-quality flags (`dataQuality`) as sub-items;
 * - `## Risks`: criteria with status `warning` or `fail`, likewise;
 * - `## Data quality`: the evaluation's data-quality flags, only when it has some;
 * - `## Valuation`: P/E, PEG, augmented payout ratio (percent) and the P/E ≥ 40 sell trigger
 *   (Buffett & Clark, as computed by `@svc/valuation`); a null ratio reads "not available", and the
 *   valuation's `_notes` say why when present;
 * - the line {@link DISCLAIMER}.
 * The same evaluation always gives the same text (no clock, no randomness). The text is in the
 * requested language of en, de, fr, es, it, nl, pt (see {@link templateLanguage}; decimal commas
 * but for English): headings, sentences, the verdict label (of `VERDICT_BANDS`) and the criterion
 * names in its words, each criterion's headline value (`numericValue`: a median, a rate per
 * year, years of net income…) written out in them too. What is only the evaluation's English
 * text — a criterion's display text without a headline value, the valuation notes — is shown as
 * it is and said to be English, in the language. Another requested `language` gives English with
 * {@link ENGLISH_ONLY_NOTE} under the title.
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
  const language = templateLanguage(options.language);
  const s = TEMPLATE_STRINGS[language ?? 'en'];
  const title = [`# ${evaluation.companyName} (${evaluation.symbol})`, ''];
  if (language === null) title.push(`_${ENGLISH_ONLY_NOTE}_`, '');
  const strengths = evaluation.criteria.filter((c) => c.status === 'pass');
  const risks = evaluation.criteria.filter((c) => c.status !== 'pass');
  const sections = [
    summary(evaluation, s),
    criteriaSection(s.strengths, strengths, s.noneStrong, s),
    criteriaSection(s.risks, risks, s.noneRisk, s),
    dataQualitySection(evaluation, s),
    valuationSection(evaluation.valuation, s),
    [s.disclaimer],
  ].filter((lines) => lines.length > 0);
  const body = sections.map((lines) => lines.join('\n')).join('\n\n');
  return `${title.join('\n')}\n${body}\n`;
}

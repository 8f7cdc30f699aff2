import type { Criterion, DataQualityFlag, MoatEvaluation, Valuation } from '@svc/schemas';

/** Options of {@link renderNarrativeTemplate}. */
export interface NarrativeTemplateOptions {
  /**
   * Language the caller asked for (BCP 47 tag or name, e.g. `en`, `de-AT`, `German`, `fr`). The
   * template exists in English and German; any other value gives English with the line
   * {@link ENGLISH_ONLY_NOTE} under the title.
   */
  readonly language?: string;
}

/** The closing line of every English narrative (interface spec: informational use only). */
export const DISCLAIMER = 'Informational only, not financial advice.';

/** The closing line of every German narrative. */
export const DISCLAIMER_DE = 'Nur zur Information, keine Anlageberatung.';

/** The note added when a language other than English or German was requested. */
export const ENGLISH_ONLY_NOTE =
  '(template available in English and German only; shown in English)';

/** A language the template is written in. */
export type TemplateLanguage = 'en' | 'de';

/**
 * The template language for a requested language: `en` for an absent or English tag (`en`,
 * `en-US`, `english`), `de` for German (`de`, `de-AT`, `german`, `deutsch`), and `null` for any
 * other (the caller falls back to English with {@link ENGLISH_ONLY_NOTE}). Case-insensitive.
 */
export function templateLanguage(language: string | undefined): TemplateLanguage | null {
  const tag = (language ?? '').trim().toLowerCase();
  if (tag === '' || tag === 'en' || tag.startsWith('en-') || tag === 'english') return 'en';
  if (tag === 'de' || tag.startsWith('de-') || tag === 'german' || tag === 'deutsch') return 'de';
  return null;
}

/** The words of one template language. */
interface Strings {
  readonly decimal: '.' | ',';
  readonly percent: (n: string) => string;
  readonly summaryTitle: string;
  readonly scores: (
    who: string,
    score: string,
    max: string,
    pct: string,
    verdict: string,
  ) => string;
  readonly passes: (passed: number, scored: number) => string;
  readonly strengths: string;
  readonly risks: string;
  readonly noneStrong: string;
  readonly noneRisk: string;
  readonly notScored: string;
  readonly status: Record<'warning' | 'fail', string>;
  readonly valuation: string;
  readonly noValuation: string;
  readonly pe: string;
  readonly payout: string;
  readonly notAvailable: string;
  readonly sellTrigger: (on: boolean) => string;
  readonly whyMissing: string;
  readonly noReason: string;
  readonly asOf: (day: string) => string;
  readonly dataQuality: string;
  readonly dataQualityIntro: string;
  readonly dataQualityFlag: string;
  readonly disclaimer: string;
}

const EN: Strings = {
  decimal: '.',
  percent: (n) => `${n}%`,
  summaryTitle: 'Summary',
  scores: (who, score, max, pct, verdict) =>
    `${who} scores ${score} out of ${max}${pct} on the moat framework. Verdict: **${verdict}**.`,
  passes: (passed, scored) => `${passed} of ${scored} scored criteria pass.`,
  strengths: 'Strengths',
  risks: 'Risks',
  noneStrong: 'No criterion passes.',
  noneRisk: 'No criterion fails or warns.',
  notScored: 'not scored',
  status: { warning: 'warning', fail: 'fail' },
  valuation: 'Valuation',
  noValuation: 'No valuation is available for this evaluation.',
  pe: 'P/E',
  payout: 'Augmented payout ratio',
  notAvailable: 'not available',
  sellTrigger: (on) => `Sell trigger (P/E ≥ 40): ${on ? 'yes, the P/E is 40 or more' : 'no'}`,
  whyMissing: 'Why some figures are missing or qualified:',
  noReason: 'No reason was recorded for the missing figures.',
  asOf: (day) => `Evaluated as of ${day}, on the figures filed by that day.`,
  dataQuality: 'Data quality',
  dataQualityIntro:
    'These figures were flagged; a criterion resting on a flagged series earns no points from the gap:',
  dataQualityFlag: 'data quality',
  disclaimer: DISCLAIMER,
};

const DE: Strings = {
  decimal: ',',
  percent: (n) => `${n} %`,
  summaryTitle: 'Zusammenfassung',
  scores: (who, score, max, pct, verdict) =>
    `${who} erreicht ${score} von ${max} Punkten${pct} im Burggraben-Schema. Urteil: **${verdict}**.`,
  passes: (passed, scored) => `${passed} von ${scored} bewerteten Kriterien sind erfüllt.`,
  strengths: 'Stärken',
  risks: 'Risiken',
  noneStrong: 'Kein Kriterium ist erfüllt.',
  noneRisk: 'Kein Kriterium ist verfehlt oder mit Warnung.',
  notScored: 'nicht bewertet',
  status: { warning: 'Warnung', fail: 'nicht erfüllt' },
  valuation: 'Bewertung',
  noValuation: 'Für diese Auswertung liegt keine Bewertung vor.',
  pe: 'KGV',
  payout: 'Erweiterte Ausschüttungsquote',
  notAvailable: 'nicht verfügbar',
  sellTrigger: (on) =>
    `Verkaufssignal (KGV ≥ 40): ${on ? 'ja, das KGV liegt bei 40 oder darüber' : 'nein'}`,
  whyMissing: 'Warum einige Werte fehlen oder eingeschränkt sind:',
  noReason: 'Für die fehlenden Werte wurde kein Grund erfasst.',
  asOf: (day) => `Bewertet zum Stand ${day}, mit den bis dahin eingereichten Zahlen.`,
  dataQuality: 'Datenqualität',
  dataQualityIntro:
    'Diese Zahlen sind markiert; ein Kriterium, das auf einer markierten Reihe beruht, erhält für die Lücke keine Punkte:',
  dataQualityFlag: 'Datenqualität',
  disclaimer: DISCLAIMER_DE,
};

/** A number with `digits` decimals, no trailing zeros (`12.50` → `12.5`), in the language's form. */
function formatNumber(value: number, digits: number, strings: Strings = EN): string {
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
    s.scores(who, formatNumber(totalScore, 1, s), formatNumber(maxScore, 1, s), percent, verdict),
    s.passes(passed, scored.length),
  ];
  if (evaluation.asOf) lines.push(s.asOf(evaluation.asOf));
  return lines;
}

/** One data-quality flag as markdown text: the series, the check's code and the message. */
function flagText(flag: DataQualityFlag): string {
  return `${flag.series} (${flag.code}): ${flag.message}`;
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

function criterionLine(criterion: Criterion, s: Strings): string {
  const points = `${formatNumber(criterion.score, 2, s)}/${formatNumber(criterion.maxScore, 2, s)}`;
  const scoring = criterion.maxScore > 0 ? points : s.notScored;
  const status = criterion.status === 'pass' ? '' : `${s.status[criterion.status]}, `;
  const flags = (criterion.dataQuality ?? []).map(
    (f) => `\n  - ${s.dataQualityFlag}: ${flagText(f)}`,
  );
  return `- **${criterion.name}** (${status}${scoring}): ${criterion.value}${flags.join('')}`;
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
 * The same evaluation always gives the same text (no clock, no randomness). The text is English,
 * or German for `de` (headings `Zusammenfassung`, `Stärken`, `Risiken`, `Bewertung`, decimal
 * commas, closing line {@link DISCLAIMER_DE}); criterion names and values, the verdict label and
 * the valuation notes are the evaluation's own text and stay as they are. Another requested
 * `language` gives English with {@link ENGLISH_ONLY_NOTE} under the title
 * (see {@link templateLanguage}).
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
  const s = language === 'de' ? DE : EN;
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

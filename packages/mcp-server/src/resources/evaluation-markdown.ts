import type { MoatEvaluation } from '@svc/schemas';
import type { ReportDetail } from '@svc/use-cases';

/** A table cell: pipes escaped, line breaks flattened. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

const figure = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : 'n/a';

interface Provenance {
  _evaluatedAt?: string;
  _cachedAt?: string;
  _provider?: string;
  _fiscalYears?: number[];
  _filings?: { form: string; accession: string; filed: string }[];
}

/**
 * An evaluation as markdown: heading, total and verdict, one table row per criterion, the
 * valuation signals and the filings behind the figures. Informational only, so said.
 */
export function evaluationMarkdown(evaluation: MoatEvaluation): string {
  const p = evaluation as MoatEvaluation & Provenance;
  const lines = [
    `# ${evaluation.companyName} (${evaluation.symbol})`,
    '',
    `**${evaluation.totalScore} / ${evaluation.maxScore}: ${evaluation.verdict}**`,
    '',
  ];
  const when = [
    p._evaluatedAt && `evaluated ${p._evaluatedAt}`,
    p._provider && `provider ${p._provider}`,
    p._fiscalYears?.length && `fiscal years ${p._fiscalYears[0]}–${p._fiscalYears.at(-1)}`,
  ].filter(Boolean);
  if (when.length > 0) lines.push(`${when.join('; ')}.`, '');
  lines.push('| Criterion | Status | Score | Value |', '|---|---|---|---|');
  for (const c of evaluation.criteria) {
    lines.push(`| ${cell(c.name)} | ${c.status} | ${c.score} / ${c.maxScore} | ${cell(c.value)} |`);
  }
  const v = evaluation.valuation;
  if (v) {
    lines.push(
      '',
      '## Valuation',
      '',
      `P/E ${figure(v.peRatio)}; forward P/E ${figure(v.forwardPE)}; PEG ${figure(v.pegRatio)}; ` +
        `augmented payout ${figure(v.augmentedPayoutRatio)}%; sell trigger ${v.sellTrigger ? 'yes' : 'no'}.`,
    );
  }
  if (p._filings?.length) {
    lines.push('', '## Filings', '');
    for (const f of p._filings) lines.push(`- ${f.form} ${f.accession}, filed ${f.filed}`);
  }
  lines.push('', '_Informational only, not financial advice._', '');
  return lines.join('\n');
}

/** A saved report as markdown: its tags and save time, then {@link evaluationMarkdown}. */
export function reportMarkdown(report: ReportDetail): string {
  const tags = report.tags.length > 0 ? `; tags ${report.tags.join(', ')}` : '';
  return `<!-- saved report ${report.id}, ${report.createdAt}${tags} -->\n${evaluationMarkdown(report.evaluation)}`;
}

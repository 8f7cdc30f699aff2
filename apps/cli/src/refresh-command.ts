import { parseArgs } from 'node:util';
import {
  composeRefreshPass,
  createFundamentalsProvider,
  createQuoteSource,
  createReconcileProvider,
  openStore,
} from '@svc/service';
import { type RefreshReport, sharedSecBudget } from '@svc/use-cases';
import { readCliSettings } from './settings.js';

/** Usage of `svc refresh`. */
export const REFRESH_USAGE = `  svc refresh [--date YYYY-MM-DD] [--json]
                                       one refresh pass now: read SEC's daily form index of each
                                       pending day (or of --date), re-evaluate the cached companies
                                       that filed a 10-K, 10-K/A, 20-F or 40-F, keep each with its
                                       filing; needs SEC_USER_AGENT (SEC_WWW_URL, SEC_DATA_URL)`;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `svc refresh` (`pnpm refresh`): one refresh pass (`runRefreshPass` of `@svc/use-cases`) over
 * the service's database, printing what it found (per day: read or not published yet, annual
 * filings, of which by cached companies) and did (per filing: evaluated with its new total and
 * whether an `evaluation.changed` event was made, or failed). SEC requests share the database's
 * budget with every other process (10 a second).
 *
 * Exit codes: 0 done (even when a day is not published yet), 1 when a filing's re-evaluation
 * failed, 2 for a usage or configuration error.
 */
export async function refreshCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      date: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const problem =
    positionals.length > 0
      ? `unexpected ${positionals.join(' ')}`
      : values.date !== undefined &&
          (!DAY.test(values.date) || Number.isNaN(Date.parse(`${values.date}T00:00:00Z`)))
        ? `--date must be a day, YYYY-MM-DD`
        : undefined;
  if (values.help || problem) {
    if (problem) process.stderr.write(`${problem}\n`);
    process.stderr.write(`usage:\n${REFRESH_USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const settings = readCliSettings(env);
  for (const note of settings.notes) process.stderr.write(`${note}\n`);
  const userAgent = settings.fundamentals.secUserAgent;
  if (!userAgent) {
    process.stderr.write(
      'refresh reads SEC: set SEC_USER_AGENT to your name and contact e-mail, e.g. "Acme Research admin@acme.example"\n',
    );
    return 2;
  }
  const store = await openStore(settings);
  try {
    const acquire = sharedSecBudget(store.repos.secRefresh);
    const refresh = composeRefreshPass({
      db: store.db,
      sec: { ...settings.fundamentals, secUserAgent: userAgent },
      acquire,
      fundamentals: createFundamentalsProvider({ ...settings.fundamentals, secAcquire: acquire }),
      reconcile: createReconcileProvider({ ...settings.fundamentals, secAcquire: acquire }),
      quotes: createQuoteSource(settings.quotes),
    });
    const started = performance.now();
    const report = await refresh(values.date);
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`${formatReport(report, seconds, values.json === true)}\n`);
    return report.filings.some((f) => f.outcome === 'failed' || f.outcome === 'retry') ? 1 : 0;
  } finally {
    await store.close();
  }
}

/**
 * The report as text (one line per day, per filing and per evaluation recomputed for a new
 * methodology or reconciliation setting, with what it was made with before) or JSON.
 */
export function formatReport(report: RefreshReport, seconds: number, json: boolean): string {
  if (json) return JSON.stringify({ ...report, seconds }, null, 2);
  const lines: string[] = [];
  if (report.days.length === 0) lines.push('days: none pending');
  for (const d of report.days) {
    lines.push(
      d.outcome === 'read'
        ? `${d.day}  index read: ${d.annualFilings} annual filing(s), ${d.ofCached} of cached companies`
        : d.outcome === 'closed'
          ? `${d.day}  no index (HTTP ${d.httpStatus}) and a later day has one: closed as a holiday`
          : `${d.day}  index not published yet (HTTP ${d.httpStatus}): tried again next pass`,
    );
  }
  if (report.filings.length === 0) lines.push('filings: none to re-evaluate');
  for (const f of report.filings) {
    const head = `${f.symbol.padEnd(6)} ${f.form.padEnd(7)} ${f.accession} filed ${f.filed}`;
    lines.push(
      f.outcome === 'evaluated'
        ? `${head}  re-evaluated: ${f.totalScore} ${f.verdict}${f.changed ? '  (changed: evaluation.changed event made)' : '  (no change)'}`
        : f.outcome === 'skipped'
          ? `${head}  already done by another process`
          : `${head}  ${f.outcome === 'retry' ? 'failed, retried next pass' : 'failed'}: ${f.error}`,
    );
  }
  for (const m of report.methodology ?? []) {
    lines.push(
      m.outcome === 'evaluated'
        ? `${m.symbol.padEnd(6)} methodology ${m.previousVersion ?? 'unversioned'}, reconciled with ${m.previousReconcileProvider ?? 'none'} → current: re-evaluated ${m.totalScore}`
        : m.outcome === 'skipped'
          ? `${m.symbol.padEnd(6)} methodology: already done by another process`
          : `${m.symbol.padEnd(6)} methodology: failed, tried again next pass: ${m.error}`,
    );
  }
  lines.push(`time: ${seconds.toFixed(1)} s`);
  return lines.join('\n');
}

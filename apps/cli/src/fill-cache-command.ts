import { parseArgs } from 'node:util';
import {
  createFundamentalsProvider,
  createQuoteSource,
  createReconcileProvider,
  FUNDAMENTALS_PROVIDER_NAMES,
  fillCacheOnJobs,
  openStore,
} from '@svc/service';
import {
  DEFAULT_FILL_CONCURRENCY,
  type FillCacheSummary,
  isListableProvider,
} from '@svc/use-cases';
import { readCliSettings } from './settings.js';

/** Usage of `svc fill-cache`. */
export const FILL_CACHE_USAGE = `  svc fill-cache [TICKER ...] [--all] [--join] [--provider sec-edgar|snapshot|simfin]
                 [--concurrency N] [--json]
                                       evaluate companies into the evaluation cache (screener rows);
                                       --all: every company the provider holds (snapshot, simfin);
                                       the tickers are queued as jobs that other processes share:
                                       --join works a fill under way without queueing more.
                                       Database: DATABASE_URL, else embedded PGlite in DATA_DIR
                                       (default ./.data)`;

type ProviderName = (typeof FUNDAMENTALS_PROVIDER_NAMES)[number];

/**
 * `svc fill-cache`: evaluates the named tickers (or, with `--all`, every ticker of a listable
 * provider) and upserts them into the evaluation cache of the service's database, so that the
 * screener has rows. Progress goes to stderr, one line per ticker; the summary (evaluated, failed
 * by code, wall time) to stdout, as JSON with `--json`.
 *
 * Exit codes: 0 when at least one ticker was evaluated (or none were asked for), 1 when every
 * ticker failed, 2 for a usage or configuration error.
 *
 * @throws ConfigError for an invalid environment variable; FundamentalsError `invalid_config` for
 *   a provider without its setting; StoreError / database errors when the database cannot be opened.
 */
export async function fillCacheCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      all: { type: 'boolean', default: false },
      join: { type: 'boolean', default: false },
      provider: { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const problem = usageProblem(positionals, values);
  if (values.help || problem) {
    if (problem) process.stderr.write(`${problem}\n`);
    process.stderr.write(`usage:\n${FILL_CACHE_USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const settings = readCliSettings(env);
  const provider = (values.provider as ProviderName | undefined) ?? settings.fundamentals.provider;
  for (const note of settings.notes) {
    // The offline default's note names the snapshot provider, which --provider may replace.
    if (provider === 'snapshot' || !note.includes('snapshot')) process.stderr.write(`${note}\n`);
  }
  const fundamentals = createFundamentalsProvider({ ...settings.fundamentals, provider });
  if (values.all && !isListableProvider(fundamentals)) {
    process.stderr.write(`the ${provider} provider cannot list its companies: name the tickers\n`);
    return 2;
  }
  const started = performance.now();
  const tickers =
    isListableProvider(fundamentals) && values.all ? await fundamentals.listTickers() : positionals;
  process.stderr.write(
    values.join
      ? `fill-cache: joining the fill under way, ${provider} provider\n`
      : `fill-cache: ${tickers.length} ticker(s) from the ${provider} provider\n`,
  );
  const { quotes, splitsOf } = createQuoteSource(settings.quotes);
  const store = await openStore(settings);
  try {
    let done = 0;
    const total = values.join ? '?' : String(tickers.length);
    // The tickers go onto the job queue (pg-boss) in chunks; this process and any other that
    // runs `fill-cache --join` on the same database work them until the queue is empty.
    const summary: FillCacheSummary = await fillCacheOnJobs({
      pool: store.pool,
      ...(values.join ? {} : { tickers }),
      evaluate: {
        fundamentals,
        // RECONCILE_PROVIDER (issue 39): none when --provider names the same provider
        reconcile:
          settings.fundamentals.reconcileProvider === provider
            ? null
            : createReconcileProvider(settings.fundamentals),
        quotes,
        splitsOf,
        now: () => new Date(),
      },
      // Batch evaluations are fresh evaluations: kept like a user's (trigger fill-cache).
      db: store.db,
      concurrency: Number(values.concurrency ?? DEFAULT_FILL_CONCURRENCY),
      onProgress: ({ ticker, failure }) => {
        done += 1;
        const head = `[${String(done).padStart(total.length)}/${total}] ${ticker}`;
        process.stderr.write(
          `${failure ? `${head} failed ${failure.code}: ${failure.message}` : `${head} ok`}\n`,
        );
      },
    });
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(`${formatSummary(summary, provider, seconds, values.json === true)}\n`);
    return summary.evaluated === 0 && summary.failed.length > 0 ? 1 : 0;
  } finally {
    await store.close();
  }
}

function usageProblem(
  positionals: readonly string[],
  values: { all?: boolean; join?: boolean; provider?: string; concurrency?: string },
): string | undefined {
  if (values.join && (values.all || positionals.length > 0)) {
    return '--join works the queued tickers: give no tickers and no --all';
  }
  if (values.all && positionals.length > 0) return 'give tickers or --all, not both';
  if (!values.join && !values.all && positionals.length === 0) {
    return 'give at least one ticker, or --all';
  }
  if (
    values.provider !== undefined &&
    !(FUNDAMENTALS_PROVIDER_NAMES as readonly string[]).includes(values.provider)
  ) {
    return `unknown provider ${values.provider}: ${FUNDAMENTALS_PROVIDER_NAMES.join(', ')}`;
  }
  const n = Number(values.concurrency ?? DEFAULT_FILL_CONCURRENCY);
  if (!Number.isInteger(n) || n < 1) return `--concurrency must be an integer ≥ 1`;
  return undefined;
}

function formatSummary(
  summary: FillCacheSummary,
  provider: string,
  seconds: number,
  json: boolean,
): string {
  const byCode: Record<string, number> = {};
  for (const f of summary.failed) byCode[f.code] = (byCode[f.code] ?? 0) + 1;
  if (json) {
    return JSON.stringify({ provider, ...summary, failedByCode: byCode, seconds }, null, 2);
  }
  const codes = Object.entries(byCode)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  return [
    `provider:  ${provider}`,
    `evaluated: ${summary.evaluated}`,
    `failed:    ${summary.failed.length}${codes ? ` (${codes})` : ''}`,
    `time:      ${seconds.toFixed(1)} s`,
  ].join('\n');
}

import { parseArgs } from 'node:util';
import { AsOfDate, CRITERION_KEYS } from '@svc/schemas';
import {
  createFundamentalsProvider,
  createQuoteSource,
  createReconcileProvider,
} from '@svc/service';
import { evaluateCompany, FundamentalsError, MoatScoringError } from '@svc/use-cases';
import { EXAMPLE_USAGE, exampleCommand } from './example-command.js';
import { FILL_CACHE_USAGE, fillCacheCommand } from './fill-cache-command.js';
import { formatFundamentalsJson, formatFundamentalsTable } from './format/fundamentals-table.js';
import { formatEvaluationTable } from './format-evaluation.js';
import { REFRESH_USAGE, refreshCommand } from './refresh-command.js';
import { readCliSettings } from './settings.js';
import { XRAY_USAGE, xrayCommand } from './xray-command.js';

const USAGE = `usage:
  svc evaluate <TICKER> [--json] [--as-of YYYY-MM-DD]
                                       moat evaluation: ${CRITERION_KEYS.length} criteria, score, verdict, valuation;
                                       --as-of: on the figures filed by that day (restated values as first filed)
  svc fundamentals <TICKER> [--json] [--as-of YYYY-MM-DD]
                                       normalised annual fundamentals (years as columns)
${FILL_CACHE_USAGE}
${REFRESH_USAGE}
${EXAMPLE_USAGE}
${XRAY_USAGE}

environment: FUNDAMENTALS_PROVIDER (sec-edgar | snapshot | simfin), SEC_USER_AGENT,
  FUNDAMENTALS_SNAPSHOT_DIR, SIMFIN_DIR, QUOTES_PROVIDER (csv | none), PRICES_DIR.
  Without them, and with ../shared/data beside the checkout, it runs offline on that data.`;

/**
 * Exit codes: 0 ok, 1 no data (also too little history at `--as-of`) / upstream failure, 2 usage or
 * configuration error.
 */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'fill-cache') return fillCacheCommand(argv.slice(1), process.env);
  if (argv[0] === 'refresh') return refreshCommand(argv.slice(1), process.env);
  if (argv[0] === 'example') return exampleCommand(argv.slice(1));
  if (argv[0] === 'xray') return xrayCommand(argv.slice(1));
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
      'as-of': { type: 'string' },
    },
  });
  const [command, ticker] = positionals;
  if (values.help || !command || !ticker || positionals.length > 2) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const asOf = values['as-of'];
  if (asOf !== undefined && !AsOfDate.safeParse(asOf).success) {
    process.stderr.write(`error: --as-of must be a date YYYY-MM-DD, got ${asOf}\n`);
    return 2;
  }
  const at = asOf === undefined ? {} : { asOf };
  const settings = readCliSettings(process.env);
  for (const note of settings.notes) process.stderr.write(`${note}\n`);
  const fundamentals = createFundamentalsProvider(settings.fundamentals);
  if (command === 'fundamentals') {
    const data = await fundamentals.getFundamentals(ticker, at);
    process.stdout.write(
      `${values.json ? formatFundamentalsJson(data) : formatFundamentalsTable(data)}\n`,
    );
    return 0;
  }
  if (command === 'evaluate') {
    const { quotes, splitsOf } = createQuoteSource(settings.quotes);
    const evaluation = await evaluateCompany(
      ticker,
      {
        fundamentals,
        reconcile: createReconcileProvider(settings.fundamentals),
        quotes,
        splitsOf,
        now: () => new Date(),
      },
      at,
    );
    const text = values.json
      ? JSON.stringify(evaluation, null, 2)
      : formatEvaluationTable(evaluation, await fundamentals.getFundamentals(ticker, at));
    process.stdout.write(`${text}\n`);
    return 0;
  }
  process.stderr.write(`unknown command ${command}\n${USAGE}\n`);
  return 2;
}

function exitCodeFor(error: unknown): number {
  if (error instanceof FundamentalsError) {
    return error.code === 'invalid_symbol' || error.code === 'invalid_config' ? 2 : 1;
  }
  if (error instanceof MoatScoringError) return 1;
  // the service could not be reached or refused (svc example, svc xray)
  if (
    error instanceof TypeError ||
    (error instanceof Error && /^(GET|POST) \//.test(error.message))
  )
    return 1;
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const code =
      error instanceof FundamentalsError || error instanceof MoatScoringError
        ? `${error.code}: `
        : '';
    process.stderr.write(
      `error: ${code}${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = exitCodeFor(error);
  },
);

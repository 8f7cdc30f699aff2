import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { PortfolioXray } from '@svc/schemas';
import { formatXray } from './format/xray-table.js';
import { type ApiClient, apiClient } from './http-client.js';

/** Usage of `svc example`. */
export const EXAMPLE_USAGE = `  svc example [--url http://127.0.0.1:3000] [--email demo@example.com] [--password …]
                                       the first minutes: sign up (or in) a demo account on a
                                       running service, import the example Schwab export
                                       (examples/schwab-example.csv) into its portfolio "Example"
                                       through the real import, print holdings, returns and the
                                       moat X-ray (waiting up to a minute for pending evaluations)`;

/** The example export, beside the checkout's apps (the CLI runs from `apps/cli/dist`). */
const EXAMPLE_FILE = new URL('../../../examples/schwab-example.csv', import.meta.url);

/** The demo account's defaults (a local demo; pass your own with --email/--password). */
const DEMO = { email: 'demo@example.com', password: 'correct horse battery', name: 'Demo' };

type Json = Record<string, unknown>;

/** Signs in, or signs up when the account does not exist yet. */
async function signIn(api: ApiClient, email: string, password: string): Promise<string> {
  const login = await api.send('POST', '/api/auth/login', { email, password });
  if (login.status === 200) return 'signed in';
  const register = await api.send('POST', '/api/auth/register', { ...DEMO, email, password });
  if (register.status !== 201)
    throw new Error(`sign-up failed: ${register.status} ${JSON.stringify(register.body)}`);
  return 'signed up';
}

/** The id of the account's portfolio named `name`, created when missing. */
async function examplePortfolio(api: ApiClient, name: string): Promise<string> {
  const list = (await api.json('GET', '/api/portfolios')) as { id: string; name: string }[];
  const found = list.find((p) => p.name === name);
  if (found) return found.id;
  return ((await api.json('POST', '/api/portfolios', { name })) as { id: string }).id;
}

const pct = (figure: Json | undefined) =>
  figure?.status === 'ok' && typeof figure.value === 'number'
    ? `${(figure.value * 100).toFixed(2)} %`
    : `n/a (${String(figure?.code ?? 'unavailable')})`;

/**
 * The returns since inception; when a rate or close is missing at the end of the data, the
 * period up to the day before (the answer names the first missing day).
 */
async function returnsText(api: ApiClient, id: string): Promise<string> {
  let perf = (await api.json('GET', `/api/portfolios/${id}/performance`)) as Json;
  let note = '';
  const twr = (perf.returns as Json).twr as Json;
  if (twr.status !== 'ok' && typeof twr.firstMissingDate === 'string') {
    const to = new Date(Date.parse(`${twr.firstMissingDate}T00:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10);
    note = ` (to ${to}: ${String(twr.reason)})`;
    const query = `period=custom&from=${String(perf.from)}&to=${to}`;
    perf = (await api.json('GET', `/api/portfolios/${id}/performance?${query}`)) as Json;
  }
  const r = perf.returns as Record<string, Json>;
  return `Returns ${String(perf.from)} → ${String(perf.to)}${note}: TWR ${pct(r.twr)}, money-weighted ${pct(r.mwr)}, currency effect ${pct(r.currencyEffect)}`;
}

/** The X-ray, asked again every 2 s while evaluations are pending (at most `waitMs`). */
async function settledXray(api: ApiClient, id: string, waitMs: number): Promise<PortfolioXray> {
  const until = Date.now() + waitMs;
  for (;;) {
    const xray = (await api.json('GET', `/api/portfolios/${id}/xray`)) as PortfolioXray;
    if (xray.pending.length === 0 || Date.now() > until) return xray;
    process.stderr.write(`pending evaluations: ${xray.pending.join(', ')}; asking again in 2 s\n`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/**
 * `svc example` (`pnpm example`): the README's first minutes against a running service (the
 * embedded default of `bash scripts/run.sh start`, which one process owns, so this talks HTTP):
 * signs up or in a demo account, imports `examples/schwab-example.csv` through
 * `POST /api/portfolios/{id}/import` (idempotent: a second run stores nothing again), and prints
 * the holdings with their EUR values, the returns, and the moat X-ray with the page's address.
 *
 * Exit codes: 0 done, 1 the service refused or could not be reached, 2 usage.
 */
export async function exampleCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:3000' },
      email: { type: 'string', default: DEMO.email },
      password: { type: 'string', default: DEMO.password },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length > 0) {
    process.stderr.write(`usage:\n${EXAMPLE_USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const api = apiClient(values.url);
  const how = await signIn(api, values.email, values.password);
  process.stdout.write(`${how} as ${values.email} on ${values.url}\n`);
  const id = await examplePortfolio(api, 'Example');
  const csv = await readFile(EXAMPLE_FILE, 'utf8');
  const imported = (await api.json(
    'POST',
    `/api/portfolios/${id}/import`,
    csv,
    'text/csv',
  )) as Json;
  process.stdout.write(
    `imported examples/schwab-example.csv (${String(imported.format)}): ${String(imported.imported)} new, ${String(imported.alreadyPresent)} already present\n\n`,
  );
  const holdings = (await api.json('GET', `/api/holdings?portfolioId=${id}`)) as Json[];
  process.stdout.write('Holding   Quantity  Value EUR     Unrealised EUR  Price of\n');
  for (const h of holdings) {
    process.stdout.write(
      `${String(h.symbol).padEnd(9)} ${String(h.quantity).padStart(8)}  ${String(h.marketValueEur ?? 'n/a').padStart(12)}  ${String(h.unrealizedPnlEur ?? 'n/a').padStart(14)}  ${String(h.priceAsOf ?? '').slice(0, 10)}${h.stale ? ' (stale)' : ''}\n`,
    );
  }
  process.stdout.write(`\n${await returnsText(api, id)}\n\n`);
  const xray = await settledXray(api, id, 60_000);
  process.stdout.write(`${formatXray(xray)}\n\n`);
  process.stdout.write(
    `The page: ${values.url}/xray/${id} (sign in on ${values.url}/account/developer as ${values.email})\n`,
  );
  return 0;
}

// A server for mcp.bench.mjs, run as a child process so that the load generator and the server do
// not share an event loop: the real service (openRuntime + buildApp from dist/, embedded PGlite,
// the shared SEC snapshots and CSV prices) with one user who has a session cookie (REST), a
// personal access token (MCP), a portfolio of three holdings and AAPL's evaluation in the cache.
// Reports { port, cookie, token, portfolioId, dialect } to the parent over IPC.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp, loadConfig, openRuntime } from '../dist/index.js';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);

const dataDir = await mkdtemp(join(tmpdir(), 'svc-mcp-bench-'));
const env = {
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  FUNDAMENTALS_PROVIDER: 'snapshot',
  FUNDAMENTALS_SNAPSHOT_DIR: join(SHARED, 'fundamentals/raw/companyfacts'),
  QUOTES_PROVIDER: 'csv',
  PRICES_DIR: join(SHARED, 'prices'),
  FX_PROVIDER: 'none',
  RATE_LIMIT_PER_MINUTE: '100000000',
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
};
const quiet = { info: () => {}, warn: (m) => console.error(`bench: ${m}`) };
const config = await loadConfig(env, quiet);
const runtime = await openRuntime(config, quiet);
const app = await buildApp(runtime.deps, { logger: false });

const run = Date.now().toString(36);
const registered = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  headers: { origin: config.baseUrl },
  payload: { email: `mcp-bench-${run}@example.com`, password: 'correct horse battery' },
});
const session = registered.cookies.find((c) => c.name === 'service_session');
if (!session) throw new Error(`register failed: ${registered.statusCode} ${registered.body}`);
const cookie = `service_session=${session.value}`;
const userId = registered.json().user.id;
const { token } = await app.personalAccessTokens.mint(userId, { name: 'bench' });

/** A REST call as the signed-in user; throws unless it answers `status`. */
async function rest(method, url, payload, status = 200) {
  const res = await app.inject({
    method,
    url,
    payload,
    headers: { cookie, origin: config.baseUrl },
  });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const portfolio = await rest('POST', '/api/portfolios', { name: 'Bench' }, 201);
const transactions = [
  { type: 'deposit', amount: '100000', currency: 'USD', executedAt: '2024-01-02T09:00:00Z' },
  ...[
    ['AAPL', '40', '185'],
    ['MSFT', '20', '370'],
    ['KO', '100', '59'],
  ].map(([symbol, quantity, price]) => ({
    type: 'buy',
    symbol,
    quantity,
    price,
    currency: 'USD',
    executedAt: '2024-01-03T15:00:00Z',
  })),
];
for (const tx of transactions) {
  await rest('POST', `/api/portfolios/${portfolio.id}/transactions`, tx, 201);
}
// Fills the evaluation cache (one stock_evaluation unit); every request measured is a cache hit.
await rest('GET', '/api/stock-evaluation?symbol=AAPL');

await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({
  port: app.server.address().port,
  cookie,
  token,
  portfolioId: portfolio.id,
  dialect: runtime.dialect,
});
process.on('message', async (message) => {
  if (message === 'close') {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});

// A server for api.bench.mjs, run as a child process so that the load generator and the server
// do not share an event loop. `bare`: one Fastify route answering a small JSON. `app`: the real
// service (openRuntime + buildApp from dist/) with the evaluation cache filled with 2,000+ rows
// and one signed-in user. Reports { port, cookie, rows } to the parent over IPC. `app-light`:
// the same without the bench portfolios and token (for runs of the evaluation reads alone).
// `load` (for load.bench.mjs): the `app` server plus, for the signed-in user, a portfolio with a few
// transactions and a personal access token for MCP calls ({ portfolioId, token }).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TOKEN_SCOPES } from '@svc/use-cases';
import Fastify from 'fastify';
import { buildApp, loadConfig, openRuntime } from '../dist/index.js';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
/** Synthetic copies of each real evaluation, so the cache holds 30 × (1 + REPLICAS) rows. */
const REPLICAS = Number(process.env.BENCH_REPLICAS ?? 70);
/** Holdings of the X-ray case, each with a cached evaluation under a ticker SEC's list knows. */
const XRAY_HOLDINGS = 50;
/** Bearer token of the servers' `GET /metrics` (read by load.bench.mjs). */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

async function bare() {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ ok: true, service: 'bare', version: 1 }));
  // The same size as a cached evaluation (about 7.9 kB), to tell payload cost from app cost.
  const large = Buffer.from(JSON.stringify({ pad: '—'.repeat(2630) }));
  app.get('/bare-8k', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(large),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: app.server.address().port, close: () => app.close() };
}

/** Stores the real evaluations of the snapshot companies plus REPLICAS renamed copies of each. */
async function fillCache(moat, evaluations, actor) {
  const fs = await import('node:fs');
  const tickers = fs
    .readdirSync(join(SHARED, 'fundamentals/raw/companyfacts'))
    .map((name) => /^([A-Z.-]+)_CIK\d+\.json$/.exec(name)?.[1])
    .filter(Boolean);
  const real = [];
  for (const symbol of tickers) {
    try {
      real.push(await moat.evaluations.getEvaluation({ symbol, fresh: true, actor }));
    } catch (error) {
      console.error(`bench: ${symbol} not evaluated (${error.code ?? error.message})`);
    }
  }
  for (const evaluation of real) {
    const { _cached, _cachedAt, ...stored } = evaluation;
    for (let i = 1; i <= REPLICAS; i += 1) {
      const symbol = `${evaluation.symbol.slice(0, 5)}-${String(i).padStart(3, '0')}`;
      await evaluations.upsert(
        { ...stored, symbol, companyName: `${evaluation.companyName} (copy ${i})` },
        { marketCap: stored._marketCap === null ? null : String(stored._marketCap) },
      );
    }
  }
  // The X-ray's 50 holdings must resolve (issue 38: only an instrument SEC's ticker list or the
  // resolver knows is linked to an evaluation), so the copies it holds take real tickers of SEC's
  // list that the snapshot does not evaluate.
  const secTickers = Object.values(
    JSON.parse(fs.readFileSync(join(SHARED, 'sec/company_tickers_2026-02-13.json'), 'utf8')),
  ).map((row) => row.ticker);
  const evaluated = new Set(real.map((e) => e.symbol));
  const xraySymbols = real.map((e) => e.symbol);
  for (const ticker of secTickers) {
    if (xraySymbols.length >= XRAY_HOLDINGS) break;
    if (evaluated.has(ticker) || !/^[A-Z]+$/.test(ticker)) continue;
    const { _cached, _cachedAt, ...stored } = real[xraySymbols.length % real.length];
    await evaluations.upsert(
      { ...stored, symbol: ticker, companyName: `${stored.companyName} (as ${ticker})` },
      { marketCap: stored._marketCap === null ? null : String(stored._marketCap) },
    );
    xraySymbols.push(ticker);
  }
  // Planner statistics as autovacuum would leave them within a minute (fill-cache does the same).
  await evaluations.analyze();
  return { rows: real.length * (1 + REPLICAS) + xraySymbols.length - real.length, xraySymbols };
}

/** The transactions of the bench portfolio (prices from the shared files' range). */
const TRANSACTIONS = [
  { type: 'deposit', amount: '20000', currency: 'USD', executedAt: '2024-01-02T09:00:00Z' },
  ...['AAPL', 'PG', 'COST', 'KO', 'V'].map((symbol, i) => ({
    type: 'buy',
    symbol,
    quantity: String(5 + i),
    price: '100',
    currency: 'USD',
    executedAt: `2024-01-0${3 + i}T15:00:00Z`,
  })),
];

/** A portfolio with {@link TRANSACTIONS} and a PAT for the signed-in user of `app`. */
async function portfolioAndToken(app, cookie, origin) {
  const headers = { cookie, origin };
  const created = await app.inject({
    method: 'POST',
    url: '/api/portfolios',
    headers,
    payload: { name: 'Bench' },
  });
  if (created.statusCode !== 201)
    throw new Error(`portfolio: ${created.statusCode} ${created.body}`);
  const portfolioId = created.json().id;
  for (const tx of TRANSACTIONS) {
    const res = await app.inject({
      method: 'POST',
      url: `/api/portfolios/${portfolioId}/transactions`,
      headers,
      payload: tx,
    });
    if (res.statusCode !== 201) throw new Error(`transaction: ${res.statusCode} ${res.body}`);
  }
  const minted = await app.inject({
    method: 'POST',
    url: '/api/account/tokens',
    headers,
    payload: { name: 'bench' },
  });
  if (minted.statusCode !== 201) throw new Error(`token: ${minted.statusCode} ${minted.body}`);
  return { portfolioId, token: minted.json().token };
}

/** The four broker exports of the benchmark portfolio (33 holdings: Apple bought by ISIN and by ticker is one) (shared/data/broker-exports). */
const BROKER_EXPORTS = ['schwab', 'revolut-invest', 'degiro', 'trading212'].map(
  (broker) => `export-to-ghostfolio/${broker}-export.csv`,
);

/** A Ghostfolio CSV buying `count` synthetic symbols (no price files: values stay null). */
function syntheticExport(count) {
  const rows = ['Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note'];
  for (let i = 0; i < count; i += 1) {
    rows.push(`02-01-2024,SYN${String(i).padStart(4, '0')},MANUAL,USD,${10 + (i % 90)},3,buy,1,`);
  }
  return `${rows.join('\n')}\n`;
}

/** A Ghostfolio CSV buying each of `symbols` (issue 38: the X-ray's 50 cached companies). */
function cachedExport(symbols) {
  const rows = ['Date,Code,DataSource,Currency,Price,Quantity,Action,Fee,Note'];
  symbols.forEach((symbol, i) => {
    rows.push(`02-01-2024,${symbol},YAHOO,USD,${10 + i},3,buy,1,`);
  });
  return `${rows.join('\n')}\n`;
}

/**
 * The portfolios of api.bench.mjs for the signed-in user of `app`: `p34` from the four broker
 * exports (33 holdings, 200+ transactions), `p340` and `p3400` of synthetic holdings (growth
 * with the rows), `p50` of 50 companies whose evaluations are cached (the X-ray from a warm
 * cache, issue 38), and a personal access token for MCP calls.
 */
async function benchPortfolios(app, cookie, origin, userId, cachedSymbols) {
  const headers = { cookie, origin };
  const create = async (name) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/portfolios',
      headers,
      payload: { name },
    });
    if (res.statusCode !== 201) throw new Error(`portfolio: ${res.statusCode} ${res.body}`);
    return res.json().id;
  };
  const upload = async (id, text) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/portfolios/${id}/import`,
      headers: { ...headers, 'content-type': 'text/csv' },
      payload: text,
    });
    if (res.statusCode !== 201) throw new Error(`import: ${res.statusCode} ${res.body}`);
  };
  const p34 = await create('Brokers');
  const { readFileSync } = await import('node:fs');
  for (const file of BROKER_EXPORTS) {
    await upload(p34, readFileSync(join(SHARED, 'broker-exports', file), 'utf8'));
  }
  const portfolios = { p34 };
  const p50 = await create('Fifty cached');
  await upload(p50, cachedExport(cachedSymbols.slice(0, 50)));
  portfolios.p50 = p50;
  for (const count of [340, 3400]) {
    const id = await create(`Synthetic ${count}`);
    await upload(id, syntheticExport(count));
    portfolios[`p${count}`] = id;
  }
  const counts = {};
  for (const [key, id] of Object.entries(portfolios)) {
    const res = await app.inject({ url: `/api/holdings?portfolioId=${id}`, headers });
    counts[key] = res.json().length;
  }
  // every scope: MCP answers what REST does (money fields need `portfolio:values`)
  const { token } = await app.personalAccessTokens.mint(userId, {
    name: 'bench',
    scopes: [...TOKEN_SCOPES],
  });
  return { portfolios, holdingCounts: counts, token };
}

/** Trading days (Mon–Fri) from `first` through `last`, `YYYY-MM-DD`. */
function tradingDays(first, last) {
  const days = [];
  for (
    let ms = Date.parse(`${first}T00:00:00Z`);
    ms <= Date.parse(`${last}T00:00:00Z`);
    ms += 864e5
  ) {
    const weekday = new Date(ms).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(new Date(ms).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * The 50 symbols of the performance portfolio (issue 30): the 29 with real daily closes since
 * 2000 in the shared data, and 21 synthetic ones (a seeded random walk, 2000-01-03 to
 * 2024-03-28) written to a prices folder of their own beside links to the real folders.
 */
async function performancePrices() {
  const { mkdirSync, readdirSync, symlinkSync, writeFileSync } = await import('node:fs');
  const dir = await mkdtemp(join(tmpdir(), 'svc-api-bench-prices-'));
  const real = 'yahoo_daily_2000_2024-03';
  for (const entry of readdirSync(join(SHARED, 'prices'))) {
    if (entry !== real) symlinkSync(join(SHARED, 'prices', entry), join(dir, entry));
  }
  mkdirSync(join(dir, real));
  const symbols = [];
  for (const file of readdirSync(join(SHARED, 'prices', real))) {
    symlinkSync(join(SHARED, 'prices', real, file), join(dir, real, file));
    symbols.push(file.replace(/\.csv$/, ''));
  }
  const days = tradingDays('2000-01-03', '2024-03-28');
  for (let i = 0; symbols.length < 50; i += 1) {
    const symbol = `SYNP${String.fromCharCode(65 + i)}`;
    let value = 40 + i * 3;
    let state = i + 1;
    const rows = ['Date,Open,High,Low,Close,Adj Close,Volume'];
    for (const day of days) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      value *= 1 + (state / 2 ** 31 - 0.5) * 0.02;
      const close = value.toFixed(4);
      rows.push(`${day},${close},${close},${close},${close},${close},1000`);
    }
    writeFileSync(join(dir, real, `${symbol}.csv`), `${rows.join('\n')}\n`);
    symbols.push(symbol);
  }
  return { dir, symbols };
}

/**
 * The ledger of the performance portfolio: 50 holdings over 10 years (2014-03 to 2024-03),
 * monthly deposits and purchases of every holding, quarterly dividends and yearly sales, as
 * `packages/portfolio/bench/performance.ts` builds it (8,600+ transactions).
 */
function performanceLedger(symbols) {
  const txs = [];
  const at = (offset) =>
    `${new Date(Date.parse('2014-03-03T15:00:00Z') + offset * 864e5).toISOString().slice(0, 19)}Z`;
  for (let month = 0; month < 120; month += 1) {
    const offset = Math.floor(month * 30.4);
    txs.push({ type: 'deposit', amount: '60000', currency: 'USD', executedAt: at(offset) });
    symbols.forEach((symbol, i) => {
      const price = String(40 + ((i * 7 + month) % 90));
      txs.push({
        type: 'buy',
        symbol,
        quantity: '10',
        price,
        currency: 'USD',
        fee: '1',
        executedAt: at(offset),
      });
      if (month % 3 === 2) {
        txs.push({
          type: 'dividend',
          symbol,
          amount: '12.5',
          currency: 'USD',
          executedAt: at(offset + 1),
        });
      }
      if (month % 12 === 11) {
        txs.push({
          type: 'sell',
          symbol,
          quantity: '30',
          price,
          currency: 'USD',
          executedAt: at(offset + 2),
        });
      }
    });
  }
  return txs;
}

/**
 * The server of the `performanceAfterEdit` case (issue 30): ECB rates from the shared file, the
 * prices of {@link performancePrices}, and one user with the 50 × 10 years portfolio of
 * {@link performanceLedger}; answers its id, the id of its first purchase (the edit deep in the
 * past) and the session cookie.
 */
async function performanceService() {
  const prices = await performancePrices();
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-api-bench-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    FUNDAMENTALS_PROVIDER: 'snapshot',
    FUNDAMENTALS_SNAPSHOT_DIR: join(SHARED, 'fundamentals/raw/companyfacts'),
    QUOTES_PROVIDER: 'csv',
    PRICES_DIR: prices.dir,
    FX_PROVIDER: 'ecb-file',
    ECB_FX_FILE: join(SHARED, 'fx/eurofxref-hist.csv'),
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  };
  const quiet = { info: () => {}, warn: (m) => console.error(`bench: ${m}`) };
  const config = await loadConfig(env, quiet);
  const runtime = await openRuntime(config, quiet);
  const app = await buildApp(runtime.deps, { logger: false });
  const run = Date.now().toString(36);
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: { origin: config.baseUrl },
    payload: { email: `performance-${run}@example.com`, password: 'correct horse battery' },
  });
  const cookie = reg.cookies.find((c) => c.name === 'service_session');
  if (!cookie) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  const cookieHeader = `service_session=${cookie.value}`;
  // the ledger's writes take a flow's unit of work (issue 37): the ledger comes in as an account
  // import (one transaction, holdings derived and valued)
  const zero = '00000000-0000-4000-8000-000000000000';
  const headers = { cookie: cookieHeader, origin: config.baseUrl };
  const imported = await app.inject({
    method: 'POST',
    url: '/api/account/import',
    headers,
    payload: {
      format: 'moat-portfolio-export',
      version: 1,
      exportedAt: '2024-03-01T00:00:00.000Z',
      portfolios: [
        {
          id: zero,
          name: 'Fifty for ten years',
          baseCurrency: 'EUR',
          createdAt: '2014-03-01T00:00:00.000Z',
          transactions: performanceLedger(prices.symbols).map((t) => ({
            ...t,
            id: zero,
            portfolioId: zero,
          })),
        },
      ],
    },
  });
  if (imported.statusCode !== 201)
    throw new Error(`import: ${imported.statusCode} ${imported.body.slice(0, 500)}`);
  const portfolio = (
    await app.inject({ method: 'GET', url: '/api/portfolios', headers })
  ).json()[0];
  const firstPage = await app.inject({
    method: 'GET',
    url: `/api/transactions?portfolioId=${portfolio.id}&to=2014-03-03&limit=100`,
    headers,
  });
  const items = firstPage.json().items;
  const revalued = await app.inject({
    method: 'POST',
    url: `/api/portfolios/${portfolio.id}/revalue`,
    headers,
  });
  if (revalued.statusCode !== 200)
    throw new Error(`revalue: ${revalued.statusCode} ${revalued.body}`);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const first = items.find((t) => t.type === 'buy');
  return {
    port: app.server.address().port,
    origin: config.baseUrl,
    cookie: cookieHeader,
    performance: {
      portfolioId: portfolio.id,
      transactionId: first.id,
      transactions: imported.json().transactions,
    },
    async close() {
      await app.close();
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
      await rm(prices.dir, { recursive: true, force: true });
    },
  };
}

async function service({ memo = true, extras = false, portfolios = false } = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-api-bench-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    FUNDAMENTALS_PROVIDER: 'snapshot',
    FUNDAMENTALS_SNAPSHOT_DIR: join(SHARED, 'fundamentals/raw/companyfacts'),
    QUOTES_PROVIDER: 'csv',
    PRICES_DIR: join(SHARED, 'prices'),
    FX_PROVIDER: 'none',
    RATE_LIMIT_PER_MINUTE: '100000000',
    ...(process.env.DATABASE_POOL_MAX ? { DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX } : {}),
    METRICS_TOKEN: METRICS_TOKEN,
    QUOTA_LIMITS:
      '{"pro":{"stock_evaluation":{"limit":1000}},"free":{"ai_consult":{"limit":100000000}}}',
    // load.bench.mjs: narrative streams from its loopback model (@svc/advisor's fake server)
    ...(process.env.OPENAI_BASE_URL
      ? {
          OPENAI_BASE_URL: process.env.OPENAI_BASE_URL,
          OPENAI_API_KEY: 'sk-bench',
          NARRATIVE_MODEL: 'bench-narrator',
          OPENAI_MAX_RETRIES: '0',
        }
      : {}),
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    ...(process.env.SESSION_CACHE_SECONDS
      ? { SESSION_CACHE_SECONDS: process.env.SESSION_CACHE_SECONDS }
      : {}),
    ...(process.env.EVALUATION_CACHE_MEMO_SECONDS
      ? { EVALUATION_CACHE_MEMO_SECONDS: process.env.EVALUATION_CACHE_MEMO_SECONDS }
      : {}),
    // `app-sql`: no in-process memo, every screener request runs its SQL.
    ...(memo ? {} : { EVALUATION_CACHE_MEMO_SECONDS: '0' }),
  };
  const quiet = { info: () => {}, warn: (m) => console.error(`bench: ${m}`) };
  const config = await loadConfig(env, quiet);
  const runtime = await openRuntime(config, quiet);
  const app = await buildApp(runtime.deps, { logger: false });
  // The runtime's repositories are createRepositories(db): the evaluation cache is among them.
  const { repos } = runtime.deps;
  const run = `${Date.now().toString(36)}-${process.pid}`;
  const user = await repos.users.create({ email: `bench-${run}@example.com`, plan: 'pro' });
  const { rows, xraySymbols } = await fillCache(runtime.deps.moat, repos.evaluations, {
    id: user.id,
    plan: 'pro',
  });
  const reg = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: { origin: config.baseUrl },
    payload: { email: `reader-${run}@example.com`, password: 'correct horse battery' },
  });
  const cookie = reg.cookies.find((c) => c.name === 'service_session');
  if (!cookie) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  const cookieHeader = `service_session=${cookie.value}`;
  const more = extras
    ? await portfolioAndToken(app, cookieHeader, config.baseUrl)
    : portfolios
      ? await benchPortfolios(app, cookieHeader, config.baseUrl, reg.json().user.id, xraySymbols)
      : {};
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    ...more,
    metricsToken: METRICS_TOKEN,
    origin: config.baseUrl,
    port: app.server.address().port,
    cookie: cookieHeader,
    rows,
    dialect: runtime.dialect,
    async close() {
      await app.close();
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const mode = process.argv[2];
const server =
  mode === 'bare'
    ? await bare()
    : mode === 'performance'
      ? await performanceService()
      : await service({
          memo: mode !== 'app-sql',
          extras: mode === 'load',
          portfolios: mode === 'app',
        });
const { close, ...info } = server;
process.send?.({ ready: true, ...info });
/** The inspector session of BENCH_CPU_PROF: one CPU profile per measured case. */
let profiler;
async function profile(message) {
  if (profiler === undefined) {
    const { Session } = await import('node:inspector/promises');
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
  }
  if (message.profile === 'start') {
    await profiler.post('Profiler.start');
  } else {
    const { profile: taken } = await profiler.post('Profiler.stop');
    (await import('node:fs')).writeFileSync(message.file, JSON.stringify(taken));
  }
  process.send?.({ profiled: message.profile });
}
process.on('message', async (message) => {
  // the process's own CPU time (µs, user + system), for cases measured one request at a time
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
    return;
  }
  if (typeof message === 'object' && message.profile) {
    await profile(message);
    return;
  }
  if (message === 'close') {
    await close();
    process.exit(0);
  }
});

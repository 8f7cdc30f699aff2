// The service for ai.bench.mjs, in a child process: openRuntime + buildApp from dist/, the model
// endpoint given by the parent (OPENAI_BASE_URL), one signed-in user holding AAPL. Reports
// { port, cookie, evaluation } over IPC; answers 'memory' with process.memoryUsage().
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp, loadConfig, openRuntime } from '../dist/index.js';

const SHARED = resolve(
  process.env.SHARED_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/data'),
);
const dataDir = await mkdtemp(join(tmpdir(), 'svc-ai-bench-'));
const env = {
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  FUNDAMENTALS_PROVIDER: 'snapshot',
  FUNDAMENTALS_SNAPSHOT_DIR: join(SHARED, 'fundamentals/raw/companyfacts'),
  FX_PROVIDER: 'none',
  RATE_LIMIT_PER_MINUTE: '100000000',
  QUOTA_LIMITS: '{"free":{"ai_consult":{"limit":1000000}}}',
  OPENAI_BASE_URL: process.env.OPENAI_BASE_URL,
  OPENAI_API_KEY: 'sk-bench',
  NARRATIVE_MODEL: 'bench-narrator',
  ADVISOR_MODEL: 'bench-advisor',
  OPENAI_MAX_RETRIES: '0',
  ...(process.env.AI_MAX_LINE_BYTES ? { AI_MAX_LINE_BYTES: process.env.AI_MAX_LINE_BYTES } : {}),
  ...(process.env.AI_MAX_ANSWER_BYTES
    ? { AI_MAX_ANSWER_BYTES: process.env.AI_MAX_ANSWER_BYTES }
    : {}),
};
const quiet = { info: () => {}, warn: (m) => console.error(`bench: ${m}`) };
const config = await loadConfig(env, quiet);
const runtime = await openRuntime(config, quiet);
const app = await buildApp(runtime.deps, { logger: false });
const origin = { origin: config.baseUrl };
const reg = await app.inject({
  method: 'POST',
  url: '/api/auth/register',
  headers: origin,
  payload: { email: 'ai-bench@example.com', password: 'correct horse battery' },
});
const cookie = `service_session=${reg.cookies.find((c) => c.name === 'service_session')?.value}`;
const evaluation = (
  await app.inject({ url: '/api/stock-evaluation?symbol=AAPL', headers: { cookie } })
).json();
await app.listen({ port: 0, host: '127.0.0.1' });
process.send?.({
  ready: true,
  port: app.server.address().port,
  cookie,
  evaluation,
  origin: config.baseUrl,
});
process.on('message', async (message) => {
  if (message === 'memory') process.send?.({ memory: process.memoryUsage() });
  if (message === 'close') {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});

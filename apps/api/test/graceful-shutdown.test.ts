/**
 * Issue 10: graceful shutdown of a real server process (`src/server.ts` through tsx, as
 * `pnpm start` runs it; embedded database). SIGTERM stops new connections, lets a request in
 * flight finish, ends a stream that outlives the grace period (`SHUTDOWN_GRACE_SECONDS`) with its
 * terminal error event instead of cutting it, and exits 0 within the grace period.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type FakeOpenAI,
  type FakeTurn,
  type ServerProcess,
  startFakeOpenAI,
  startServerProcess,
  textSteps,
} from '@svc/service/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPANYFACTS_DIR } from './shared-data.js';

const API_DIR = resolve(import.meta.dirname, '..');
const GRACE_SECONDS = 4;

interface Running extends ServerProcess {
  cleanup(): Promise<void>;
}

/** Starts the API on a fresh embedded database with the model at `model.url`. */
async function startApi(model: FakeOpenAI): Promise<Running> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-shutdown-'));
  const server = await startServerProcess({
    cwd: API_DIR,
    readyLine: 'service ready',
    env: (url) => ({
      BASE_URL: url,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      FUNDAMENTALS_PROVIDER: 'snapshot',
      FUNDAMENTALS_SNAPSHOT_DIR: COMPANYFACTS_DIR,
      QUOTES_PROVIDER: 'none',
      FX_PROVIDER: 'none',
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MAX_RETRIES: '0',
      NARRATIVE_MODEL: 'fake-model',
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    }),
  });
  return {
    ...server,
    async cleanup() {
      await server.stop('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs up and answers the session cookie and the cached AAPL evaluation. */
async function signedInWithEvaluation(
  api: Running,
): Promise<{ cookie: string; evaluation: unknown }> {
  const registered = await fetch(`${api.url}/api/auth/register`, {
    method: 'POST',
    headers: { origin: api.url, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'shutdown@example.test', password: 'correct horse battery' }),
  });
  expect(registered.status).toBe(201);
  const cookie = registered.headers
    .getSetCookie()
    .find((c) => c.startsWith('service_session='))
    ?.split(';')[0] as string;
  const evaluated = await fetch(`${api.url}/api/stock-evaluation?symbol=AAPL`, {
    headers: { cookie },
  });
  expect(evaluated.status).toBe(200);
  return { cookie, evaluation: await evaluated.json() };
}

/** Opens the narrative stream and answers a reader of its text and the first chunk's arrival. */
async function openNarrative(api: Running, cookie: string, evaluation: unknown) {
  const res = await fetch(`${api.url}/api/stock-evaluation/ai`, {
    method: 'POST',
    headers: { origin: api.url, cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ evaluation, language: 'en' }),
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const readUntil = async (marker: string) => {
    while (!text.includes(marker)) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  };
  const readAll = async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  };
  return { readUntil, readAll };
}

describe('graceful shutdown of a real server process', () => {
  let model: FakeOpenAI | undefined;
  let api: Running | undefined;
  afterEach(async () => {
    await api?.cleanup();
    await model?.close();
  }, 30_000);

  it('lets a stream in flight finish after SIGTERM, refuses new connections, exits 0', async () => {
    const slow: FakeTurn = {
      steps: [
        ...textSteps('Apple has').slice(0, 3),
        { delayMs: 1_500 },
        ...textSteps(' a wide moat.').slice(1),
      ],
    };
    model = await startFakeOpenAI({ script: () => slow });
    api = await startApi(model);
    const { cookie, evaluation } = await signedInWithEvaluation(api);
    const stream = await openNarrative(api, cookie, evaluation);
    await stream.readUntil('data: "');
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    // the listener closes at once: a new connection is refused (or answered 503)
    await expect
      .poll(
        async () =>
          fetch(`${api?.url}/healthz`).then(
            (res) => res.status,
            () => 'refused',
          ),
        { timeout: 2_000, interval: 20 },
      )
      .toMatch(/^(refused|503)$/);
    const text = await stream.readAll();
    expect(text).toContain('event: done');
    expect(text).not.toContain('event: error');
    const { code, at } = await api.exited;
    expect(code, api.output.join('').slice(-3000)).toBe(0);
    expect(at - signalled).toBeLessThan(GRACE_SECONDS * 1000);
  });

  it('ends a stream that outlives the grace period with an error event, then exits 0', async () => {
    // A whole line: the narrative shows text once its sentence ends (grounding marks, issue 17).
    const hanging: FakeTurn = {
      steps: [...textSteps(['Apple is durable.\n']).slice(0, 2), { hang: true }],
    };
    model = await startFakeOpenAI({ script: () => hanging });
    api = await startApi(model);
    const { cookie, evaluation } = await signedInWithEvaluation(api);
    const stream = await openNarrative(api, cookie, evaluation);
    await stream.readUntil('data: "');
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    const text = await stream.readAll();
    const ended = Date.now();
    expect(text).toMatch(/event: error\ndata: \{[^\n]*"code":"upstream_unavailable"/);
    expect(ended - signalled).toBeGreaterThanOrEqual((GRACE_SECONDS - 1) * 1000 - 200);
    const { code, at } = await api.exited;
    expect(code, api.output.join('').slice(-3000)).toBe(0);
    expect(at - signalled).toBeLessThan(GRACE_SECONDS * 1000 + 500);
  });
});

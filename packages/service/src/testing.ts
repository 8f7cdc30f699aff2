/**
 * Test support for the servers of this service (`@svc/service/testing`): start one as a real
 * child process (`src/server.ts` through tsx, as `pnpm start` runs it) on a free loopback port
 * and stop it with a signal. Used by the real-process tests of apps/api and apps/mcp.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '@svc/portfolio-store/testing';

/** A server started by {@link startServerProcess}. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed (stdout and stderr), in order. */
  readonly output: string[];
  /** Settles when the process exits: its exit code and the instant (epoch ms). */
  readonly exited: Promise<{ code: number | null; at: number }>;
  /** Sends `signal` (default SIGTERM) unless it exited; answers its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `node --import tsx src/server.ts` in `cwd` with `env` added to this process's, `PORT`
 * (a free one), `HOST=127.0.0.1` and `LOG_LEVEL=info`, and waits until it prints `readyLine`.
 * @throws when it exits first or does not get ready within `timeoutMs` (default 90 s), with its
 *   output in the message.
 */
export async function startServerProcess(options: {
  readonly cwd: string;
  /** Added to this process's environment; a function gets the server's URL (for `BASE_URL`). */
  readonly env: Record<string, string> | ((url: string) => Record<string, string>);
  readonly readyLine: string;
  readonly timeoutMs?: number;
}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = typeof options.env === 'function' ? options.env(url) : options.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: options.cwd,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<{ code: number | null; at: number }>((done) =>
    child.once('exit', (code) => done({ code, at: Date.now() })),
  );
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`not ready in ${options.timeoutMs ?? 90_000} ms:\n${output.join('')}`)),
      options.timeoutMs ?? 90_000,
    );
    const read = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes(options.readyLine)) {
        clearTimeout(timer);
        done();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      fail(new Error(`exited with ${code}:\n${output.join('')}`));
    });
  });
  return {
    url,
    child,
    output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return (await exited).code;
    },
  };
}

// The test kits of the packages the service is composed of, re-exported so that the apps' tests
// import only `@svc/service/testing` (besides the four packages apps may use): fake model
// endpoints and scripted turns (`@svc/advisor/testing`), test databases and throw-away PostgreSQL
// clusters (`@svc/portfolio-store/testing`), and the real providers and stores the tests build
// their own dependencies from.
export {
  type ChunkOptions,
  chunk,
  chunkStep,
  completionJson,
  errorStep,
  type FakeOpenAI,
  type FakeOpenAIOptions,
  type FakeStep,
  type FakeToolCall,
  type FakeTurn,
  findRecordingsDir,
  type RecordedRequest,
  reasoningSteps,
  startFakeOpenAI,
  type ToolCallStepsOptions,
  textSteps,
  toolCallSteps,
  usageStep,
} from '@svc/advisor/testing';
export {
  createSecEdgarProvider,
  createSnapshotProvider,
  type FundamentalsProvider,
  parseCompanyFacts,
} from '@svc/fundamentals-client';
export { createEcbFileFxProvider, MarketDataError, type QuoteProvider } from '@svc/market-data';
export { PortfolioError } from '@svc/portfolio';
export {
  type CachedEvaluation,
  createDatabase,
  createRepositories,
  createSharedCounter,
  type Database,
  MIGRATIONS,
  migrateToLatest,
  pendingMigrations,
  type SharedCounterOptions,
  staticMigrationProvider,
} from '@svc/portfolio-store';
export {
  createTestBackends,
  DEFAULT_TEST_DATABASE_URL,
  findPostgresBinDir,
  freePort,
  startThrowawayCluster,
  type TestBackend,
  type TestBackendsOptions,
  type TestDatabase,
  type ThrowawayCluster,
  type ThrowawayClusterOptions,
  uniqueEmail,
} from '@svc/portfolio-store/testing';
export { createQuotaService } from '@svc/quota';
export {
  type ReceivedWebhook,
  startWebhookReceiver,
  type WebhookReceiver,
} from './webhooks/webhook-receiver.js';

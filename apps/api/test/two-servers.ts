/**
 * Two real server processes (`src/server.ts`, as `pnpm start` runs it) behind one public base
 * URL, on one fresh PostgreSQL database made for the suite and dropped after it: what the
 * multi-process tests (issues 10 and 30) start the same way.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  createDatabase,
  type Database,
  type ServerProcess,
  startServerProcess,
} from '@svc/service/testing';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { COMPANYFACTS_DIR } from './shared-data.js';

const SERVER_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const API_DIR = resolve(import.meta.dirname, '..');

/** The password {@link TwoServers.register} registers with. */
export const TWO_SERVERS_PASSWORD = 'correct horse battery';

/** Two started server processes and the requests tests send them. */
export interface TwoServers {
  readonly one: ServerProcess;
  readonly two: ServerProcess;
  /** URL of the suite's own database (for SQL probes). */
  readonly databaseUrl: string;
  /** `fetch` of `path` on `server`, with the base URL's `Origin` and a JSON content type for a body. */
  call(server: ServerProcess, path: string, init?: RequestInit): Promise<Response>;
  /** Registers `email` on `server` (201 expected) and gives its session cookie. */
  register(server: ServerProcess, email: string): Promise<string>;
  /** Stops both (their exit codes), drops the database and removes the data folder. */
  close(): Promise<(number | null)[]>;
}

/** The `service_session=…` pair of a sign-in answer; throws when there is none. */
export function sessionCookieOf(res: Response): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('service_session='));
  if (!cookie) throw new Error(`no session cookie (${res.status})`);
  return cookie.split(';')[0] as string;
}

/**
 * Starts two server processes at the same time (both migrate the new database) with the offline
 * snapshot fundamentals, no quotes and no FX unless `env` says otherwise.
 *
 * @param options.name - part of the database's name (`svc_<name>_<random>`)
 * @param options.base - the public base URL both serve (a load balancer's)
 * @param options.env - more environment, over the defaults
 */
export async function startTwoServers(options: {
  readonly name: string;
  readonly base: string;
  readonly env?: Record<string, string>;
}): Promise<TwoServers> {
  const database = `svc_${options.name}_${randomBytes(5).toString('hex')}`;
  const admin: Database = await createDatabase({ databaseUrl: SERVER_URL, pool: { max: 1 } });
  await sql`create database ${sql.id(database)}`.execute(admin.db);
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  const dataDir = await mkdtemp(join(tmpdir(), `svc-${options.name}-`));
  const env = {
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    BASE_URL: options.base,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    FUNDAMENTALS_PROVIDER: 'snapshot',
    FUNDAMENTALS_SNAPSHOT_DIR: COMPANYFACTS_DIR,
    QUOTES_PROVIDER: 'none',
    FX_PROVIDER: 'none',
    ...options.env,
  };
  const start = () =>
    startServerProcess({ cwd: API_DIR, env, readyLine: 'service ready', timeoutMs: 60_000 });
  const started = await Promise.allSettled([start(), start()]);
  const cleanUp = async () => {
    await sql`drop database if exists ${sql.id(database)} with (force)`.execute(admin.db);
    await admin.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  if (started[0].status === 'rejected' || started[1].status === 'rejected') {
    for (const s of started) if (s.status === 'fulfilled') await s.value.stop();
    await cleanUp();
    throw started[0].status === 'rejected'
      ? started[0].reason
      : (started[1] as PromiseRejectedResult).reason;
  }
  const [one, two] = [started[0].value, started[1].value];
  const call = (server: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: {
        origin: options.base,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
    });
  return {
    one,
    two,
    databaseUrl: url.toString(),
    call,
    async register(server, email) {
      const res = await call(server, '/api/auth/register', {
        method: 'POST',
        body: JSON.stringify({ email, password: TWO_SERVERS_PASSWORD }),
      });
      expect(res.status).toBe(201);
      return sessionCookieOf(res);
    },
    async close() {
      const codes = await Promise.all([one.stop(), two.stop()]);
      await cleanUp();
      // an exit other than 0 fails the suite; what the process printed last says why. A close
      // step that hung (and was given up within the grace) is shown too: the next thing to fix.
      for (const [i, server] of [one, two].entries()) {
        for (const line of server.output.join('').split('\n')) {
          if (line.includes('closing: ')) console.error(`server ${i + 1}: ${line}`);
        }
        if (codes[i] !== 0) {
          console.error(
            `server ${i + 1} exited ${codes[i]}:\n${server.output.join('').slice(-4000)}`,
          );
        }
      }
      return codes;
    },
  };
}

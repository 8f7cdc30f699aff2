/**
 * Test-only: a PostgreSQL cluster of one's own, created with the installed server binaries in a
 * temporary folder and listening on its own loopback port, so that a test may stop, restart or
 * kill it without touching any shared server.
 */
import { execFile } from 'node:child_process';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** Where Debian and Ubuntu install the PostgreSQL server binaries, one folder per major version. */
const DEBIAN_PG_ROOT = '/usr/lib/postgresql';

/** A running (or stopped) throw-away cluster. */
export interface ThrowawayCluster {
  /** Connection string of its `postgres` database (trust authentication, user `postgres`). */
  readonly url: string;
  /** The loopback port it listens on. */
  readonly port: number;
  /** Stops the server (`pg_ctl stop -m fast`: open connections are terminated with 57P01). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data, waiting until it accepts connections. */
  start(): Promise<void>;
  /** Stops the server if running and deletes its folder. */
  destroy(): Promise<void>;
}

/** Options of {@link startThrowawayCluster}. */
export interface ThrowawayClusterOptions {
  /** The folder of `initdb` and `pg_ctl`; default the newest under `/usr/lib/postgresql/<v>/bin`. */
  binDir?: string;
}

/**
 * The newest PostgreSQL `bin` folder under `/usr/lib/postgresql`, or `undefined` when no server is
 * installed there (tests that need one skip themselves).
 */
export async function findPostgresBinDir(): Promise<string | undefined> {
  const versions = await readdir(DEBIAN_PG_ROOT).catch(() => [] as string[]);
  const newest = versions
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .at(0);
  return newest === undefined ? undefined : join(DEBIAN_PG_ROOT, newest, 'bin');
}

/** The uid/gid of the `postgres` account: PostgreSQL refuses to run as root. */
async function postgresAccount(): Promise<{ uid: number; gid: number }> {
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/**
 * Creates a cluster with `initdb` in a new temporary folder and starts it with `pg_ctl` on a free
 * loopback port (its Unix socket in the same folder). Running as root, the folder is handed to the
 * `postgres` account and the binaries run through `runuser`, as PostgreSQL refuses root.
 *
 * @throws when the binaries are missing or the server does not start.
 * @example
 * ```ts
 * const cluster = await startThrowawayCluster();
 * const database = await createDatabase({ databaseUrl: cluster.url });
 * await cluster.stop(); // queries now fail with isDatabaseUnavailable(error) === true
 * await cluster.start();
 * await cluster.destroy();
 * ```
 */
export async function startThrowawayCluster(
  options: ThrowawayClusterOptions = {},
): Promise<ThrowawayCluster> {
  const binDir = options.binDir ?? (await findPostgresBinDir());
  if (binDir === undefined) throw new Error(`no PostgreSQL server binaries in ${DEBIAN_PG_ROOT}`);
  const root = await mkdtemp(join(tmpdir(), 'pg-throwaway-'));
  const dataDir = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await postgresAccount();
    await chown(root, uid, gid);
  }
  const pg = async (tool: string, args: string[]) => {
    const command = join(binDir, tool);
    if (asRoot) await run('runuser', ['-u', 'postgres', '--', command, ...args]);
    else await run(command, args);
  };
  const port = await freePort();
  const serverOptions = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (action: 'start' | 'stop') =>
    action === 'start'
      ? pg('pg_ctl', ['-D', dataDir, '-o', serverOptions, '-l', join(root, 'log'), '-w', 'start'])
      : pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
  let running = false;
  await pg('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  await ctl('start');
  running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await ctl('stop');
      running = false;
    },
    async start() {
      await ctl('start');
      running = true;
    },
    async destroy() {
      if (running) await ctl('stop').catch(() => undefined);
      running = false;
      await rm(root, { recursive: true, force: true });
    },
  };
}

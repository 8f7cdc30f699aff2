// What the API benches share: the CPU times of a server process from /proc, the load generator
// (wrk, or autocannon in a process of its own), one request on a new connection, and the bench
// servers (bench-server.mjs, or another checkout's) in child processes.
import { fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

/** Clock ticks per second of /proc's CPU times. */
export const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** utime + stime of a process in µs (0 when it is gone). */
export function cpuMicros(pid) {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** utime and stime of a process in µs, apart (0 when it is gone). */
export function cpuTimes(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: (Number(fields[11]) * 1e6) / TICKS, system: (Number(fields[12]) * 1e6) / TICKS };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** `wrk` when installed, else installed with apt-get when this user can, else null (autocannon). */
export function findWrk() {
  const has = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
  if (process.env.BENCH_GENERATOR === 'autocannon') return null;
  if (has()) return 'wrk';
  if (process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0) {
    console.error('bench: installing wrk (apt-get install -y wrk)');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'ignore' });
    if (has()) return 'wrk';
  }
  console.error('bench: wrk not available; autocannon runs in a process of its own instead');
  return null;
}
export const WRK = findWrk();
export const scratch = mkdtempSync(join(tmpdir(), 'svc-api-bench-'));

/** The Lua script of a case for wrk: method, headers, body; `done` prints the figures as JSON. */
export function wrkScript(c) {
  const lua = [
    `wrk.method = ${JSON.stringify(c.method ?? 'GET')}`,
    ...Object.entries(c.headers ?? {}).map(
      ([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
    ),
    c.body === undefined ? '' : `wrk.body = ${JSON.stringify(c.body)}`,
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'\\nBENCH {"requests":%d,"micros":%d,"p50":%d,"p99":%d,"bad":%d,"bytes":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),',
    '    e.connect + e.read + e.write + e.status + e.timeout, summary.bytes))',
    'end',
  ];
  const file = join(scratch, `${c.name.replace(/\W+/g, '-')}.lua`);
  writeFileSync(file, lua.join('\n'));
  return file;
}

/** Runs the generator against a case for `seconds`; answers requests, req/s, p50/p99 ms. */
export function generate(c, seconds) {
  return new Promise((resolve, reject) => {
    const args = WRK
      ? [
          '-t1',
          `-c${c.connections ?? CONNECTIONS}`,
          `-d${seconds}s`,
          '--timeout',
          '30s',
          '-s',
          wrkScript(c),
          c.url,
        ]
      : [
          join(import.meta.dirname, 'autocannon-run.mjs'),
          JSON.stringify({ ...c, connections: c.connections ?? CONNECTIONS, seconds }),
        ];
    const child = spawn(WRK ?? process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', () => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH '));
      if (!line) return reject(new Error(`${c.name}: no figures from the generator:\n${out}`));
      const r = JSON.parse(line.slice(6));
      if (r.bad > 0) return reject(new Error(`${c.name}: ${r.bad} failed requests`));
      resolve({
        requests: r.requests,
        micros: r.micros,
        rps: r.requests / (r.micros / 1e6),
        p50: r.p50 / 1000,
        p99: r.p99 / 1000,
        bytes: Math.round(r.bytes / Math.max(1, r.requests)),
      });
    });
  });
}

/** One request on a new connection: status, body and milliseconds to the last byte. */
export function once(c) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = httpRequest(
      c.url,
      { method: c.method ?? 'GET', headers: c.headers, agent: false },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });
}

/** Starts a bench server in a child process and waits for its { port, cookie, ... }. */
export function start(
  mode,
  execArgv = [],
  script = new URL('./bench-server.mjs', import.meta.url),
) {
  const child = fork(script, [mode], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    child.once('message', (info) => resolve({ ...info, child }));
  });
}

/** Sends a bench server a message and waits for its `{ profiled }` answer. */
export function ask(server, message) {
  return new Promise((resolve) => {
    const answered = (reply) => {
      if (typeof reply !== 'object' || reply.profiled === undefined) return;
      server.child.off('message', answered);
      resolve(reply);
    };
    server.child.on('message', answered);
    server.child.send(message);
  });
}

export async function stop(server) {
  server.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.send('close');
  await exited;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/**
 * A package registry on 127.0.0.1 that serves exactly the third-party packages the workspace
 * already holds, so the pack test installs its tarballs without waiting on the public registry.
 *
 * From each start folder it follows `dependencies` (and required `peerDependencies`) through
 * the workspace's `node_modules` (Node's lookup: the folder, then its parents; pnpm's symlinks
 * resolved), skipping the names `skip` says come as tarballs. Every package found is packed once
 * (a gzipped tar of the installed folder under `package/`, as npm packs) and served as npm's registry API expects it:
 * `GET /<name>` the packument (`versions`, `dist-tags.latest`, each version's
 * `dist.tarball`/`dist.integrity`), `GET /-/tarballs/<file>` the tarball; anything else is 404,
 * so a package the workspace lacks fails the install at once instead of reaching the internet.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/** A registry serving on loopback; `close` stops it. */
export interface LoopbackRegistry {
  /** e.g. `http://127.0.0.1:40123/` */
  url: string;
  /** `name@version` of every package served, sorted. */
  served: string[];
  close(): Promise<void>;
}

const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Node's lookup of `name` from `dir`: `dir/node_modules/name`, then each parent's; real path. */
function locate(name: string, dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(at) === at) throw new Error(`${name} (needed from ${dir}) is not in the workspace`);
  }
}

/** The folders of every third-party package reachable from `starts`, keyed by real path. */
function closure(
  starts: readonly string[],
  skip: (name: string) => boolean,
): Map<string, Manifest> {
  const found = new Map<string, Manifest>();
  const queue = [...starts];
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    const manifest = readManifest(dir);
    const optionalPeer = (name: string) => manifest.peerDependenciesMeta?.[name]?.optional === true;
    const names = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !optionalPeer(name)),
    ];
    for (const name of names) {
      if (skip(name)) continue;
      const at = locate(name, dir);
      if (found.has(at)) continue;
      found.set(at, readManifest(at));
      queue.push(at);
    }
  }
  return found;
}

/**
 * Packs the third-party closure of `starts` into `tarballDir` and serves it on 127.0.0.1.
 * @throws Error when a dependency is not installed in the workspace or `tar` fails.
 */
export async function startLoopbackRegistry(options: {
  starts: readonly string[];
  skip: (name: string) => boolean;
  tarballDir: string;
}): Promise<LoopbackRegistry> {
  const packages = closure(options.starts, options.skip);
  const folders = [...packages.keys()];
  // The installed folder is the published content; GNU tar writes it under `package/` as npm
  // packs it (`npm pack <folder>` of a folder inside node_modules fails in npm 11). pnpm's store
  // links identical files to one inode; tar would write the second as a hard link, which npm's
  // extraction drops, so links are written as the files they point to.
  const packed = await Promise.all(
    folders.map(async (folder) => {
      const { name, version } = packages.get(folder) as Manifest;
      const filename = `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
      const file = join(options.tarballDir, filename);
      const args = [
        '-czf',
        file,
        '--exclude=./node_modules',
        '--hard-dereference',
        '--transform=s,^\\.,package,',
        '-C',
        folder,
        '.',
      ];
      await execFileAsync('tar', args, { timeout: 60_000 });
      const integrity = `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
      return { filename, integrity };
    }),
  );

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const packuments = new Map<string, { name: string; versions: Record<string, unknown> }>();
  const tarballs = new Map<string, string>();
  folders.forEach((folder, i) => {
    const manifest = packages.get(folder) as Manifest;
    const { filename, integrity } = packed[i] as { filename: string; integrity: string };
    tarballs.set(filename, join(options.tarballDir, filename));
    const packument = packuments.get(manifest.name) ?? { name: manifest.name, versions: {} };
    packument.versions[manifest.version] = {
      ...manifest,
      dist: { tarball: `${url}-/tarballs/${filename}`, integrity },
    };
    packuments.set(manifest.name, packument);
  });
  const body = (name: string) => {
    const packument = packuments.get(name);
    if (packument === undefined) return undefined;
    const latest = Object.keys(packument.versions)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .at(-1);
    return JSON.stringify({ ...packument, 'dist-tags': { latest } });
  };

  server.on('request', (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', url).pathname.slice(1));
    const tarball = path.startsWith('-/tarballs/') ? tarballs.get(path.slice(11)) : undefined;
    const packument = tarball === undefined ? body(path) : undefined;
    if (tarball !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(readFileSync(tarball));
    } else if (packument !== undefined) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(packument);
    } else {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
    }
  });

  return {
    url,
    served: [...packages.values()].map((m) => `${m.name}@${m.version}`).sort(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The publishing set as another team meets it: packs `@svc/schemas`, `@svc/moat-scoring`,
 * `@svc/valuation` and `@svc/fundamentals-client` with pnpm (which rewrites `workspace:*` and
 * `catalog:` to real versions), then installs EACH package with only the tarballs it needs into
 * its own plain `npm init -y` project (third-party dependencies such as zod from a registry on
 * 127.0.0.1 that serves the copies the workspace already holds — no test waits on the public
 * registry; nothing is linked from the workspace) and checks ESM `import`, CJS `require` and `tsc --strict`
 * (NodeNext) from the published shape. A last project installs the whole set and runs the first
 * example of this package's README, as written, on the shared SEC snapshot of AAPL.
 *
 * Build: `beforeAll` runs `pnpm run build` in this package; the other three are built only when
 * their `dist` is missing (rebuilding would clean the `dist` that parallel test runs of other
 * packages read). Through turbo, `packages/moat-scoring/turbo.json` makes `test` depend on the
 * builds of the whole set, so all are fresh.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compounderColumns, makeFundamentals } from './fixtures.js';
import { type LoopbackRegistry, startLoopbackRegistry } from './loopback-registry.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(packageDir, '..');
/** The shared real data (`SHARED_DATA_DIR`, default `shared/data` beside the checkout). */
const companyFactsDir = join(
  process.env.SHARED_DATA_DIR ?? join(packagesDir, '..', '..', 'shared', 'data'),
  'fundamentals',
  'raw',
  'companyfacts',
);
const npmAvailable = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
if (!npmAvailable) console.warn('pack test skipped: npm is not available on PATH');

/** Folder under `packages/` of each package of the publishing set. */
const PUBLISHING_SET = {
  '@svc/schemas': 'schemas',
  '@svc/moat-scoring': 'moat-scoring',
  '@svc/valuation': 'valuation',
  '@svc/fundamentals-client': 'fundamentals-client',
} as const;
type Published = keyof typeof PUBLISHING_SET;

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * `npm install` of `files` in `dir` against the loopback `registry` only: the user's and the
 * global npmrc are replaced by empty files (no scoped registry or proxy of theirs applies), the
 * cache is a fresh folder in `work`, and one stalled step fails the install after 60 s. Async, so
 * the registry in this process answers while npm runs.
 */
async function npmInstall(files: string[], dir: string, registry: string, work: string) {
  const [user, global] = [join(work, 'user.npmrc'), join(work, 'global.npmrc')];
  for (const file of [user, global]) writeFileSync(file, '');
  const args = ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files];
  const env = {
    ...process.env,
    npm_config_registry: registry,
    npm_config_userconfig: user,
    npm_config_globalconfig: global,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_fetch_retries: '0',
    npm_config_update_notifier: 'false',
  };
  try {
    await promisify(execFile)('npm', args, { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  } catch (error) {
    const { stderr = '' } = error as { stderr?: string };
    throw new Error(`npm install failed in ${dir}: ${(error as Error).message}\n${stderr}`);
  }
}

const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
const STRICT = {
  module: 'nodenext',
  moduleResolution: 'nodenext',
  strict: true,
  noEmit: true,
  types: [],
  skipLibCheck: false,
};

/** Runs `tsc --strict` (NodeNext) over `files` in `project`; returns the status and output. */
function typecheck(project: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(project, name), text);
  const config = `tsconfig.${Object.keys(files)[0]}.json`;
  writeFileSync(
    join(project, config),
    JSON.stringify({ compilerOptions: STRICT, files: Object.keys(files) }),
  );
  return spawnSync('node', [tsc, '-p', config], { cwd: project, encoding: 'utf8' });
}

function node(project: string, file: string, text: string): unknown {
  writeFileSync(join(project, file), text);
  return JSON.parse(run('node', [file], project));
}

const MOAT_ESM = `import { readFileSync } from 'node:fs';
import { evaluateMoat, verdictFor, CRITERIA } from '@svc/moat-scoring';
const f = JSON.parse(readFileSync('fixture.json', 'utf8'));
const e = evaluateMoat(f, { evaluatedAt: '2026-01-01T00:00:00Z' });
console.log(JSON.stringify({ total: e.totalScore, max: e.maxScore, verdict: e.verdict, n: CRITERIA.length, v: verdictFor(70, 100) }));
`;
const MOAT_CJS = `const { readFileSync } = require('node:fs');
const { evaluateMoat, MoatScoringError } = require('@svc/moat-scoring');
const f = JSON.parse(readFileSync('fixture.json', 'utf8'));
const e = evaluateMoat(f);
const codeOf = (input) => { try { evaluateMoat(input); return null; } catch (err) { return err instanceof MoatScoringError ? [err.code, err.path ?? null] : 'other'; } };
console.log(JSON.stringify({ total: e.totalScore, max: e.maxScore, verdict: e.verdict, short: codeOf({ ...f, years: f.years.slice(0, 2) }), malformed: codeOf({ ...f, years: 'x' }) }));
`;
const MOAT_TYPED = `import { evaluateMoat, type EvaluateMoatOptions, type MoatEvaluationResult, MoatScoringError } from '@svc/moat-scoring';
import type { Fundamentals, Verdict } from '@svc/schemas';
export function score(f: Fundamentals): Verdict {
  const options: EvaluateMoatOptions = { windowYears: 10, evaluatedAt: '2026-01-01T00:00:00Z' };
  const e: MoatEvaluationResult = evaluateMoat(f, options);
  const error = new MoatScoringError('insufficient_data', 'x');
  const code: 'insufficient_data' | 'invalid_argument' = error.code;
  const path: string | undefined = error.path;
  return code === 'insufficient_data' && path === undefined ? e.verdict : e.verdict;
}
`;
const MOAT_TYPED_CJS = `import moat = require('@svc/moat-scoring');
export const max: number = moat.evaluateMoat({} as import('@svc/schemas').Fundamentals).maxScore;
`;
const MOAT_WRONG = `import { evaluateMoat } from '@svc/moat-scoring';
export const bad = evaluateMoat(42);
`;

const PRICE = `{ value: 100, currency: 'USD', asOf: '2025-03-01', source: 'test' }`;
const VALUATION_ESM = `import { readFileSync } from 'node:fs';
import { computeValuation, SELL_TRIGGER_PE } from '@svc/valuation';
import { Valuation } from '@svc/schemas';
const fundamentals = JSON.parse(readFileSync('fixture.json', 'utf8'));
const v = computeValuation({ fundamentals, price: ${PRICE} });
console.log(JSON.stringify({ pe: v.peRatio, ok: Valuation.safeParse(v).success, trigger: SELL_TRIGGER_PE }));
`;
const VALUATION_CJS = `const { readFileSync } = require('node:fs');
const { computeValuation, ValuationError } = require('@svc/valuation');
const fundamentals = JSON.parse(readFileSync('fixture.json', 'utf8'));
const v = computeValuation({ fundamentals, price: null });
let code = null;
try { computeValuation({ fundamentals: { ...fundamentals, years: 'x' }, price: null }); } catch (err) { code = err instanceof ValuationError ? err.code : 'other'; }
console.log(JSON.stringify({ pe: v.peRatio, notes: v._notes.length > 0, code }));
`;
const VALUATION_TYPED = `import { computeValuation, type ValuationInput, type ValuationResult, ValuationPrice } from '@svc/valuation';
import type { Fundamentals, Valuation } from '@svc/schemas';
export function pe(fundamentals: Fundamentals): number | null {
  const input: ValuationInput = { fundamentals, price: ValuationPrice.parse(${PRICE}) };
  const result: ValuationResult = computeValuation(input);
  const plain: Valuation = result;
  return plain.peRatio;
}
`;
const VALUATION_TYPED_CJS = `import valuation = require('@svc/valuation');
export const trigger: number = valuation.SELL_TRIGGER_PE;
`;

const CLIENT_ESM = `import { createSnapshotProvider, normaliseSymbol } from '@svc/fundamentals-client';
import { Fundamentals } from '@svc/schemas';
const provider = createSnapshotProvider({ dir: './companyfacts' });
const f = await provider.getFundamentals(normaliseSymbol(' aapl '));
const last = f.years.at(-1);
console.log(JSON.stringify({ ticker: f.company.ticker, ok: Fundamentals.safeParse(f).success, year: last.fiscalYear, eps: last.dilutedEps.value }));
`;
const CLIENT_CJS = `const { readFileSync } = require('node:fs');
const { parseCompanyFacts, FundamentalsError, normaliseSymbol } = require('@svc/fundamentals-client');
const json = JSON.parse(readFileSync('companyfacts/AAPL_CIK0000320193.json', 'utf8'));
const f = parseCompanyFacts(json, { ticker: 'AAPL' });
let code = null;
try { normaliseSymbol('B@D!'); } catch (err) { code = err instanceof FundamentalsError ? err.code : 'other'; }
console.log(JSON.stringify({ name: f.company.name, years: f.years.length >= 10, code }));
`;
const CLIENT_TYPED = `import { createSnapshotProvider, type FundamentalsProvider, FundamentalsError } from '@svc/fundamentals-client';
import type { Fundamentals } from '@svc/schemas';
export async function read(ticker: string): Promise<Fundamentals> {
  const provider: FundamentalsProvider = createSnapshotProvider({ dir: './companyfacts' });
  const code: string = new FundamentalsError('insufficient_data', 'x').code;
  return code === '' ? Promise.reject(new Error(code)) : provider.getFundamentals(ticker);
}
`;
const CLIENT_TYPED_CJS = `import client = require('@svc/fundamentals-client');
export const symbol: string = client.normaliseSymbol('brk.b');
`;

/** The first ```ts block of this package's README: the end-to-end example. */
function readmeExample(): string {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const match = /```ts\n([\s\S]*?)```/.exec(readme);
  if (match?.[1] === undefined) throw new Error('README has no ```ts block');
  return match[1];
}

describe.skipIf(!npmAvailable)(
  'the publishing set, installed from its tarballs',
  { timeout: 300_000 },
  () => {
    let work = '';
    const tarballs = new Map<Published, string>();
    let fixture = '';
    let registry: LoopbackRegistry | undefined;

    /** A fresh npm project with only these tarballs installed (and their registry dependencies). */
    async function project(name: string, packages: readonly Published[]): Promise<string> {
      const dir = join(work, name);
      mkdirSync(dir);
      run('npm', ['init', '-y'], dir);
      const files = packages.map((p) => tarballs.get(p) ?? '');
      await npmInstall(files, dir, registry?.url ?? '', work);
      writeFileSync(join(dir, 'fixture.json'), fixture);
      symlinkSync(companyFactsDir, join(dir, 'companyfacts'), 'dir');
      // Nothing else of ours came along, and nothing points back into the workspace.
      const ours = readdirSync(join(dir, 'node_modules', '@svc')).map((p) => `@svc/${p}`);
      expect(ours.sort()).toEqual([...packages].sort());
      for (const p of ours) {
        const manifest = readFileSync(join(dir, 'node_modules', p, 'package.json'), 'utf8');
        expect(manifest, p).not.toMatch(/workspace:|catalog:/);
      }
      // Every third-party package came from the loopback registry, none from anywhere else.
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { resolved?: string }>;
      };
      const fetched = Object.entries(lock.packages).filter(([at]) => !at.includes('@svc/'));
      expect(fetched.length).toBeGreaterThan(1);
      for (const [at, { resolved }] of fetched.slice(1)) {
        // An entry npm records without `resolved` (seen once under load in CI: a package it
        // took from its fresh cache) names no source at all; one that names a source must name
        // the loopback registry.
        if (resolved === undefined) continue;
        expect(resolved, at).toMatch(new RegExp(`^${registry?.url ?? '-'}-/tarballs/`));
      }
      return dir;
    }

    beforeAll(async () => {
      run('pnpm', ['run', 'build'], packageDir);
      work = mkdtempSync(join(tmpdir(), 'svc-pack-'));
      for (const [name, folder] of Object.entries(PUBLISHING_SET) as [Published, string][]) {
        const dir = join(packagesDir, folder);
        if (!existsSync(join(dir, 'dist', 'index.js'))) run('pnpm', ['run', 'build'], dir);
        const before = new Set(readdirSync(work));
        run('pnpm', ['pack', '--pack-destination', work], dir);
        const [tarball] = readdirSync(work).filter((f) => f.endsWith('.tgz') && !before.has(f));
        expect(tarball, name).toBeDefined();
        tarballs.set(name, join(work, tarball ?? ''));
      }
      const registryDir = join(work, 'registry');
      mkdirSync(registryDir);
      registry = await startLoopbackRegistry({
        starts: Object.values(PUBLISHING_SET).map((folder) => join(packagesDir, folder)),
        skip: (name) => name in PUBLISHING_SET,
        tarballDir: registryDir,
      });
      fixture = JSON.stringify(
        makeFundamentals({ startYear: 2015, ticker: 'PACK', columns: compounderColumns() }),
      );
    }, 180_000);

    afterAll(async () => {
      await registry?.close();
      if (work !== '') rmSync(work, { recursive: true, force: true });
    }, 60_000);

    it('packs only public packages whose @svc dependencies are in the set', () => {
      for (const folder of Object.values(PUBLISHING_SET)) {
        const manifest = JSON.parse(
          readFileSync(join(packagesDir, folder, 'package.json'), 'utf8'),
        );
        expect(manifest.private, folder).toBeUndefined();
        expect(manifest.publishConfig?.access, folder).toBe('restricted');
        const ours = Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith('@svc/'));
        for (const dependency of ours) expect(Object.keys(PUBLISHING_SET)).toContain(dependency);
      }
    });

    describe('@svc/moat-scoring with @svc/schemas', () => {
      let dir = '';
      beforeAll(async () => {
        dir = await project('moat-scoring', ['@svc/schemas', '@svc/moat-scoring']);
      }, 120_000);

      it('imports from ESM (.mjs)', () => {
        const out = node(dir, 'check.mjs', MOAT_ESM);
        expect(out).toMatchObject({
          max: 100,
          verdict: 'Strong Durable Competitive Advantage',
          n: 8,
        });
        expect((out as { total: number }).total).toBeGreaterThan(70);
      });

      it('requires from CJS (.cjs), including the error class and its path', () => {
        expect(node(dir, 'check.cjs', MOAT_CJS)).toMatchObject({
          max: 100,
          verdict: 'Strong Durable Competitive Advantage',
          short: ['insufficient_data', null],
          malformed: ['invalid_argument', 'fundamentals.years'],
        });
      });

      it('type-checks with tsc --strict from ESM and CJS, and rejects a wrong call', () => {
        const ok = typecheck(dir, { 'typed.mts': MOAT_TYPED, 'typed.cts': MOAT_TYPED_CJS });
        expect(ok.stdout).toBe('');
        expect(ok.status).toBe(0);
        const wrong = typecheck(dir, { 'wrong.mts': MOAT_WRONG });
        expect(wrong.status).not.toBe(0);
        expect(wrong.stdout).toContain("Argument of type 'number' is not assignable");
      });
    });

    describe('@svc/valuation with @svc/schemas', () => {
      let dir = '';
      beforeAll(async () => {
        dir = await project('valuation', ['@svc/schemas', '@svc/valuation']);
      }, 120_000);

      it('imports from ESM (.mjs)', () => {
        const out = node(dir, 'check.mjs', VALUATION_ESM) as { pe: number };
        expect(out).toMatchObject({ ok: true, trigger: 40 });
        expect(out.pe).toBeGreaterThan(0);
      });

      it('requires from CJS (.cjs), including the error class', () => {
        expect(node(dir, 'check.cjs', VALUATION_CJS)).toEqual({
          pe: null,
          notes: true,
          code: 'invalid_input',
        });
      });

      it('type-checks with tsc --strict from ESM and CJS', () => {
        const ok = typecheck(dir, {
          'typed.mts': VALUATION_TYPED,
          'typed.cts': VALUATION_TYPED_CJS,
        });
        expect(ok.stdout).toBe('');
        expect(ok.status).toBe(0);
      });
    });

    describe('@svc/fundamentals-client with @svc/schemas', () => {
      let dir = '';
      beforeAll(async () => {
        dir = await project('fundamentals-client', ['@svc/schemas', '@svc/fundamentals-client']);
      }, 120_000);

      it('imports from ESM (.mjs) and reads a real SEC snapshot', () => {
        expect(node(dir, 'check.mjs', CLIENT_ESM)).toEqual({
          ticker: 'AAPL',
          ok: true,
          year: 2025,
          eps: 7.46, // Apple's 10-K for FY2025 (accession 0000320193-25-000079)
        });
      });

      it('requires from CJS (.cjs), including the error class', () => {
        expect(node(dir, 'check.cjs', CLIENT_CJS)).toEqual({
          name: 'Apple Inc.',
          years: true,
          code: 'invalid_symbol',
        });
      });

      it('type-checks with tsc --strict from ESM and CJS', () => {
        const ok = typecheck(dir, { 'typed.mts': CLIENT_TYPED, 'typed.cts': CLIENT_TYPED_CJS });
        expect(ok.stdout).toBe('');
        expect(ok.status).toBe(0);
      });
    });

    describe('the whole set: the README example, end to end', () => {
      let dir = '';
      beforeAll(async () => {
        dir = await project('readme', Object.keys(PUBLISHING_SET) as Published[]);
        writeFileSync(join(dir, 'example.mts'), readmeExample());
      }, 120_000);

      it('runs as written and prints what the README says it prints', () => {
        writeFileSync(join(dir, 'example.mjs'), readmeExample());
        // The line the README shows under its console.log, e.g. `// AAPL 92.28 / 100 Strong …`.
        const promised = /console\.log\([^\n]*\n\s*\/\/ (AAPL [^\n]+)/.exec(readmeExample())?.[1];
        expect(promised).toMatch(/^AAPL \d+(\.\d+)? \/ 100 /);
        expect(run('node', ['example.mjs'], dir).trim()).toBe(promised);
      });

      it('type-checks with tsc --strict', () => {
        const ok = typecheck(dir, { 'example.mts': readmeExample() });
        expect(ok.stdout).toBe('');
        expect(ok.status).toBe(0);
      });
    });
  },
);

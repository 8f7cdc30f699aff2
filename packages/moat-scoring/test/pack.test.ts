/**
 * Packs @svc/schemas and @svc/moat-scoring with pnpm (which rewrites `workspace:*` and `catalog:`
 * to real versions), installs both tarballs into a plain npm project (zod from the registry) and
 * checks that ESM `import`, CJS `require` and `tsc` (NodeNext) all work from the published shape.
 *
 * Build: `beforeAll` runs `pnpm run build` in this package; `@svc/schemas` is built only when its
 * `dist` is missing (rebuilding it would clean the `dist` that parallel test runs of other
 * packages read). Through turbo, `packages/moat-scoring/turbo.json` makes `test` depend on `build`
 * as well as `^build`, so both are fresh.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compounderColumns, makeFundamentals } from './fixtures.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemasDir = join(packageDir, '..', 'schemas');
const npmAvailable = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;
if (!npmAvailable) console.warn('pack test skipped: npm is not available on PATH');

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const ESM = `import { readFileSync } from 'node:fs';
import { evaluateMoat, verdictFor, CRITERIA } from '@svc/moat-scoring';
const f = JSON.parse(readFileSync('fixture.json', 'utf8'));
const e = evaluateMoat(f, { evaluatedAt: '2026-01-01T00:00:00Z' });
console.log(JSON.stringify({ total: e.totalScore, max: e.maxScore, verdict: e.verdict, n: CRITERIA.length, v: verdictFor(70, 100) }));
`;
const CJS = `const { readFileSync } = require('node:fs');
const { evaluateMoat, MoatScoringError } = require('@svc/moat-scoring');
const f = JSON.parse(readFileSync('fixture.json', 'utf8'));
const e = evaluateMoat(f);
let code = null;
try { evaluateMoat({ ...f, years: f.years.slice(0, 2) }); } catch (err) { code = err instanceof MoatScoringError ? err.code : 'other'; }
console.log(JSON.stringify({ total: e.totalScore, max: e.maxScore, verdict: e.verdict, code }));
`;
const TYPED = `import { evaluateMoat, type EvaluateMoatOptions, type MoatEvaluationResult, MoatScoringError } from '@svc/moat-scoring';
import type { Fundamentals, Verdict } from '@svc/schemas';
export function score(f: Fundamentals): Verdict {
  const options: EvaluateMoatOptions = { windowYears: 10, evaluatedAt: '2026-01-01T00:00:00Z' };
  const e: MoatEvaluationResult = evaluateMoat(f, options);
  const code: 'insufficient_data' | 'invalid_argument' = new MoatScoringError('insufficient_data', 'x').code;
  return code === 'insufficient_data' ? e.verdict : e.verdict;
}
`;
const TYPED_CJS = `import moat = require('@svc/moat-scoring');
export const max: number = moat.evaluateMoat({} as import('@svc/schemas').Fundamentals).maxScore;
`;
const WRONG = `import { evaluateMoat } from '@svc/moat-scoring';
export const bad = evaluateMoat(42);
`;

describe.skipIf(!npmAvailable)('packed package in a plain Node project', () => {
  let work = '';
  let project = '';

  beforeAll(() => {
    run('pnpm', ['run', 'build'], packageDir);
    if (!existsSync(join(schemasDir, 'dist', 'index.js')))
      run('pnpm', ['run', 'build'], schemasDir);
    work = mkdtempSync(join(tmpdir(), 'moat-pack-'));
    project = join(work, 'project');
    mkdirSync(project);
    run('pnpm', ['pack', '--pack-destination', work], schemasDir);
    run('pnpm', ['pack', '--pack-destination', work], packageDir);
    const tarballs = readdirSync(work)
      .filter((f) => f.endsWith('.tgz'))
      .map((f) => join(work, f));
    expect(tarballs).toHaveLength(2);
    run('npm', ['init', '-y'], project);
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], project);
    const fixture = makeFundamentals({
      startYear: 2015,
      ticker: 'PACK',
      columns: compounderColumns(),
    });
    writeFileSync(join(project, 'fixture.json'), JSON.stringify(fixture));
  }, 120_000);

  afterAll(() => {
    if (work !== '') rmSync(work, { recursive: true, force: true });
  });

  it('imports from ESM (.mjs)', () => {
    writeFileSync(join(project, 'check.mjs'), ESM);
    const out = JSON.parse(run('node', ['check.mjs'], project));
    expect(out).toMatchObject({ max: 100, verdict: 'Strong Durable Competitive Advantage', n: 8 });
    expect(out.v).toBe('Strong Durable Competitive Advantage');
    expect(out.total).toBeGreaterThan(70);
  }, 120_000);

  it('requires from CJS (.cjs), including the error class', () => {
    writeFileSync(join(project, 'check.cjs'), CJS);
    const out = JSON.parse(run('node', ['check.cjs'], project));
    expect(out).toMatchObject({
      max: 100,
      verdict: 'Strong Durable Competitive Advantage',
      code: 'insufficient_data',
    });
  }, 120_000);

  it('type-checks with tsc (NodeNext) from ESM and CJS, and rejects a wrong call', () => {
    const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
    const tsconfig = (files: string[]) =>
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          types: [],
          skipLibCheck: false,
        },
        files,
      });
    writeFileSync(join(project, 'typed.mts'), TYPED);
    writeFileSync(join(project, 'typed.cts'), TYPED_CJS);
    writeFileSync(join(project, 'tsconfig.json'), tsconfig(['typed.mts', 'typed.cts']));
    expect(run('node', [tsc, '-p', 'tsconfig.json'], project)).toBe('');
    writeFileSync(join(project, 'wrong.mts'), WRONG);
    writeFileSync(join(project, 'tsconfig.wrong.json'), tsconfig(['wrong.mts']));
    const wrong = spawnSync('node', [tsc, '-p', 'tsconfig.wrong.json'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toContain("Argument of type 'number' is not assignable");
  }, 120_000);
});

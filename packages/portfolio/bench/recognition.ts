/**
 * CPU figures of format recognition (printed, not asserted): `recogniseAll` (every catalogue entry)
 * on each catalogue fixture, and on files of growing size (the Scalable Capital fixture's rows
 * repeated), to show recognition cost does not grow with file size × entries. Run with
 * `pnpm --filter @svc/portfolio bench` (with the other benches) or
 * `pnpm --filter @svc/portfolio exec tsx bench/recognition.ts`.
 */
import { performance } from 'node:perf_hooks';
import { CATALOGUE, recogniseAll } from '../src/import/definitions/catalogue/index.js';
import { FIXTURES } from '../test/catalogue/fixtures.js';

function time(label: string, runs: number, work: () => void): void {
  work(); // warm-up
  const start = performance.now();
  for (let i = 0; i < runs; i++) work();
  const perRun = (performance.now() - start) / runs;
  console.log(`${label.padEnd(48)} ${perRun.toFixed(3).padStart(10)} ms/run`);
}

console.log(`${CATALOGUE.length} catalogue entries`);
const fixtures = Object.values(FIXTURES).map((f) => f.text);
time(`recogniseAll over ${fixtures.length} fixtures`, 20, () => {
  for (const text of fixtures) recogniseAll(text);
});

const base = FIXTURES['scalable-capital']?.text ?? '';
const [header, ...rows] = base.split('\n');
for (const count of [1_000, 10_000, 100_000]) {
  const body = Array.from({ length: Math.ceil(count / rows.length) }, () => rows.join('\n'));
  const text = `${header}\n${body.join('\n')}`;
  const size = `${(text.length / 1e6).toFixed(1)} MB`;
  time(`recogniseAll, ${count} rows (${size})`, 5, () => recogniseAll(text));
}

#!/usr/bin/env node
/**
 * The closing line of `bash scripts/run.sh test`, read from the output of `pnpm test` (turbo,
 * one vitest per package):
 *
 *   node scripts/test-summary.mjs <log file> <exit status of pnpm test>
 *
 * Sums every package's vitest summary — `Test Files  1 failed | 30 passed (31)`,
 * `Tests  12 passed | 1 skipped (13)`, `Errors  1 error` — and prints
 *
 *   tests: 1204 passed, 0 failed, 3 skipped; test files: 0 failed of 212; errors: 0
 *
 * A test file that failed to run at all (an import error, a hook's timeout) counts as a failed
 * file even when none of its tests is counted as failed. When `pnpm test` exited non-zero and no
 * count above explains it (a build or a task that never reached vitest), the line says so and
 * names turbo's failed tasks; it never reads as a clean run. Exits with the status the run earned:
 * the given one, or 1 when it was 0 but a failure was counted.
 */
import { readFileSync } from 'node:fs';

const [file, statusText = '0'] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node scripts/test-summary.mjs <log file> <exit status>');
  process.exit(2);
}
const status = Number(statusText);
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes in the log
const log = readFileSync(file, 'utf8').replace(/\x1b\[[0-9;]*m/g, '');
const lines = log.split('\n');

/** Sums `<n> <word>` over the vitest summary lines whose label (after turbo's prefix) is `label`. */
function sum(label, word) {
  const pattern = new RegExp(`:test:\\s+${label}\\s+(.*)$`);
  let total = 0;
  for (const line of lines) {
    const rest = pattern.exec(line)?.[1];
    if (rest === undefined) continue;
    for (const match of rest.matchAll(/(\d+) ([a-z]+)/g)) {
      if (match[2] === word) total += Number(match[1]);
    }
  }
  return total;
}
/** Sums the `(<n>)` totals of the summary lines labelled `label`. */
function totalOf(label) {
  const pattern = new RegExp(`:test:\\s+${label}\\s+.*\\((\\d+)\\)\\s*$`);
  return lines.reduce((total, line) => total + Number(pattern.exec(line)?.[1] ?? 0), 0);
}

const passed = sum('Tests', 'passed');
const failed = sum('Tests', 'failed');
const skipped = sum('Tests', 'skipped');
const filesFailed = sum('Test Files', 'failed');
const files = totalOf('Test Files');
const errors = sum('Errors', 'error') + sum('Errors', 'errors');
// turbo's closing block names the tasks that exited non-zero: `Failed:    @svc/x#test`.
const failedTasks = lines
  .map((line) => /^\s*Failed:\s+(.+)$/.exec(line)?.[1]?.trim())
  .filter((task) => task !== undefined);

let line = `tests: ${passed} passed, ${failed} failed, ${skipped} skipped; test files: ${filesFailed} failed of ${files}; errors: ${errors}`;
const counted = failed + filesFailed + errors;
if (status !== 0) {
  const tasks = failedTasks.length > 0 ? failedTasks.join(', ') : 'no task named';
  line +=
    counted > 0
      ? ` — FAILED (exit ${status}; ${tasks})`
      : ` — FAILED (exit ${status}) outside the counted tests: ${tasks}`;
} else if (counted > 0) {
  line += ' — FAILED (failures counted although pnpm test exited 0)';
}
console.log(line);
process.exit(status !== 0 ? status : counted > 0 ? 1 : 0);

import { describe, expect, it } from 'vitest';
import { settleWithin } from './settle-within.js';

describe('settleWithin (a close step bounded by its share of the grace)', () => {
  it('gives up on a step that never settles after its time, reporting it, and does not throw', async () => {
    const reports: string[] = [];
    const started = Date.now();
    await settleWithin(new Promise(() => {}), 50, (problem) => reports.push(problem));
    expect(reports).toEqual(['did not finish within 50 ms']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('reports a step that fails with its message instead of throwing', async () => {
    const reports: string[] = [];
    await settleWithin(Promise.reject(new Error('pool ended twice')), 1_000, (p) =>
      reports.push(p),
    );
    expect(reports).toEqual(['failed: pool ended twice']);
  });

  it('waits for a step that finishes in time and reports nothing', async () => {
    const reports: string[] = [];
    let done = false;
    const work = new Promise<void>((resolve) =>
      setTimeout(() => {
        done = true;
        resolve();
      }, 20),
    );
    await settleWithin(work, 1_000, (p) => reports.push(p));
    expect(done).toBe(true);
    expect(reports).toEqual([]);
  });

  it('does nothing for a step that is not there (no background work in this process)', async () => {
    const reports: string[] = [];
    await settleWithin(undefined, 0, (p) => reports.push(p));
    expect(reports).toEqual([]);
  });
});

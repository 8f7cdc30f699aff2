import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.js';

/** A write that records its batches and finishes when `release` is called. */
function gatedWrite(fail: (items: number[]) => boolean = () => false) {
  const batches: number[][] = [];
  const gates: (() => void)[] = [];
  const write = (items: number[]) => {
    batches.push([...items]);
    return new Promise<void>((resolve, reject) => {
      gates.push(() => (fail(items) ? reject(new Error(`refused ${items.join(',')}`)) : resolve()));
    });
  };
  const release = async () => {
    while (gates.length > 0) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { batches, write, release };
}

describe('groupCommit', () => {
  it('writes a lone item at once and resolves when it is written', async () => {
    const { batches, write, release } = gatedWrite();
    const add = groupCommit(write);
    let done = false;
    const added = add(1).then(() => {
      done = true;
    });
    expect(batches).toEqual([[1]]);
    await Promise.resolve();
    expect(done).toBe(false);
    await release();
    await added;
    expect(done).toBe(true);
  });

  it('writes the items added during a write together in the next one, up to maxBatch', async () => {
    const { batches, write, release } = gatedWrite();
    const add = groupCommit(write, 3);
    const all = [1, 2, 3, 4, 5, 6].map((n) => add(n));
    expect(batches).toEqual([[1]]);
    await release();
    await Promise.all(all);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
    // idle again: the next item is written alone, at once
    const next = add(7);
    expect(batches.at(-1)).toEqual([7]);
    await release();
    await next;
  });

  it('fails only the refused item of a batch, writing the others alone', async () => {
    const { batches, write, release } = gatedWrite((items) => items.includes(3));
    const add = groupCommit(write);
    const first = add(1);
    const settled = Promise.allSettled([add(2), add(3), add(4)]);
    await release();
    await first;
    const outcomes = await settled;
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('refused 3'));
    expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('rejects a lone item with its own error and keeps working', async () => {
    const add = groupCommit(async (items: number[]) => {
      if (items.includes(0)) throw new Error('zero');
    });
    await expect(add(0)).rejects.toThrow('zero');
    await expect(add(1)).resolves.toBeUndefined();
  });
});

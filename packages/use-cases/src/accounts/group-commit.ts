/** Largest number of items {@link groupCommit} writes in one call of `write`. */
export const GROUP_COMMIT_MAX_BATCH = 100;

interface Waiting<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit (as a database does with concurrent commits): `add(item)` resolves once `item` is
 * written by `write`. When no write is in flight, the item is written at once, alone, so an idle
 * service adds no delay; items added while a write is in flight wait for it and are then written
 * together, up to `maxBatch` a call, one write at a time. Under load a statement so carries many
 * rows, and its cost per row falls as the load grows.
 *
 * When a batch of several items fails, each of its items is written again alone, so one bad item
 * (a constraint it breaks) fails only its own `add`; the error of a lone item is its `add`'s.
 *
 * @example
 * const record = groupCommit((rows) => repos.tokenActivity.recordMany(rows));
 * await record(row); // the row is written
 */
export function groupCommit<T>(
  write: (items: T[]) => Promise<void>,
  maxBatch = GROUP_COMMIT_MAX_BATCH,
): (item: T) => Promise<void> {
  const queue: Waiting<T>[] = [];
  let writing = false;

  const writeEach = async (batch: Waiting<T>[]) => {
    for (const waiting of batch) {
      try {
        await write([waiting.item]);
        waiting.resolve();
      } catch (error) {
        waiting.reject(error);
      }
    }
  };

  const drain = async () => {
    writing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, maxBatch);
        try {
          await write(batch.map((waiting) => waiting.item));
          for (const waiting of batch) waiting.resolve();
        } catch (error) {
          if (batch.length === 1) batch[0]?.reject(error);
          else await writeEach(batch);
        }
      }
    } finally {
      writing = false;
    }
  };

  return (item) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!writing) void drain();
    });
}

import type { PortfolioVersions } from '@svc/portfolio-store';
import { LRUCache } from 'lru-cache';
import { freezeAnswer } from '../frozen.js';

/**
 * Default bound of the memo of finished reads, in estimated bytes ({@link READ_MEMO_ITEM_BYTES}
 * per listed record): about 21,000 holdings or transactions, e.g. 600 portfolios of 34 holdings,
 * or 6 of 3,400.
 */
export const READ_MEMO_BYTES = 32 * 1024 * 1024;

/**
 * Estimated bytes of one listed record (a holding, a cash position or a transaction) while its
 * answer is memoised: the frozen object with its strings (~1 kB) and the JSON text a REST
 * serializer keeps beside it (`mapperAnswers` of `@svc/service`, ~450 bytes for a holding).
 */
export const READ_MEMO_ITEM_BYTES = 1_536;

/** A memoised answer and the versions of the rows it was read from. */
interface Entry {
  readonly version: string;
  readonly answer: object;
}

/**
 * A memo of finished answers of the stored reads (holdings, cash, a transactions page); see
 * {@link createReadMemo}.
 */
export interface ReadMemo {
  /**
   * The answer memoised under `key` when it was read at `version`; otherwise `read()`'s answer,
   * deep-frozen and memoised under `key` at `version` (replacing an older one). A failed read is
   * not memoised. `items` tells the answer's number of records, for the memo's size bound.
   *
   * `version` must have been read from the database before `read()` runs: the rows `read()`
   * sees are then never older than the version they are kept under.
   */
  serve<T extends object>(
    key: string,
    version: string,
    read: () => Promise<T>,
    items: (answer: T) => number,
  ): Promise<T>;
}

/**
 * The memo of finished reads of the portfolio flows: an LRU of answers, keyed by what the caller
 * asked (user, portfolio or all of them, query), each kept with the version of the rows it shows
 * (`portfolios.ledger_version`, `portfolios.positions_version`, see {@link versionStamp}). The
 * caller reads the current version on every request (one small query, which is also the
 * ownership check) and gets the memoised answer only while it is unchanged: the counters are
 * bumped by triggers in the transaction of every write of those rows, from any process or
 * statement, so a write is seen by the next request, never later.
 *
 * Answers are deep-frozen: every caller gets the same object, which nobody may change (a REST
 * serializer may so keep its JSON text per object). `maxBytes` bounds the memo in estimated
 * bytes ({@link READ_MEMO_ITEM_BYTES} per record); 0 turns it off (every call reads).
 *
 * @example
 * const memo = createReadMemo(READ_MEMO_BYTES);
 * const holdings = await memo.serve(`holdings ${userId} ${id}`, version, readHoldings, (h) => h.length);
 */
export function createReadMemo(maxBytes: number = READ_MEMO_BYTES): ReadMemo {
  if (maxBytes <= 0) {
    return { serve: async (_key, _version, read) => freezeAnswer(await read()) };
  }
  const entries = new LRUCache<string, Entry>({ maxSize: maxBytes });
  return {
    async serve(key, version, read, items) {
      const known = entries.get(key);
      if (known !== undefined && known.version === version) {
        return known.answer as Awaited<ReturnType<typeof read>>;
      }
      const answer = freezeAnswer(await read());
      const size = version.length + 256 + items(answer) * READ_MEMO_ITEM_BYTES;
      if (size <= maxBytes) entries.set(key, { version, answer }, { size });
      return answer;
    },
  };
}

/**
 * The version text of a read over `portfolios` (as `PortfoliosRepository.versions` answers
 * them): `id:version` of each, joined by spaces. For one portfolio it changes when its counter
 * does; for all of a user's portfolios also when one is created or deleted.
 */
export function versionStamp(
  portfolios: readonly PortfolioVersions[],
  counter: 'ledgerVersion' | 'positionsVersion',
): string {
  let stamp = '';
  for (const portfolio of portfolios) {
    stamp += `${stamp === '' ? '' : ' '}${portfolio.id}:${portfolio[counter]}`;
  }
  return stamp;
}

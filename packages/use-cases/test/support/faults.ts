import type { Executor } from '@svc/portfolio-store';

/** What a fault is told about the statement about to run. */
export interface StatementInfo {
  /** 1-based number of the statement run through this executor. */
  readonly index: number;
  /** The query node's kind (`InsertQueryNode`, `SelectQueryNode`, `RawNode`, …). */
  readonly kind: string;
  /** The table an insert writes to, when it is one. */
  readonly into?: string;
}

/** The error a fault throws. */
export class InjectedFault extends Error {
  constructor(info: StatementInfo) {
    super(`injected fault before statement ${info.index} (${info.into ?? info.kind})`);
  }
}

/**
 * `db` with a Kysely plugin that throws {@link InjectedFault} instead of running a statement for
 * which `fails` is true: a fault between two statements of a unit of work (the statement is
 * never sent; the transaction around it rolls back). `statements()` counts what ran or was refused.
 */
export function withFault(db: Executor, fails: (statement: StatementInfo) => boolean) {
  let index = 0;
  const faulty = db.withPlugin({
    transformQuery({ node }) {
      index += 1;
      const into = (node as { into?: { table?: { identifier?: { name?: string } } } }).into?.table
        ?.identifier?.name;
      const info: StatementInfo = { index, kind: node.kind, ...(into ? { into } : {}) };
      if (fails(info)) throw new InjectedFault(info);
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  });
  return { db: faulty, statements: () => index };
}

import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Most statement texts that are ever run as named prepared statements. Each PostgreSQL connection
 * keeps a plan for every name it has prepared, for as long as it lives, so the set must be
 * bounded: texts registered past this run as before (unnamed: parsed and planned every time).
 */
export const MAX_PREPARED_STATEMENTS = 128;

const names = new Map<string, string>();

/**
 * Registers a statement text (as Kysely compiles it, with `$1…` placeholders) to run as a named
 * prepared statement on PostgreSQL, so each connection parses and plans it once and then reuses
 * the plan (PostgreSQL's plan cache: a generic plan after five custom ones when it costs no more;
 * PostgreSQL manual, PREPARE). Meant for hot read statements whose planning costs as much as
 * their execution: the screener's page over the evaluation cache plans among a dozen indexes for
 * about as long as it runs (pgbench at 20 connections: 3,400 statements/s unnamed, 6,300 named).
 * Only registered texts are named, never every statement: a bounded set of texts whose result
 * columns are listed (not `select *`, whose row type a later migration could change under a
 * cached plan). No effect on the embedded database (PGlite) or once
 * {@link MAX_PREPARED_STATEMENTS} texts are registered.
 *
 * @returns the statement's name (`svc_` + 16 hex digits of the text's SHA-256), or `undefined`
 *   when the registry is full.
 */
export function prepareStatement(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= MAX_PREPARED_STATEMENTS) return known;
  const name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  names.set(text, name);
  return name;
}

/**
 * The node-postgres client of the store's pool: a query given as text (how Kysely's driver calls
 * it) whose text was registered with {@link prepareStatement} runs as that named statement;
 * everything else is passed through unchanged.
 */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() is overloaded; the override forwards every form.
  override query(...args: any[]): any {
    const [text, values] = args;
    if (
      args.length <= 2 &&
      typeof text === 'string' &&
      (values === undefined || Array.isArray(values))
    ) {
      const name = names.get(text);
      if (name !== undefined) {
        return super.query({ name, text, values: values ?? [] });
      }
    }
    // biome-ignore lint/suspicious/noExplicitAny: forwarding the caller's own overload.
    return (super.query as any)(...args);
  }
}

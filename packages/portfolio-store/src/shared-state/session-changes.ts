import pg from 'pg';
import { SESSION_CHANGES_CHANNEL } from '../migrations/0006-shared-limits-and-session-notify.js';

/** A session that ended (`session`: revoked or deleted) or a user whose sessions changed (`user`: plan changed, deleted). */
export interface SessionChange {
  readonly kind: 'session' | 'user';
  /** The session's or the user's id (UUID). */
  readonly id: string;
}

/** Options of {@link listenForSessionChanges}. */
export interface SessionChangesOptions {
  /** The PostgreSQL server the triggers of migration 0006 run on. */
  readonly databaseUrl: string;
  /** Called for every change announced by any process. */
  readonly onChange: (change: SessionChange) => void;
  /**
   * Called with `true` once `LISTEN` is in place and with `false` when the connection is lost.
   * While not listening, changes may be missed: a memo of sessions must not be trusted then.
   */
  readonly onListening?: (listening: boolean) => void;
  /** Receives connection errors (the listener reconnects by itself). */
  readonly onError?: (error: Error) => void;
  /** Milliseconds between reconnection attempts; default 1 000. */
  readonly retryMs?: number;
}

/** A running listener. */
export interface SessionChangesListener {
  /** Whether `LISTEN` is in place now. */
  readonly listening: boolean;
  /** Stops listening and closes the connection. */
  close(): Promise<void>;
}

/** Parses a payload of the session triggers (`session:<uuid>` or `user:<uuid>`). */
export function parseSessionChange(payload: string | undefined): SessionChange | undefined {
  const match = /^(session|user):([0-9a-f-]{36})$/i.exec(payload ?? '');
  if (!match?.[1] || !match[2]) return undefined;
  return { kind: match[1] === 'session' ? 'session' : 'user', id: match[2].toLowerCase() };
}

/**
 * Listens, on one dedicated connection, for the session changes that the triggers of migration
 * 0006 announce (`pg_notify` on {@link SESSION_CHANGES_CHANNEL}), from any process or from SQL
 * typed by an administrator. The connection is re-opened after a loss (PostgreSQL restart,
 * network), every `retryMs`; `onListening` tells when changes may have been missed. PostgreSQL
 * delivers a notification only after its transaction commits.
 *
 * @example
 * ```ts
 * const listener = listenForSessionChanges({
 *   databaseUrl,
 *   onChange: (change) => memo.forget(change),
 *   onListening: (on) => (on ? memo.resume() : memo.suspend()),
 * });
 * // on shutdown
 * await listener.close();
 * ```
 */
export function listenForSessionChanges(options: SessionChangesOptions): SessionChangesListener {
  const retryMs = options.retryMs ?? 1_000;
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const setListening = (value: boolean) => {
    if (listening === value) return;
    listening = value;
    options.onListening?.(value);
  };

  const lost = (current: pg.Client, error?: Error) => {
    if (client !== current) return;
    client = undefined;
    setListening(false);
    if (error) options.onError?.(error);
    current.removeAllListeners('notification');
    current.end().catch(() => undefined);
    if (!closed) timer = setTimeout(connect, retryMs);
  };

  async function connect(): Promise<void> {
    timer = undefined;
    if (closed) return;
    const current = new pg.Client({ connectionString: options.databaseUrl });
    client = current;
    current.on('error', (error) => lost(current, error));
    current.on('end', () => lost(current));
    current.on('notification', (message) => {
      if (message.channel !== SESSION_CHANGES_CHANNEL) return;
      const change = parseSessionChange(message.payload);
      if (change) options.onChange(change);
    });
    try {
      await current.connect();
      await current.query(`listen ${SESSION_CHANGES_CHANNEL}`);
      if (client === current && !closed) setListening(true);
    } catch (error) {
      lost(current, error instanceof Error ? error : new Error(String(error)));
    }
  }

  void connect();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = undefined;
      setListening(false);
      await current?.end().catch(() => undefined);
    },
  };
}

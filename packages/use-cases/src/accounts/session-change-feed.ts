import { listenForSessionChanges, type SessionChange } from '@svc/portfolio-store';

/** Subscribers of a {@link SessionChangeFeed}. */
export interface SessionChangeSubscriber {
  onChange(change: SessionChange): void;
  onListening(listening: boolean): void;
}

/** Session changes of every process, as announced by the database's triggers. */
export interface SessionChangeFeed {
  /** Whether changes are being received now (otherwise some may be missed). */
  readonly listening: boolean;
  /** Adds a subscriber; answers how to remove it. */
  subscribe(subscriber: SessionChangeSubscriber): () => void;
}

/** A {@link SessionChangeFeed} and how to stop it. */
export interface OpenedSessionChangeFeed {
  readonly feed: SessionChangeFeed;
  close(): Promise<void>;
}

/**
 * Listens on one connection for the session changes the database announces
 * (`listenForSessionChanges` of `@svc/portfolio-store`) and hands them to every subscriber (the
 * session memo of each app built on this runtime). Reconnects by itself after a loss.
 *
 * @example
 * const sessions = openSessionChangeFeed(config.databaseUrl, (error) => log.warn(error.message));
 * const app = await buildApp({ ...deps, sessionChanges: sessions.feed });
 */
export function openSessionChangeFeed(
  databaseUrl: string,
  onError: (error: Error) => void = () => {},
): OpenedSessionChangeFeed {
  const subscribers = new Set<SessionChangeSubscriber>();
  const listener = listenForSessionChanges({
    databaseUrl,
    onChange: (change) => {
      for (const subscriber of subscribers) subscriber.onChange(change);
    },
    onListening: (listening) => {
      for (const subscriber of subscribers) subscriber.onListening(listening);
    },
    onError,
  });
  return {
    feed: {
      get listening() {
        return listener.listening;
      },
      subscribe(subscriber) {
        subscribers.add(subscriber);
        return () => subscribers.delete(subscriber);
      },
    },
    close: () => listener.close(),
  };
}

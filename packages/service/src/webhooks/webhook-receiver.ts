import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a {@link startWebhookReceiver} receiver got. */
export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** The receiver's answer to a request for `path` (see {@link startWebhookReceiver}). */
function answer(path: string, flakyCalls: number, res: ServerResponse): void {
  if (path === '/ok') {
    res.writeHead(204).end();
  } else if (path === '/flaky') {
    res.writeHead(flakyCalls === 1 ? 500 : 204).end();
  } else if (path === '/gone') {
    res.writeHead(410).end();
  } else if (path === '/slow') {
    // never answers: the sender's timeout ends the attempt
  } else if (path === '/moved') {
    res.writeHead(302, { location: '/flaky' }).end();
  } else {
    res.writeHead(404).end();
  }
}

/**
 * A webhook receiver on loopback, for tests of delivery (`@svc/service/testing`): `/ok` answers
 * 204, `/flaky` fails (500) once and then answers 204, `/gone` answers 410, `/slow` never answers,
 * `/moved` redirects to `/flaky` (which a redirect must not reach), any other path 404. Every
 * request is kept in `received`, in order.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let flakyCalls = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body });
      flakyCalls += path === '/flaky' ? 1 : 0;
      answer(path, flakyCalls, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    /** `http://127.0.0.1:<port><path>`. */
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A receiver started by {@link startWebhookReceiver}. */
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

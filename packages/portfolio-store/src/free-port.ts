import { createServer } from 'node:net';

/**
 * Test-only: a free TCP port on 127.0.0.1 (asked of the OS with port 0, then released), for a
 * server a test starts itself. The one copy: `@svc/portfolio-store/testing` exports it and
 * `@svc/service/testing` passes it on to the apps' tests.
 */
export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookTransport, type HostLookup, refusedAddress } from './pinned-http.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
afterAll(() => hooks.close());

/** A resolver that knows only `hook.test` (a name the system resolver never resolves). */
function lookupOf(addresses: string[]) {
  const asked: string[] = [];
  const lookup: HostLookup = async (host) => {
    asked.push(host);
    if (host !== 'hook.test') throw new Error(`ENOTFOUND ${host}`);
    return addresses;
  };
  return { lookup, asked };
}

describe('refusedAddress', () => {
  it('lets only public unicast addresses through', () => {
    expect(refusedAddress('8.8.8.8')).toBeUndefined();
    expect(refusedAddress('2606:4700:4700::1111')).toBeUndefined();
    expect(refusedAddress('127.0.0.1')).toBe('loopback');
    expect(refusedAddress('::ffff:127.0.0.1')).toBe('loopback');
    expect(refusedAddress('10.1.2.3')).toBe('private');
    expect(refusedAddress('169.254.169.254')).toBe('linkLocal');
    expect(refusedAddress('::1')).toBe('loopback');
    expect(refusedAddress('0.0.0.0')).toBe('unspecified');
    expect(refusedAddress('example.com')).toBe('not an IP address');
  });
});

describe('createWebhookTransport', () => {
  it('refuses a host that does not resolve or resolves to a private address', async () => {
    const strict = createWebhookTransport({ allowPrivate: false, ...lookupOf(['10.0.0.7']) });
    expect(await strict.refusal(new URL('http://hook.test/x'))).toBe(
      'hook.test resolves to 10.0.0.7 (private); webhooks go to public addresses only (WEBHOOK_ALLOW_PRIVATE)',
    );
    expect(await strict.refusal(new URL('http://elsewhere.test/x'))).toBe(
      'elsewhere.test does not resolve',
    );
    expect(await strict.refusal(new URL('http://[::1]:8080/x'))).toContain('(loopback)');
    const none = createWebhookTransport({ allowPrivate: true, ...lookupOf([]) });
    expect(await none.refusal(new URL('http://hook.test/x'))).toBe('hook.test does not resolve');
    const open = createWebhookTransport({ allowPrivate: true, ...lookupOf(['10.0.0.7']) });
    expect(await open.refusal(new URL('http://hook.test/x'))).toBeUndefined();
  });

  it('connects only to the address it checked, resolving again on every post', async () => {
    const { lookup, asked } = lookupOf(['127.0.0.1']);
    const transport = createWebhookTransport({ allowPrivate: true, lookup });
    const url = new URL(`http://hook.test:${hooks.port}/ok`);
    const headers = { 'content-type': 'application/json', 'webhook-id': 'msg_1' };
    expect(await transport.post(url, headers, '{"a":1}', 5_000)).toEqual({
      status: 204,
      error: null,
    });
    expect(await transport.post(url, headers, '{"a":2}', 5_000)).toMatchObject({ status: 204 });
    expect(asked).toEqual(['hook.test', 'hook.test']);
    const [first] = hooks.received.filter((r) => r.path === '/ok');
    expect(first).toMatchObject({ body: '{"a":1}' });
    expect(first?.headers).toMatchObject({
      host: `hook.test:${hooks.port}`,
      'webhook-id': 'msg_1',
    });
  });

  it('does not connect to a refused address at delivery', async () => {
    const transport = createWebhookTransport({ allowPrivate: false });
    const before = hooks.received.length;
    const result = await transport.post(new URL(hooks.url('/ok')), {}, '{}', 5_000);
    expect(result).toEqual({
      status: null,
      error:
        'webhook url: 127.0.0.1 resolves to 127.0.0.1 (loopback); webhooks go to public addresses only (WEBHOOK_ALLOW_PRIVATE)',
    });
    expect(hooks.received.length).toBe(before);
  });

  it('follows no redirect and gives up on a silent endpoint', async () => {
    const transport = createWebhookTransport({ allowPrivate: true });
    const flakyBefore = hooks.received.filter((r) => r.path === '/flaky').length;
    expect(await transport.post(new URL(hooks.url('/moved')), {}, '{}', 5_000)).toEqual({
      status: 302,
      error: null,
    });
    expect(hooks.received.filter((r) => r.path === '/flaky').length).toBe(flakyBefore);
    expect(await transport.post(new URL(hooks.url('/slow')), {}, '{}', 200)).toEqual({
      status: null,
      error: 'no answer within 200 ms',
    });
  });
});

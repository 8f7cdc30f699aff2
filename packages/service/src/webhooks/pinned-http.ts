import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookPostResult, WebhookTransport } from '@svc/use-cases';
import ipaddr from 'ipaddr.js';

// The HTTP client webhooks leave by: the host resolved and checked on every call, the connection
// made only to the checked address (DNS pinning: a host that resolves differently between the
// check and the connection cannot redirect the request), no redirect followed. The flows of
// `@svc/use-cases` know only the `WebhookTransport` port.

/** Resolves a host name to its addresses (`dns.lookup` with `all: true` by default). */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver: every address `host` resolves to. */
export const systemLookup: HostLookup = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Why `address` may not receive webhooks (loopback, private, link-local, multicast, unspecified,
 * reserved, …: anything but a public unicast address, by the ranges of `ipaddr.js`), or undefined
 * when it may. IPv4-mapped IPv6 addresses are judged as the IPv4 address.
 */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : range;
}

/** Options of {@link createWebhookTransport}. */
export interface WebhookTransportOptions {
  /** `WEBHOOK_ALLOW_PRIVATE`: deliver to loopback, private or link-local addresses too. */
  readonly allowPrivate: boolean;
  /** Resolver; default {@link systemLookup}. */
  readonly lookup?: HostLookup;
}

/** The host's addresses when every one may receive webhooks, else why not. */
type HostCheck = { readonly addresses: string[] } | { readonly refusal: string };

async function checkHost(url: URL, options: Required<WebhookTransportOptions>): Promise<HostCheck> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await options.lookup(host);
  } catch {
    return { refusal: `${host} does not resolve` };
  }
  if (addresses.length === 0) return { refusal: `${host} does not resolve` };
  if (!options.allowPrivate) {
    for (const address of addresses) {
      const why = refusedAddress(address);
      if (why) {
        return {
          refusal: `${host} resolves to ${address} (${why}); webhooks go to public addresses only (WEBHOOK_ALLOW_PRIVATE)`,
        };
      }
    }
  }
  return { addresses };
}

/**
 * POSTs `body` to `url`, connecting only to `address` whatever the host resolves to now, never
 * following a redirect, within `timeoutMs` (connect to end of the answer, whose body is read and
 * dropped).
 */
export function postPinned(
  url: URL,
  address: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  timeoutMs: number,
): Promise<WebhookPostResult> {
  const family = address.includes(':') ? 6 : 4;
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else {
      callback(null, address, family);
    }
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: WebhookPostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinned,
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ status: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? null, error: null }));
      res.on('error', () => done({ status: res.statusCode ?? null, error: null }));
    });
    req.on('error', (error) => done({ status: null, error: error.message }));
    req.end(body);
  });
}

/**
 * The `WebhookTransport` of the service: `refusal` resolves the URL's host and refuses it when it
 * does not resolve or any address is not public (unless `allowPrivate`); `post` does that check
 * again on every call (a refused host answers `{ status: null, error: 'webhook url: <why>' }`
 * without a connection) and then {@link postPinned} to the first checked address.
 *
 * @example
 * const transport = createWebhookTransport({ allowPrivate: config.webhookAllowPrivate });
 * const dispatcher = createWebhookDispatcher({ webhooks: repos.webhooks, transport });
 */
export function createWebhookTransport(options: WebhookTransportOptions): WebhookTransport {
  const settings = { allowPrivate: options.allowPrivate, lookup: options.lookup ?? systemLookup };
  return {
    async refusal(url) {
      const checked = await checkHost(url, settings);
      return 'refusal' in checked ? checked.refusal : undefined;
    },
    async post(url, headers, body, timeoutMs) {
      const checked = await checkHost(url, settings);
      if ('refusal' in checked) return { status: null, error: `webhook url: ${checked.refusal}` };
      return postPinned(url, checked.addresses[0] as string, headers, body, timeoutMs);
    },
  };
}

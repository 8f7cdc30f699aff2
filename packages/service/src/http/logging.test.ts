import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { logSettingsOf, redactUrl, requestIdOf } from './logging.js';

const withHeader = (value: string | undefined) =>
  ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdOf', () => {
  it.each([
    ['abc-123', 'abc-123'],
    ['lb.7f3a:edge@eu_1', 'lb.7f3a:edge@eu_1'],
    ['x'.repeat(128), 'x'.repeat(128)],
  ])('keeps the well-formed id %s', (given, expected) => {
    expect(requestIdOf(withHeader(given))).toBe(expected);
  });
  it.each([[undefined], [''], ['x'.repeat(129)], ['with space'], ['quote"'], ['nl\nx'], ['ü']])(
    'replaces %j by a UUID',
    (given) => {
      expect(requestIdOf(withHeader(given))).toMatch(UUID);
    },
  );
});

describe('redactUrl', () => {
  it.each([
    [
      '/api/auth/oidc/callback?code=abc&state=xyz',
      '/api/auth/oidc/callback?code=[Redacted]&state=[Redacted]',
    ],
    ['/x?symbol=AAPL&token=svc_pat_1#f', '/x?symbol=AAPL&token=[Redacted]#f'],
    ['/x?API_KEY=1&barcode=2', '/x?API_KEY=[Redacted]&barcode=2'],
    ['/api/stock-evaluation?symbol=AAPL', '/api/stock-evaluation?symbol=AAPL'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('logSettingsOf', () => {
  it('reads LOG_LEVEL and LOG_FORMAT, falling back to info/auto on bad values', () => {
    expect(logSettingsOf({ LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty' })).toEqual({
      logLevel: 'debug',
      logFormat: 'pretty',
    });
    expect(logSettingsOf({ LOG_LEVEL: 'loud', LOG_FORMAT: 'xml' })).toEqual({
      logLevel: 'info',
      logFormat: 'auto',
    });
  });
});

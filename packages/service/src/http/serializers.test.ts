import { describe, expect, it } from 'vitest';
import { mapperAnswers } from './serializers.js';

/** A route's serializer as Fastify compiles it for a status. */
function serializerFor(httpStatus: string) {
  const checked = () => () => 'checked';
  return mapperAnswers(checked)({ schema: {}, method: 'GET', url: '/x', httpStatus });
}

/** What Fastify writes of a serializer's payload (a string, or bytes as they are). */
const written = (payload: unknown) =>
  Buffer.isBuffer(payload) ? payload.toString('utf8') : (payload as string);

/** A holding-like record whose serializations are counted (JSON.stringify calls `toJSON`). */
function counted(symbol: string) {
  const calls = { count: 0 };
  const record = {
    symbol,
    quantity: '1.5',
    toJSON() {
      calls.count += 1;
      return { symbol: this.symbol, quantity: this.quantity };
    },
  };
  return { record, calls };
}

describe('mapperAnswers', () => {
  it('writes a 2xx answer as JSON.stringify does, and leaves other statuses to the app', () => {
    const answer = [{ symbol: 'AAPL', name: 'Apple “Inc.” ≥', weight: null, stale: false }];
    expect(serializerFor('200')(answer)).toBe(JSON.stringify(answer));
    expect(written(serializerFor('201')(Object.freeze({ id: 'x' })))).toBe('{"id":"x"}');
    expect(serializerFor('404')({ code: 'not_found' })).toBe('checked');
  });

  it('serializes a frozen answer once and reuses its UTF-8 bytes, the same text', () => {
    const serialize = serializerFor('200');
    const { record, calls } = counted('Nestlé “N” ≥');
    const answer = Object.freeze([Object.freeze(record)]);
    const first = serialize(answer);
    expect(Buffer.isBuffer(first)).toBe(true);
    expect(written(first)).toBe(JSON.stringify(answer));
    expect(written(first)).toBe('[{"symbol":"Nestlé “N” ≥","quantity":"1.5"}]');
    expect(serialize(answer)).toBe(first);
    expect(serializerFor('200')(answer)).toBe(first);
    expect(calls.count).toBe(2); // the JSON.stringify of the expectation above, and one write
  });

  it('serializes an answer that is not frozen every time (it may have changed)', () => {
    const serialize = serializerFor('200');
    const { record, calls } = counted('AAPL');
    const answer = [record];
    expect(serialize(answer)).toBe('[{"symbol":"AAPL","quantity":"1.5"}]');
    record.quantity = '2';
    expect(serialize(answer)).toBe('[{"symbol":"AAPL","quantity":"2"}]');
    expect(calls.count).toBe(2);
  });
});

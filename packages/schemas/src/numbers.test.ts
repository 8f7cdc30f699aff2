import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { numberFromText } from './numbers.js';

describe('numberFromText', () => {
  const Page = numberFromText(z.number().int().min(1).default(1));

  it('reads query text and JSON numbers alike', () => {
    expect(Page.parse('2')).toBe(2);
    expect(Page.parse(3)).toBe(3);
    expect(Page.parse(undefined)).toBe(1);
    expect(numberFromText(z.number()).parse('-1.5e2')).toBe(-150);
  });

  it('refuses what JSON Schema `type: integer` refuses, where z.coerce would accept it', () => {
    for (const value of [null, true, false, '', ' ', 'abc', '1.5', 0, [], {}]) {
      expect(Page.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });

  it('states a number in its JSON Schema', () => {
    const schema = z.toJSONSchema(z.object({ page: Page }), { io: 'input' });
    expect(schema.properties?.page).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
  });
});

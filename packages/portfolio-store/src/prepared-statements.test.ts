import { describe, expect, it } from 'vitest';
import { MAX_PREPARED_STATEMENTS, prepareStatement } from './prepared-statements.js';

describe('prepareStatement', () => {
  it('names a text once, the same way every time, and stops at the bound', () => {
    const first = prepareStatement('select $1::int as a');
    expect(first).toMatch(/^svc_[0-9a-f]{16}$/);
    expect(prepareStatement('select $1::int as a')).toBe(first);
    expect(prepareStatement('select $1::int as b')).not.toBe(first);
    for (let i = 0; i < MAX_PREPARED_STATEMENTS; i += 1) prepareStatement(`select ${i}`);
    // full: a new text is not named (runs unnamed), known ones keep their names
    expect(prepareStatement('select $1::int as c')).toBeUndefined();
    expect(prepareStatement('select $1::int as a')).toBe(first);
  });
});

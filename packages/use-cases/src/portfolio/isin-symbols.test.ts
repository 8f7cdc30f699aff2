import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIsinTable, loadIsinTable } from './isin-symbols.js';

describe('ISIN → quote symbol tables', () => {
  it('answers the upper-cased symbol of a known ISIN and nothing for others', () => {
    const table = createIsinTable({ US17275R1023: 'csco' });
    expect(table.symbolOf('US17275R1023')).toBe('CSCO');
    expect(table.symbolOf('us17275r1023')).toBe('CSCO');
    expect(table.symbolOf('US9256521090')).toBeUndefined();
  });

  it('refuses a key that is not an ISIN, naming it', () => {
    expect(() => createIsinTable({ CSCO: 'CSCO' })).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        errors: [expect.objectContaining({ path: 'CSCO' })],
      }),
    );
  });

  it('loads ISIN_SYMBOLS_FILE, refusing what is not one JSON object', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'isin-'));
    try {
      const good = join(dir, 'isin.json');
      await writeFile(good, '{"US9256521090":"VICI"}');
      expect((await loadIsinTable(good)).symbolOf('US9256521090')).toBe('VICI');
      const list = join(dir, 'list.json');
      await writeFile(list, '["US9256521090"]');
      await expect(loadIsinTable(list)).rejects.toMatchObject({ code: 'validation_failed' });
      const broken = join(dir, 'broken.json');
      await writeFile(broken, '{"US9256521090":');
      await expect(loadIsinTable(broken)).rejects.toMatchObject({ code: 'validation_failed' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

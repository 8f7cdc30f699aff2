import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from './chunk-markdown.js';
import { NarrativeError } from './errors.js';

describe('chunkMarkdown', () => {
  it.each([
    { text: '', size: 5, chunks: [] },
    { text: 'abc', size: 5, chunks: ['abc'] },
    { text: '## A\nbody\n', size: 6, chunks: ['## A\n', 'body\n'] },
    { text: 'line one\nline two\n', size: 100, chunks: ['line one\nline two\n'] },
    { text: 'abcdefgh', size: 3, chunks: ['abc', 'def', 'gh'] },
    { text: 'ab\ncdefgh\n', size: 4, chunks: ['ab\n', 'cdef', 'gh\n'] },
    // '😀' is two UTF-16 code units: the cut moves before the pair instead of splitting it.
    { text: 'ab😀cd', size: 3, chunks: ['ab', '😀c', 'd'] },
  ])('splits $text at $size', ({ text, size, chunks }) => {
    expect(chunkMarkdown(text, size)).toEqual(chunks);
  });

  it('keeps every chunk within the size and joins back to the text', () => {
    const text = '# Title\n\n## Summary\n\nA long paragraph without breaks '.repeat(20);
    for (const size of [1, 2, 7, 16, 64, 1000]) {
      const chunks = chunkMarkdown(text, size);
      expect(chunks.join('')).toBe(text);
      for (const chunk of chunks) {
        expect(chunk.length).toBeGreaterThan(0);
        expect(chunk.length).toBeLessThanOrEqual(size);
      }
    }
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses size %s', (size) => {
    expect(() => chunkMarkdown('abc', size)).toThrow(NarrativeError);
    try {
      chunkMarkdown('abc', size);
    } catch (error) {
      expect((error as NarrativeError).code).toBe('invalid_argument');
    }
  });
});

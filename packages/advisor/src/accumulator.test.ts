import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToolArguments, ThinkFilter, ToolCallAccumulator } from './accumulator.js';

function accumulate(...deltas: unknown[]) {
  const acc = new ToolCallAccumulator();
  for (const delta of deltas) acc.add(delta);
  return acc.result.map((c) => ({ ...c }));
}

describe('ToolCallAccumulator', () => {
  it('joins fragments by index, any first index (a gateway numbering its call 1)', () => {
    expect(
      accumulate(
        [{ index: 1, id: 'a', type: 'function', function: { name: 'f', arguments: '' } }],
        [{ index: 1, function: { arguments: '{"pa' } }],
        [{ index: 1, function: { arguments: 'th":1}' } }],
      ),
    ).toEqual([{ id: 'a', name: 'f', arguments: '{"path":1}' }]);
  });

  it('keeps parallel calls apart by index, even interleaved', () => {
    expect(
      accumulate(
        [
          { index: 0, id: 'a', function: { name: 'f', arguments: '' } },
          { index: 1, id: 'b', function: { name: 'g', arguments: '' } },
        ],
        [{ index: 1, function: { arguments: '{"y":' } }],
        [{ index: 0, function: { arguments: '{"x":1}' } }],
        [{ index: 1, function: { arguments: '2}' } }],
      ),
    ).toEqual([
      { id: 'a', name: 'f', arguments: '{"x":1}' },
      { id: 'b', name: 'g', arguments: '{"y":2}' },
    ]);
  });

  it('without index: by id, then the last open call (Ollama, Gemini)', () => {
    expect(
      accumulate(
        [{ id: 'a', function: { name: 'f', arguments: '{"x"' } }],
        [{ function: { arguments: ':1}' } }],
        [{ id: 'b', function: { name: 'g', arguments: '{}' } }],
        [{ id: 'a', function: { arguments: '' } }],
      ),
    ).toEqual([
      { id: 'a', name: 'f', arguments: '{"x":1}' },
      { id: 'b', name: 'g', arguments: '{}' },
    ]);
  });

  it('numbers calls without ids, keeps object arguments and ignores junk', () => {
    expect(
      accumulate(
        'junk',
        [null, 3, { index: 0, function: { name: 'f', arguments: { a: 1 } } }],
        [{ index: 1, function: { name: 'g' } }],
      ),
    ).toEqual([
      { id: 'call_0', name: 'f', arguments: '{"a":1}' },
      { id: 'call_1', name: 'g', arguments: '' },
    ]);
  });

  it('rebuilds any argument text split anywhere, with or without index', () => {
    fc.assert(
      fc.property(
        fc.json(),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (json, cuts, withIndex) => {
          const points = [...new Set(cuts.map((c) => c % (json.length + 1)))].sort((a, b) => a - b);
          const pieces = [0, ...points, json.length]
            .slice(1)
            .map((end, i, all) => json.slice(i === 0 ? 0 : all[i - 1], end));
          const idx = withIndex ? { index: 0 } : {};
          const calls = accumulate(
            [{ ...idx, id: 'c', function: { name: 'f', arguments: '' } }],
            ...pieces.map((p) => [{ ...idx, function: { arguments: p } }]),
          );
          expect(calls).toEqual([{ id: 'c', name: 'f', arguments: json }]);
        },
      ),
    );
  });
});

describe('parseToolArguments', () => {
  it('reads empty arguments as {} and reports text that is not JSON', () => {
    expect(parseToolArguments('')).toEqual({ ok: true, value: {} });
    expect(parseToolArguments('  ')).toEqual({ ok: true, value: {} });
    expect(parseToolArguments('{"a":[1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(parseToolArguments('{"a":')).toMatchObject({ ok: false });
  });
});

describe('ThinkFilter', () => {
  function run(pieces: string[]) {
    const filter = new ThinkFilter();
    let text = '';
    let reasoning = '';
    for (const piece of [...pieces.map((p) => filter.push(p)), filter.flush()]) {
      text += piece.text;
      reasoning += piece.reasoning;
    }
    return { text, reasoning };
  }

  it('moves <think> blocks out of the text, tags split across deltas', () => {
    expect(run(['<thi', 'nk>plan', ' it</th', 'ink>Answer ', '<', 'b>x'])).toEqual({
      text: 'Answer <b>x',
      reasoning: 'plan it',
    });
  });

  it('never shows reasoning, wherever the delta boundaries fall', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.array(fc.nat(), { maxLength: 8 }), (a, b, cuts) => {
        fc.pre(!`${a}${b}`.includes('<'));
        const whole = `<think>${a}</think>${b}`;
        const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((x, y) => x - y);
        const bounds = [0, ...points, whole.length];
        const pieces = bounds.slice(1).map((end, i) => whole.slice(bounds[i], end));
        expect(run(pieces)).toEqual({ text: b, reasoning: a });
      }),
    );
  });

  it('keeps an unfinished think block as reasoning', () => {
    expect(run(['Hi <think>never closed'])).toEqual({ text: 'Hi ', reasoning: 'never closed' });
  });
});

import {
  DISCLAIMER_DE,
  ENGLISH_ONLY_NOTE,
  renderNarrativeTemplate,
  TEMPLATE_STRINGS,
} from '@svc/narrative';
import type { Criterion, MoatEvaluation } from '@svc/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { AdvisorError } from '../src/errors.js';
import { type NarrativeEvent, NarrativeEventSchema } from '../src/frames.js';
import { SUPPORTED_LANGUAGES } from '../src/languages.js';
import { narrativeFacts, streamNarrative } from '../src/narrative.js';
import { errorStep, textSteps, usageStep } from '../src/testing/chunks.js';
import { type FakeOpenAI, type FakeTurn, startFakeOpenAI } from '../src/testing/fake-openai.js';
import type { ModelEndpoint } from '../src/types.js';
import { MCD } from './fixtures/mcd.js';
import { endpointOf } from './support.js';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function serve(script: FakeTurn[]) {
  fake = await startFakeOpenAI({ script });
  return fake;
}

function criterion(
  key: Criterion['key'],
  name: string,
  status: Criterion['status'],
  value: string,
  score: number,
): Criterion {
  return { key, name, status, value, score, maxScore: 12.5 };
}

/** Hand-made: 3 of 4 scored criteria pass; ROIC 21.3% is the evaluation's own figure. */
const EVALUATION: MoatEvaluation = {
  symbol: 'ACME',
  companyName: 'Acme Corp',
  totalScore: 37.5,
  maxScore: 50,
  verdict: 'Strong Durable Competitive Advantage',
  criteria: [
    criterion(
      'return_on_invested_capital',
      'Return on invested capital',
      'pass',
      'Median ROIC 21.3% (9/10 yrs ≥ 15%)',
      12.5,
    ),
    criterion('gross_margin', 'Gross margin', 'pass', 'Median gross margin 38.2%', 12.5),
    criterion('net_margin', 'Net margin', 'pass', 'Median net margin 18.2%', 12.5),
    criterion('capex_efficiency', 'Capex', 'fail', 'Capex 61% of net income', 0),
  ],
  valuation: {
    peRatio: 24.46,
    forwardPE: null,
    pegRatio: 1.8,
    augmentedPayoutRatio: 88.1,
    sellTrigger: false,
  },
};

async function read(events: AsyncIterable<NarrativeEvent>) {
  const out: NarrativeEvent[] = [];
  for await (const event of events) {
    NarrativeEventSchema.parse(event);
    expect(['done', 'error']).not.toContain(out.at(-1)?.type);
    out.push(event);
  }
  const markdown = out.map((e) => (e.type === 'chunk' ? e.markdown : '')).join('');
  return { events: out, markdown, last: out.at(-1) };
}

function narrate(
  endpoint: ModelEndpoint | null,
  language?: string,
  signal = new AbortController().signal,
) {
  return streamNarrative({ endpoint, evaluation: EVALUATION, language, signal });
}

describe('streamNarrative without a model', () => {
  it('streams the English template, fully grounded', async () => {
    const { markdown, last } = await read(narrate(null));
    expect(markdown).toBe(renderNarrativeTemplate(EVALUATION));
    expect(last).toMatchObject({ type: 'done', model: 'offline', _grounding: { ungrounded: [] } });
    expect((last as { _grounding: { total: number } })._grounding.total).toBeGreaterThan(8);
  });

  it('streams the German template for de, and English with a note for other languages', async () => {
    const german = await read(narrate(null, 'de-DE'));
    expect(german.markdown).toContain('## Zusammenfassung');
    expect(german.markdown).toContain(DISCLAIMER_DE);
    expect(german.last).toMatchObject({ _grounding: { ungrounded: [] } });
    expect((german.last as { notes: string[] }).notes).not.toContain(ENGLISH_ONLY_NOTE);
    const japanese = await read(narrate(null, 'ja'));
    expect(japanese.markdown).toContain(ENGLISH_ONLY_NOTE);
    expect((japanese.last as { notes: string[] }).notes).toContain(ENGLISH_ONLY_NOTE);
  });

  it('streams the template in every supported language, each fully grounded (issue 41)', async () => {
    for (const language of Object.keys(SUPPORTED_LANGUAGES)) {
      for (const evaluation of [EVALUATION, MCD]) {
        const out = await read(
          streamNarrative({
            endpoint: null,
            evaluation,
            language,
            signal: new AbortController().signal,
          }),
        );
        const label = `${evaluation.symbol} ${language}`;
        expect(out.markdown, label).toContain(TEMPLATE_STRINGS[language as 'en'].disclaimer);
        expect((out.last as { notes: string[] }).notes, label).not.toContain(ENGLISH_ONLY_NOTE);
        expect(out.last, label).toMatchObject({ _grounding: { ungrounded: [] } });
      }
    }
  });
});

describe('streamNarrative with a model', () => {
  it('gives the model the evaluation’s numbers and the derived ones, in the requested language', async () => {
    const server = await serve([{ steps: textSteps('## Zusammenfassung\n\nAcme erreicht 75 %.') }]);
    await read(narrate(endpointOf(server), 'de'));
    const [system, user] = server.requests[0]?.body.messages ?? [];
    expect(system.content).toContain('Write in German.');
    expect(system.content).toContain('not financial advice');
    expect(system.content).toContain('Use only the numbers in the data below');
    for (const figure of [
      '"totalScore":37.5',
      '"maxScore":50',
      '"peRatio":24.46',
      '"pegRatio":1.8',
      'Median ROIC 21.3%',
      '"scorePercent":75',
      '"passed":3',
      '"failed":1',
    ]) {
      expect(user.content).toContain(figure);
    }
    expect(user.content).toMatch(/<<<DATA [0-9a-f]{12} moat evaluation>>>/);
    expect(server.requests[0]?.body.tools).toBeUndefined();
  });

  it('catches a model answer inventing "ROIC 45%" and reports it on done', async () => {
    const answer =
      '## Summary\n\nAcme Corp scores 37.5 of 50 (75%): 3 of 4 criteria pass. ' +
      'Its ROIC of 45% is outstanding, gross margin 38% and net margin 18%. P/E 24.5, PEG 1.8.\n';
    const server = await serve([
      { steps: [...textSteps(answer), usageStep({ prompt_tokens: 400, completion_tokens: 60 })] },
    ]);
    const { markdown, last } = await read(narrate(endpointOf(server)));
    // Marked where the user reads it.
    expect(markdown).toBe(answer.replace('45%', '45% [⚠]'));
    const done = last as Extract<NarrativeEvent, { type: 'done' }>;
    expect(done).toMatchObject({ model: 'test-model', finishReason: 'stop', complete: true });
    // The evaluation's ROIC is 21.3%: the invented 45% is the one figure not grounded.
    expect(done._grounding.ungrounded).toEqual([
      {
        text: '45%',
        value: 45,
        index: markdown.indexOf('45%'),
        reason: 'mismatch',
        metric: 'roic',
        subject: 'ACME',
        fact: expect.objectContaining({
          key: expect.stringMatching(/^ACME\.return_on_invested_capital/),
        }),
      },
    ]);
    expect(done._grounding.total).toBe(done._grounding.grounded + 1);
    expect(done.notes).toEqual(['1 figure(s) not grounded in the evaluation (marked ⚠): 45%']);
  });

  it('notes an answer cut at the token budget', async () => {
    const server = await serve([
      { steps: textSteps('## Summary\n\nAcme', { finishReason: 'length' }) },
    ]);
    const { last } = await read(narrate(endpointOf(server, { maxOutputTokens: 3 })));
    expect(last).toMatchObject({ type: 'done', finishReason: 'length', complete: false });
    expect((last as { notes: string[] }).notes).toContain(
      'The answer was cut at the token budget.',
    );
    expect(server.requests[0]?.body.max_tokens).toBe(3);
  });

  it('throws upstream_unavailable when the model fails before any output (the caller refunds)', async () => {
    const server = await serve([
      { status: 500 },
      { steps: [errorStep('overloaded')] },
      { steps: textSteps('') },
    ]);
    await expect(read(narrate(endpointOf(server)))).rejects.toMatchObject({
      name: 'AdvisorError',
      code: 'upstream_unavailable',
    });
    await expect(read(narrate(endpointOf(server)))).rejects.toBeInstanceOf(AdvisorError);
    await expect(read(narrate(endpointOf(server)))).rejects.toThrow(/no text/);
  });

  it('after output, a failure is a terminal error event', async () => {
    const server = await serve([
      { steps: [...textSteps('## Summary\n\nAcme'), errorStep('overloaded')] },
    ]);
    const { events, markdown, last } = await read(narrate(endpointOf(server)));
    expect(markdown).toBe('## Summary\n\nAcme');
    expect(last).toMatchObject({ type: 'error', code: 'upstream_unavailable' });
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('an abort closes the upstream connection', async () => {
    const server = await serve([{ steps: [...textSteps('## Summary\n'), { hang: true }] }]);
    const controller = new AbortController();
    const events: NarrativeEvent[] = [];
    for await (const event of narrate(endpointOf(server), 'en', controller.signal)) {
      events.push(event);
      controller.abort();
    }
    await server.waitForClosedConnections(1);
    expect(events.every((e) => e.type === 'chunk')).toBe(true);
  });
});

describe('narrativeFacts', () => {
  it('derives the score percent, counts and per-criterion percent', () => {
    const { derived } = narrativeFacts(EVALUATION) as { derived: Record<string, unknown> };
    expect(derived).toMatchObject({
      scorePercent: 75,
      criteria: 4,
      scoredCriteria: 4,
      passed: 3,
      warnings: 0,
      failed: 1,
      criterionScorePercent: { return_on_invested_capital: 100, capex_efficiency: 0 },
      sellTriggerPE: 40,
    });
  });
});

import { CRITERION_KEYS, type Criterion, type MoatEvaluation, VERDICT_BANDS } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import {
  DISCLAIMER,
  DISCLAIMER_DE,
  ENGLISH_ONLY_NOTE,
  renderNarrativeTemplate,
  templateLanguage,
} from './render-narrative-template.js';
import { TEMPLATE_LANGUAGES, TEMPLATE_STRINGS } from './template-strings.js';

function criterion(
  key: Criterion['key'],
  name: string,
  status: Criterion['status'],
  value: string,
  score: number,
  maxScore = 12.5,
): Criterion {
  return { key, name, status, value, score, maxScore };
}

/** A hand-made evaluation: 2 passes, 1 warning, 1 fail, 1 criterion that does not apply. */
const EVALUATION: MoatEvaluation = {
  symbol: 'ACME',
  companyName: 'Acme Corp',
  totalScore: 31.25,
  maxScore: 50,
  verdict: 'Moderate Competitive Advantage',
  criteria: [
    {
      ...criterion('gross_margin', 'Gross margin', 'pass', 'Median gross margin 45.0%', 12.5),
      numericValue: 45,
    },
    criterion('net_margin', 'Net margin', 'pass', 'Median net margin 21.3%', 12.5),
    criterion('debt_sustainability', 'Debt', 'warning', 'Debt/earnings 4.1 years', 6.25),
    criterion('capex_efficiency', 'Capex', 'fail', 'Capex 61% of net income', 0),
    {
      ...criterion('product_durability', 'Product durability', 'warning', 'Not assessed', 0, 0),
      numericValue: null,
    },
  ],
  valuation: {
    peRatio: 24.456,
    forwardPE: null,
    pegRatio: null,
    augmentedPayoutRatio: 88.1,
    sellTrigger: false,
    _notes: ['EPS growth not positive: PEG not meaningful'],
  },
};

function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`## ${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const next = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, next === -1 ? undefined : next);
}

describe('renderNarrativeTemplate', () => {
  const markdown = renderNarrativeTemplate(EVALUATION);

  it('has the sections in order and ends with the disclaimer', () => {
    const order = ['## Summary', '## Strengths', '## Risks', '## Valuation', DISCLAIMER].map((s) =>
      markdown.indexOf(s),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(markdown.endsWith(`${DISCLAIMER}\n`)).toBe(true);
    expect(markdown.startsWith('# Acme Corp (ACME)\n')).toBe(true);
  });

  it('states the score, its percent of the maximum, the verdict and the scored passes', () => {
    const text = section(markdown, 'Summary');
    // 31.25 rounds to 31.3 at one decimal; 31.25 / 50 = 62.5% rounds to 63%.
    expect(text).toContain('scores 31.3 out of 50 (63%)');
    expect(text).toContain('**Moderate Competitive Advantage**');
    // 4 criteria have maxScore > 0, and 2 of them pass.
    expect(text).toContain('2 of 4 scored criteria pass.');
  });

  it('lists passing criteria as strengths and the others as risks, with display values', () => {
    const strengths = section(markdown, 'Strengths');
    expect(strengths).toContain('- **Gross margin** (12.5/12.5): Median gross margin 45.0%');
    expect(strengths).toContain('Median net margin 21.3%');
    expect(strengths).not.toContain('Debt');
    const risks = section(markdown, 'Risks');
    expect(risks).toContain('- **Debt** (warning, 6.25/12.5): Debt/earnings 4.1 years');
    expect(risks).toContain('- **Capex** (fail, 0/12.5): Capex 61% of net income');
    expect(risks).toContain('- **Product durability** (warning, not scored): Not assessed');
    expect(risks).not.toContain('Gross margin');
  });

  it('gives the valuation ratios, says which are missing and why', () => {
    const text = section(markdown, 'Valuation');
    expect(text).toContain('- P/E: 24.46');
    expect(text).toContain('- PEG: not available');
    expect(text).toContain('- Augmented payout ratio: 88.1%');
    expect(text).toContain('- Sell trigger (P/E ≥ 40): no');
    expect(text).toContain('- EPS growth not positive: PEG not meaningful');
  });

  it('flags the sell trigger and a missing reason, and handles an absent valuation', () => {
    const high = renderNarrativeTemplate({
      ...EVALUATION,
      valuation: {
        peRatio: 41,
        forwardPE: null,
        pegRatio: null,
        augmentedPayoutRatio: null,
        sellTrigger: true,
      },
    });
    expect(section(high, 'Valuation')).toContain('yes, the P/E is 40 or more');
    expect(section(high, 'Valuation')).toContain('No reason was recorded');
    const { valuation: _omitted, ...withoutValuation } = EVALUATION;
    expect(section(renderNarrativeTemplate(withoutValuation), 'Valuation')).toContain(
      'No valuation is available',
    );
  });

  it('says when no criterion passes or fails', () => {
    const none = renderNarrativeTemplate({ ...EVALUATION, criteria: [] });
    expect(section(none, 'Strengths')).toContain('No criterion passes.');
    expect(section(none, 'Risks')).toContain('No criterion fails or warns.');
  });

  it('is deterministic and falls back to English with a note for other languages', () => {
    expect(renderNarrativeTemplate(EVALUATION)).toBe(markdown);
    expect(markdown).not.toContain(ENGLISH_ONLY_NOTE);
    for (const language of ['en', 'EN-gb', 'English']) {
      expect(renderNarrativeTemplate(EVALUATION, { language })).toBe(markdown);
    }
    for (const language of ['ja-JP', 'Klingon', 'tlh']) {
      const other = renderNarrativeTemplate(EVALUATION, { language });
      expect(other).toContain(ENGLISH_ONLY_NOTE);
      expect(other.replace(`_${ENGLISH_ONLY_NOTE}_\n\n`, '')).toBe(markdown);
    }
  });

  it('writes German for de: headings, sentences, names, verdict, headline values, decimal commas', () => {
    const german = renderNarrativeTemplate(EVALUATION, { language: 'de' });
    for (const language of ['DE', 'de-AT', 'German', 'Deutsch']) {
      expect(renderNarrativeTemplate(EVALUATION, { language })).toBe(german);
    }
    expect(german).not.toContain(ENGLISH_ONLY_NOTE);
    const order = ['## Zusammenfassung', '## Stärken', '## Risiken', '## Bewertung', DISCLAIMER_DE];
    const at = order.map((s) => german.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(german).toContain(
      'Acme Corp (ACME) erreicht 31,3 von 50 Punkten (63 %) im Burggraben-Schema. ' +
        'Urteil: **Mäßiger Wettbewerbsvorteil**.',
    );
    expect(german).toContain('2 von 4 bewerteten Kriterien sind erfüllt.');
    // A headline value in German words; a display text without one is marked as English.
    expect(german).toContain('- **Bruttomarge** (12,5/12,5): Median 45 %');
    expect(german).toContain(
      '- **Tragfähigkeit der Schulden** (Warnung, 6,25/12,5): Debt/earnings 4.1 years (Originaltext auf Englisch)',
    );
    expect(german).toContain(
      '- **Beständigkeit der Produkte** (Warnung, nicht bewertet): nicht verfügbar',
    );
    expect(german).toContain('- KGV: 24,46');
    expect(german).toContain('- Erweiterte Ausschüttungsquote: 88,1 %');
    expect(german).toContain(
      '(Hinweise auf Englisch):\n- EPS growth not positive: PEG not meaningful',
    );
    expect(german).not.toContain(DISCLAIMER);
  });

  it('a German narrative contains no English sentence of the template', () => {
    const german = renderNarrativeTemplate(EVALUATION, { language: 'de' });
    const sentences = englishSentences();
    expect(sentences.length).toBeGreaterThan(25);
    // The lines the template marks as the evaluation's English text are data, not template.
    expect(sentences.filter((s) => ownText(german, 'de').includes(s))).toEqual([]);
    // Unmarked, the one English display text of the fixture is found: the check can fail.
    expect(sentences.filter((s) => german.includes(s))).toEqual(['of net income']);
    // The English criterion names and verdict of the evaluation are not shown either.
    for (const c of EVALUATION.criteria) expect(german).not.toContain(`**${c.name}**`);
    expect(german).not.toContain(EVALUATION.verdict);
  });

  it('writes every supported language, each with its own headings, verdict and disclaimer', () => {
    const seen = new Set<string>();
    for (const language of TEMPLATE_LANGUAGES) {
      const s = TEMPLATE_STRINGS[language];
      const text = renderNarrativeTemplate(EVALUATION, { language });
      expect(text).not.toContain(ENGLISH_ONLY_NOTE);
      for (const heading of [s.summaryTitle, s.strengths, s.risks, s.valuation]) {
        expect(text).toContain(`## ${heading}\n`);
      }
      expect(text).toContain(`**${s.verdicts[1]}**`);
      expect(text.endsWith(`${s.disclaimer}\n`)).toBe(true);
      if (language !== 'en') {
        expect(englishSentences().filter((e) => ownText(text, language).includes(e))).toEqual([]);
      }
      seen.add(text);
    }
    expect(seen.size).toBe(TEMPLATE_LANGUAGES.length);
    expect(templateLanguage('pt-BR')).toBe('pt');
    expect(templateLanguage('Français')).toBe('fr');
  });

  it('every string table has every key, filled, in every language', () => {
    const shape = (value: unknown, path = ''): string[] => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        return Object.entries(value).flatMap(([k, v]) => shape(v, `${path}.${k}`));
      }
      return [path];
    };
    const english = shape(TEMPLATE_STRINGS.en).sort();
    for (const language of TEMPLATE_LANGUAGES) {
      const s = TEMPLATE_STRINGS[language];
      expect(shape(s).sort(), language).toEqual(english);
      expect(s.verdicts).toHaveLength(VERDICT_BANDS.length);
      for (const key of CRITERION_KEYS) expect(s.criteria[key].length, key).toBeGreaterThan(2);
      const words = [s.summaryTitle, s.noneStrong, s.whyMissing, s.disclaimer, s.sellTrigger(true)];
      expect(words.every((w) => w.length > 2)).toBe(true);
      if (language !== 'en') expect(s.inEnglish.length, language).toBeGreaterThan(2);
    }
  });
});

describe('renderNarrativeTemplate: point in time and data quality (issue 39)', () => {
  const flag = {
    code: 'ppe_rollforward',
    series: 'capex',
    message: 'capex 1.2 bn cannot explain PP&E growth of 3.4 bn in FY2018',
  };
  const flagged: MoatEvaluation = {
    ...EVALUATION,
    asOf: '2019-06-30',
    dataQuality: [flag],
    criteria: EVALUATION.criteria.map((c) =>
      c.key === 'capex_efficiency' ? { ...c, dataQuality: [flag] } : { ...c, dataQuality: [] },
    ),
  };

  it('says the day it was evaluated as of and lists the flags under the criterion and in their section', () => {
    const markdown = renderNarrativeTemplate(flagged);
    expect(section(markdown, 'Summary')).toContain(
      'Evaluated as of 2019-06-30, on the figures filed by that day.',
    );
    expect(section(markdown, 'Risks')).toContain(
      '- **Capex** (fail, 0/12.5): Capex 61% of net income\n  - data quality: capex (ppe_rollforward)',
    );
    expect(section(markdown, 'Strengths')).not.toContain('data quality');
    expect(section(markdown, 'Data quality')).toContain('- capex (ppe_rollforward)');
    expect(markdown.indexOf('## Data quality')).toBeLessThan(markdown.indexOf('## Valuation'));
    expect(
      section(renderNarrativeTemplate(flagged, { language: 'de' }), 'Datenqualität'),
    ).toContain('capex (ppe_rollforward)');
  });

  it('has no data-quality section and no as-of sentence when there is nothing to say', () => {
    const plain = renderNarrativeTemplate({ ...EVALUATION, asOf: null, dataQuality: [] });
    expect(plain).not.toContain('## Data quality');
    expect(plain).not.toContain('Evaluated as of');
    expect(plain).toBe(renderNarrativeTemplate(EVALUATION));
  });
});
/** The text without the lines it marks as the evaluation's English text. */
function ownText(text: string, language: keyof typeof TEMPLATE_STRINGS): string {
  const marker = TEMPLATE_STRINGS[language].inEnglish;
  return text
    .split('\n')
    .filter((line) => !line.includes(marker))
    .join('\n');
}

/**
 * The English template's own sentences and phrases: every string of the English table, each
 * function called with markers and cut at them, pieces of two words or more.
 */
function englishSentences(): string[] {
  const en = TEMPLATE_STRINGS.en;
  const marker = '\u0000';
  const texts: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === 'string') texts.push(value);
    else if (typeof value === 'function') {
      texts.push(String(value(marker, marker, marker, marker, marker)));
      texts.push(String(value(true)), String(value(false)));
    } else if (value !== null && typeof value === 'object') Object.values(value).forEach(add);
  };
  Object.entries(en)
    .filter(([k]) => k !== 'criteria' && k !== 'verdicts')
    .forEach(([, v]) => {
      add(v);
    });
  return [
    ...new Set(
      texts
        .flatMap((t) => t.split(marker))
        .map((t) =>
          t
            .replace(/[*():.]/g, ' ')
            .trim()
            .replace(/\s+/g, ' '),
        )
        .filter((t) => t.split(' ').length >= 2),
    ),
  ];
}

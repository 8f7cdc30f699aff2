import { CRITERIA } from '@svc/moat-scoring';
import { CRITERION_KEYS } from '@svc/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CardEvaluation, moatCardPage, renderMoatCard } from '../src/index.js';
import { formatThreshold, TREND_SCALES } from '../src/trend-scales.js';
import { realEvaluation } from './real-evaluation.js';

describe('renderMoatCard (AAPL from the SEC snapshot)', () => {
  let evaluation: CardEvaluation;
  let html: string;
  beforeAll(async () => {
    evaluation = await realEvaluation('AAPL');
    html = renderMoatCard(evaluation);
  }, 60_000);

  it('shows the verdict, the total and the bands', () => {
    expect(html).toContain(`<p class="verdict">${evaluation.verdict}</p>`);
    expect(html).toContain(`<strong>${evaluation.totalScore.toFixed(1)}</strong> / 100`);
    expect(html).toMatch(/<svg class="bands"[^>]*role="img" aria-label="Total /);
    expect(html.match(/class="band band-\d active"/g)).toHaveLength(1);
  });

  it('lists every criterion in order with its status, score and value, and one chart per trend', () => {
    const keys = [...html.matchAll(/<li class="criterion status-(\w+)" data-key="(\w+)"/g)];
    expect(keys.map((m) => m[2])).toEqual(evaluation.criteria.map((c) => c.key));
    expect(keys.map((m) => m[1])).toEqual(evaluation.criteria.map((c) => c.status));
    const withTrend = evaluation.criteria.filter((c) => (c.trend ?? []).length > 0);
    expect(withTrend.length).toBeGreaterThanOrEqual(7);
    expect(html.match(/<svg class="trend-chart"/g)).toHaveLength(withTrend.length);
    for (const c of withTrend) {
      const desc = new RegExp(`<desc id="trend-${c.key}-desc">([^<]*)</desc>`).exec(html)?.[1];
      const years = [...(desc ?? '').matchAll(/FY(\d{4})/g)].map((m) => Number(m[1]));
      expect(years).toEqual(c._trendYears);
    }
  });

  it('draws the benchmark line where the criterion has one', () => {
    const gm = /<svg class="trend-chart"[\s\S]*?<\/svg>/.exec(
      html.slice(html.indexOf('data-key="gross_margin"')),
    )?.[0];
    expect(gm).toContain('class="threshold" data-value="40"');
    const eps = /<svg class="trend-chart"[\s\S]*?<\/svg>/.exec(
      html.slice(html.indexOf('data-key="earnings_consistency"')),
    )?.[0];
    expect(eps).not.toContain('class="threshold"');
  });

  it('names the fiscal years, the source and says it is not financial advice', () => {
    const years = evaluation._fiscalYears ?? [];
    expect(html).toContain(`Fiscal years FY${years[0]}–FY${years.at(-1)}`);
    expect(html).toContain(`Source: ${evaluation._provider}`);
    expect(html).toContain('Informational only, not financial advice.');
  });

  it('escapes what it is given', () => {
    const hostile = renderMoatCard({ ...evaluation, companyName: '<img src=x onerror=alert(1)>' });
    expect(hostile).not.toContain('<img');
    expect(hostile).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('makes a page with the nonce on its one style element and no script', () => {
    const page = moatCardPage(evaluation, { nonce: 'abc' });
    expect(page).toContain('<style nonce="abc">');
    expect(page).not.toContain('<script');
    expect(page).toContain('<title>Apple Inc. (AAPL): moat card</title>');
  });
});

describe('TREND_SCALES', () => {
  it.each(CRITERION_KEYS)('%s: its threshold is the one its benchmark names', (key) => {
    const scale = TREND_SCALES[key];
    const benchmark = CRITERIA.find((c) => c.key === key)?.benchmark ?? '';
    if (scale.threshold === undefined) return;
    const rule = formatThreshold(scale.threshold, scale.unit);
    const number = rule.replace(/[^\d.]/g, '');
    const sign = scale.threshold.side === 'atLeast' ? '≥' : '≤';
    expect(benchmark).toContain(`${sign} ${number}`);
  });
});

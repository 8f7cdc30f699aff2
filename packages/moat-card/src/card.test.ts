import type { Criterion } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { type CardEvaluation, renderMoatCard } from './card.js';

const YEARS = [2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025];

function criterion(over: Partial<Criterion> & Pick<Criterion, 'key' | 'name'>): Criterion {
  return {
    status: 'pass',
    value: 'ok',
    score: 12.5,
    maxScore: 12.5,
    trend: YEARS.map((_, i) => 40 + i),
    _trendYears: YEARS,
    ...over,
  };
}

/** A cruise line: losses FY2020–FY2023, its debt in years of net income only where it earned. */
const carnivalLike: CardEvaluation = {
  symbol: 'CCLX',
  companyName: 'Cruise <Lines>',
  totalScore: 21.9,
  maxScore: 100,
  verdict: 'No Clear Moat Detected',
  criteria: [
    criterion({
      key: 'debt_sustainability',
      name: 'Debt Sustainability',
      status: 'fail',
      value: 'Debt 7.1 years of net income (FY2025)',
      score: 0,
      trend: [2.1, 2.4, 2.2, 9.5, 7.1],
      _trendYears: [2016, 2017, 2018, 2024, 2025],
      dataQuality: [
        {
          code: 'missing_years',
          series: 'NetIncomeLoss',
          message: 'FY2019–FY2023 have no positive net income: debt in years is not defined',
        },
      ],
    }),
    criterion({
      key: 'net_margin',
      name: 'Net Margin',
      status: 'fail',
      value: 'Median net margin 9.8%',
      score: 0,
      trend: [12.1, 13.5, 14.9, 10.2, -498, -20.4, -5.1, -0.4, 7.9, 10.3],
    }),
  ],
  valuation: {
    peRatio: 14.2,
    forwardPE: null,
    pegRatio: 0.61,
    augmentedPayoutRatio: 0,
    sellTrigger: false,
    _price: 24.5,
    _priceCurrency: 'USD',
    _priceAsOf: '2026-11-27',
    _priceSource: 'stooq',
    _epsFiscalYear: 2025,
  },
  dataQuality: [{ code: 'restated', series: 'Revenues', message: 'FY2021 revenue was restated' }],
};

describe('renderMoatCard', () => {
  const html = renderMoatCard(carnivalLike);

  it('leaves a gap where a fiscal year is missing and marks the year on the axis', () => {
    const debt = html.slice(html.indexOf('data-key="debt_sustainability"'));
    const chart = debt.slice(0, debt.indexOf('</svg>'));
    expect(chart.match(/<polyline class="line"/g)).toHaveLength(2);
    expect(chart.match(/<g class="missing" data-year="\d+">/g)).toHaveLength(5);
    expect(chart).toContain('FY2019 no data');
  });

  it('clips the −498 % outlier year and labels it, so the benchmark line is not on the data', () => {
    const margin = html.slice(html.indexOf('data-key="net_margin"'));
    expect(margin).toContain('data-clipped="below" data-year="2020" data-value="-498"');
    expect(margin).toContain('<text class="clip-label"');
  });

  it('names the verdict bands with their thresholds, the active one marked', () => {
    expect(html).toContain('<ol class="band-legend" aria-label="Verdict bands">');
    for (const text of [
      '0–35%: No Clear Moat Detected',
      '35–50%: Narrow Moat — Proceed with Caution',
      '50–70%: Moderate Competitive Advantage',
      '70–100%: Strong Durable Competitive Advantage',
    ]) {
      expect(html).toContain(text);
    }
    expect(html).toMatch(/<li class="band-\d active" aria-current="true">[\s\S]*?0–35%/);
  });

  it('shows the valuation under the verdict with the price, its day and source', () => {
    const at = html.indexOf('class="valuation');
    expect(at).toBeGreaterThan(html.indexOf('class="verdict"'));
    expect(at).toBeLessThan(html.indexOf('<ol class="criteria">'));
    expect(html).toContain('<dt>P/E (EPS FY2025)</dt><dd>14.2×</dd>');
    expect(html).toContain('<dt>Forward P/E</dt><dd>n/m</dd>');
    expect(html).toContain('<dt>PEG</dt><dd>0.6</dd>');
    expect(html).toContain('<dt>Sell trigger (P/E ≥ 40)</dt><dd>No</dd>');
    expect(html).toContain('Price 24.50 USD on 2026-11-27, source: stooq.');
    const noPrice = renderMoatCard({
      ...carnivalLike,
      valuation: {
        peRatio: null,
        forwardPE: null,
        pegRatio: null,
        augmentedPayoutRatio: null,
        sellTrigger: false,
      },
    });
    expect(noPrice).toContain('No price: the ratios that need one are n/m.');
    expect(renderMoatCard({ ...carnivalLike, valuation: undefined })).not.toContain(
      'class="valuation',
    );
  });

  it('shows data-quality flags on the criterion they affect and on the evaluation', () => {
    const debt = html.slice(
      html.indexOf('data-key="debt_sustainability"'),
      html.indexOf('data-key="net_margin"'),
    );
    expect(debt).toContain(
      '<li data-code="missing_years"><strong>Data quality:</strong> FY2019–FY2023',
    );
    expect(debt).toContain('(NetIncomeLoss)');
    const head = html.slice(0, html.indexOf('<ol class="criteria">'));
    expect(head).toContain('data-code="restated"');
    expect(html.match(/data-code=/g)).toHaveLength(2);
    // no flags, no list; malformed flags are ignored
    const clean = renderMoatCard({
      ...carnivalLike,
      // a stored row from before the field was typed
      dataQuality: [{ nope: 1 } as unknown as { code: string; series: string; message: string }],
      criteria: [],
    });
    expect(clean).not.toContain('class="data-quality"');
  });

  it('escapes what it is given', () => {
    expect(html).toContain('Cruise &lt;Lines&gt;');
    expect(html).not.toContain('<Lines>');
  });
});

import { describe, expect, it } from 'vitest';
import { trendChartSvg } from './trend-chart.js';

const years = [2015, 2016, 2017, 2018, 2019];

/** The circles' attributes, in document order. */
function points(svg: string) {
  return [
    ...svg.matchAll(
      /<circle class="point" cx="([\d.]+)" cy="([\d.]+)"[^>]*?(?: data-year="(\d+)")? data-value="([^"]+)"(?: data-side="(\w+)")?>/g,
    ),
  ].map((m) => ({
    cx: Number(m[1]),
    cy: Number(m[2]),
    year: Number(m[3]),
    value: Number(m[4]),
    side: m[5],
  }));
}

describe('trendChartSvg', () => {
  it('draws one point per value, left to right by fiscal year, higher values higher', () => {
    const values = [60, 55, 45, 35, 30];
    const svg = trendChartSvg({ id: 'gm', title: 'Gross margin', values, years, unit: 'percent' });
    const drawn = points(svg);
    expect(drawn.map((p) => p.year)).toEqual(years);
    expect(drawn.map((p) => p.value)).toEqual(values);
    for (let i = 1; i < drawn.length; i += 1) {
      expect(drawn[i]?.cx).toBeGreaterThan(drawn[i - 1]?.cx as number);
      expect(drawn[i]?.cy).toBeGreaterThan(drawn[i - 1]?.cy as number); // falling: lower on screen
    }
    expect(svg).toContain('<polyline class="line"');
    expect(svg).not.toContain('class="threshold"');
  });

  it('leaves the gap of a missing fiscal year', () => {
    const svg = trendChartSvg({
      id: 'x',
      title: 't',
      values: [1, 2, 3],
      years: [2015, 2016, 2018],
      unit: 'perShare',
    });
    const [a, b, c] = points(svg).map((p) => p.cx) as [number, number, number];
    expect(c - b).toBeCloseTo(2 * (b - a), 0);
  });

  it('draws the threshold and says which side each point is on', () => {
    const svg = trendChartSvg({
      id: 'debt',
      title: 'Debt',
      values: [2, 3.5, 5, 4],
      years: [2021, 2022, 2023, 2024],
      unit: 'years',
      threshold: { value: 4, side: 'atMost' },
    });
    expect(svg).toMatch(/<line class="threshold" data-value="4"/);
    expect(svg).toContain('≤ 4 yrs');
    expect(points(svg).map((p) => p.side)).toEqual(['pass', 'pass', 'fail', 'pass']);
  });

  it('keeps the threshold inside the drawing even when every value is far from it', () => {
    const svg = trendChartSvg({
      id: 'roic',
      title: 'ROIC',
      values: [40, 42, 45],
      unit: 'percent',
      threshold: { value: 15, side: 'atLeast' },
    });
    const y = Number(/class="threshold" data-value="15" x1="[\d.]+" y1="([\d.]+)"/.exec(svg)?.[1]);
    const lowest = Math.max(...points(svg).map((p) => p.cy));
    expect(y).toBeGreaterThan(lowest);
    expect(y).toBeLessThanOrEqual(132 - 22);
  });

  it('has a text alternative: a title and a description listing every point in order', () => {
    const svg = trendChartSvg({
      id: 'nm',
      title: 'Net <margin>',
      values: [12.04, 15.5],
      years: [2023, 2024],
      unit: 'percent',
      threshold: { value: 15, side: 'atLeast' },
    });
    expect(svg).toContain('role="img" aria-labelledby="nm-title nm-desc"');
    expect(svg).toContain('<title id="nm-title">Net &lt;margin&gt;</title>');
    expect(svg).toContain('<desc id="nm-desc">FY2023 12.0%, FY2024 15.5%. Benchmark ≥ 15%.</desc>');
  });

  it('draws a flat series, a single point and negative values without NaN', () => {
    for (const values of [[5, 5, 5], [7], [-3, 2, -1]]) {
      const svg = trendChartSvg({ id: 'f', title: 'f', values, unit: 'money', currency: 'USD' });
      expect(svg).not.toContain('NaN');
      expect(points(svg)).toHaveLength(values.length);
    }
    expect(trendChartSvg({ id: 'z', title: 'z', values: [-3, 2], unit: 'money' })).toContain(
      'class="zero"',
    );
  });

  it("labels the series' own highest and lowest values, not the drawn range", () => {
    const svg = trendChartSvg({
      id: 'd',
      title: 'Debt',
      values: [0.4, 1.2, 0.9],
      unit: 'years',
      threshold: { value: 4, side: 'atMost' },
    });
    const labels = [...svg.matchAll(/<text class="axis" x="52"[^>]*>([^<]+)</g)].map((m) => m[1]);
    expect(labels).toEqual(['1.2 yrs', '0.4 yrs']);
  });

  it('draws nothing for an empty series', () => {
    expect(trendChartSvg({ id: 'e', title: 'e', values: [], unit: 'percent' })).toBe('');
  });

  it('does not draw a line across missing years and marks each on the axis (Carnival-like debt)', () => {
    const svg = trendChartSvg({
      id: 'ccl',
      title: 'Debt',
      values: [2.1, 2.4, 2.2, 9.5, 7.1],
      years: [2016, 2017, 2018, 2025, 2026],
      unit: 'years',
      threshold: { value: 4, side: 'atMost' },
    });
    const lines = [...svg.matchAll(/<polyline class="line" points="([^"]+)"/g)].map((m) =>
      (m[1] ?? '').split(' '),
    );
    expect(lines.map((l) => l.length)).toEqual([3, 2]); // FY2016–18 and FY2025–26, nothing between
    const missing = [...svg.matchAll(/<g class="missing" data-year="(\d+)">/g)].map((m) =>
      Number(m[1]),
    );
    expect(missing).toEqual([2019, 2020, 2021, 2022, 2023, 2024]);
    expect(svg).toContain('<title>FY2019: no data</title>');
    expect(svg).toContain('FY2018 2.2 yrs, FY2019 no data,');
    // a missing year's mark sits where its point would be: between FY2018 and FY2025
    const x2018 = points(svg)[2]?.cx as number;
    const x2025 = points(svg)[3]?.cx as number;
    const x2019 = Number(
      /data-year="2019"><title>[^<]+<\/title><line class="missing-tick" x1="([\d.]+)"/.exec(
        svg,
      )?.[1],
    );
    expect(x2019).toBeGreaterThan(x2018);
    expect(x2019).toBeLessThan(x2025);
  });

  it('clips a scale one outlier would flatten, marking and labelling the outlier (−498 %)', () => {
    const values = [18.2, 21.5, 19.9, -498, 22.4, 20.1, 23.0];
    const svg = trendChartSvg({
      id: 'nm',
      title: 'Net margin',
      values,
      years: [2019, 2020, 2021, 2022, 2023, 2024, 2025],
      unit: 'percent',
      threshold: { value: 15, side: 'atLeast' },
    });
    const drawn = points(svg);
    const outlier = drawn[3];
    expect(svg).toMatch(/data-clipped="below" data-year="2022" data-value="-498" data-side="fail"/);
    expect(outlier?.cy).toBe(10 + 100); // on the bottom edge
    expect(svg).toContain('<text class="clip-label"');
    expect(svg).toContain('FY2022 -498.0%');
    expect(svg).toContain('FY2022 -498.0% (off the scale)');
    // the others fill the height: the benchmark line is no longer on the data
    const ys = drawn.filter((_, i) => i !== 3).map((p) => p.cy);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(30);
  });

  it('does not clip a series whose far points are its real shape', () => {
    const svg = trendChartSvg({
      id: 'g',
      title: 'EPS',
      values: [1, 2, 3, 4, 5, 6, 7, 30],
      unit: 'perShare',
    });
    expect(svg).toContain('data-clipped'); // 30 flattens 1–7: clipped
    const steady = trendChartSvg({
      id: 's',
      title: 's',
      values: [1, 2, 4, 8, 16],
      unit: 'perShare',
    });
    expect(steady).not.toContain('data-clipped');
    // Carnival's payoff years FY2015–FY2019: 5.0 beside 3.6–4.1 is of the same order, drawn
    const sameOrder = trendChartSvg({
      id: 'ccl',
      title: 'Debt in years of earnings',
      values: [5.0, 4.1, 3.9, 3.6, 3.9],
      years: [2015, 2016, 2017, 2018, 2019],
      unit: 'years',
      threshold: { value: 4, side: 'atMost' },
    });
    expect(sameOrder).not.toContain('data-clipped');
    expect(sameOrder).not.toContain('off the scale');
    const fewer = trendChartSvg({ id: 'f', title: 'f', values: [1, 2, -400, 3], unit: 'percent' });
    expect(fewer).not.toContain('data-clipped'); // under 5 values nothing is clipped
  });
  it('marks the years of the evaluation after the last point (and before the first) as missing', () => {
    const svg = trendChartSvg({
      id: 'debt',
      title: 'Debt in years of earnings',
      values: [4.1, 3.9, 3.6, 3.9],
      years: [2016, 2017, 2018, 2019],
      unit: 'years',
      threshold: { value: 4, side: 'atMost' },
      span: { first: 2015, last: 2024 },
    });
    const marked = [...svg.matchAll(/<g class="missing" data-year="(\d+)"/g)].map((m) => m[1]);
    expect(marked).toEqual(['2015', '2020', '2021', '2022', '2023', '2024']);
    expect(svg).toContain('FY2024 no data');
    expect(svg).toMatch(/text-anchor="end">FY2024<\/text>/);
    // the last point sits where FY2019 is on a FY2015–FY2024 axis, not at the right edge
    const xs = points(svg).map((p) => p.cx);
    expect(xs.at(-1)).toBeLessThan(56 + 254 * 0.6);
    const without = trendChartSvg({
      id: 'd2',
      title: 't',
      values: [4.1, 3.9, 3.6, 3.9],
      years: [2016, 2017, 2018, 2019],
      unit: 'years',
    });
    expect(without).not.toContain('class="missing"');
  });
});

import type { Holding } from '@svc/portfolio';
import type { ServedEvaluation } from '@svc/schemas';
import { describe, expect, it } from 'vitest';
import { instrumentOf } from './instrument-of.js';
import { createXrayService } from './xray-service.js';

const NOW = new Date('2026-01-05T12:00:00Z');

function holding(symbol: string, valueEur: string | null, extra: object = {}): Holding {
  return {
    id: `h-${symbol}`,
    portfolioId: 'p1',
    symbol,
    name: symbol,
    quantity: '1',
    averageCost: '1',
    currency: 'USD',
    lastPrice: valueEur,
    marketValue: valueEur,
    marketValueEur: valueEur,
    costBasisEur: '1',
    unrealizedPnlEur: null,
    weight: null,
    valuedAt: '2026-01-05T10:00:00.000Z',
    priceAsOf: null,
    fxAsOf: null,
    stale: false,
    realizedPnlEur: null,
    ...extra,
    // without `instrument` in `extra`: a holding that carries none (instrumentOf derives it)
  } as Holding;
}

function evaluation(symbol: string, totalScore: number, verdict: string, pe: number | null) {
  return {
    symbol,
    companyName: symbol,
    totalScore,
    maxScore: 100,
    verdict,
    criteria: [],
    valuation: {
      peRatio: pe,
      forwardPE: null,
      pegRatio: null,
      augmentedPayoutRatio: 50,
      sellTrigger: pe !== null && pe >= 40,
    },
    _cached: true,
    _cachedAt: '2026-01-04T00:00:00.000Z',
  } as ServedEvaluation;
}

function xrayOf(holdings: Holding[], cached: ServedEvaluation[]) {
  const asked: string[][] = [];
  const service = createXrayService({
    holdings: { listHoldings: async () => holdings },
    evaluations: {
      cachedMany: async (tickers) =>
        new Map(cached.filter((e) => tickers.includes(e.symbol)).map((e) => [e.symbol, e])),
    },
    fills: {
      async request(_actor, tickers) {
        asked.push([...tickers]);
        return new Map(tickers.map((t) => [t, t === 'KR' ? 'quota' : 'pending'] as const));
      },
    },
    now: () => NOW,
  });
  return { asked, answer: service.getXray({ id: 'u1', plan: 'free' }, 'p1') };
}

describe('createXrayService', () => {
  it('weighs by EUR value, sums the bands, scores by value and flags the sell trigger', async () => {
    const { answer, asked } = xrayOf(
      [holding('AAPL', '600'), holding('DAL', '300'), holding('KR', '100'), holding('XYZ', null)],
      [
        evaluation('AAPL', 90, 'Strong Durable Competitive Advantage', 41),
        evaluation('DAL', 30, 'No Clear Moat Detected', 8),
      ],
    );
    const xray = await answer;
    expect(asked).toEqual([['KR', 'XYZ']]);
    expect(xray.valueEur).toBe('1000.00');
    expect(xray.holdings.map((h) => [h.symbol, h.weight, h.reason])).toEqual([
      ['AAPL', 0.6, undefined],
      ['DAL', 0.3, undefined],
      ['KR', 0.1, 'quota'],
      ['XYZ', null, 'pending'],
    ]);
    expect(xray.bands.map((b) => b.weight)).toEqual([0.6, 0, 0, 0.3]);
    expect(xray.unratedWeight).toBe(0.1);
    // (0.6 × 90 + 0.3 × 30) / 0.9
    expect(xray.weightedScore).toBe(70);
    expect(xray.pastSellTrigger).toEqual(['AAPL']);
    expect(xray.pending).toEqual(['XYZ']);
    expect(xray.unvalued).toEqual(['XYZ']);
    expect(xray.concentration).toEqual({
      largest: { symbol: 'AAPL', weight: 0.6 },
      top5Weight: 1,
      herfindahl: 0.46,
      effectiveHoldings: 2.17,
      overThreshold: ['AAPL'],
    });
    expect(xray.holdings[0]?.valuation).toEqual({
      pe: 41,
      forwardPe: null,
      peg: null,
      payoutRatio: 50,
      sellTrigger: true,
    });
    expect(xray.asOf).toBe('2026-01-05T10:00:00.000Z');
  });

  it('asks no cache or queue for funds, unresolved instruments and shares without a CIK', async () => {
    const { answer, asked } = xrayOf(
      [
        holding('IE00B4L5Y983', '100'),
        holding('VTI', '100', {
          instrument: { ticker: 'VTI', currency: 'USD', kind: 'fund', resolution: 'openfigi' },
        }),
        holding('NOVN', '100', {
          instrument: { ticker: 'NOVN', currency: 'CHF', kind: 'share', resolution: 'openfigi' },
        }),
        holding('Gold bar 100 g', '100'),
      ],
      [],
    );
    const xray = await answer;
    expect(asked).toEqual([]);
    expect(Object.fromEntries(xray.holdings.map((h) => [h.symbol, h.reason]))).toEqual({
      IE00B4L5Y983: 'unresolved',
      VTI: 'fund',
      NOVN: 'not-sec-filer',
      'Gold bar 100 g': 'unresolved',
    });
    expect(xray.weightedScore).toBeNull();
    expect(xray.unratedWeight).toBe(1);
  });

  it('answers without the queue when it cannot be reached', async () => {
    const service = createXrayService({
      holdings: { listHoldings: async () => [holding('JNJ', '100')] },
      evaluations: { cachedMany: async () => new Map() },
      fills: {
        request: async () => {
          throw new Error('connection refused');
        },
      },
      now: () => NOW,
    });
    const xray = await service.getXray({ id: 'u1', plan: 'free' }, 'p1');
    expect(xray.holdings[0]?.reason).toBe('not-evaluated');
    expect(xray.pending).toEqual([]);
  });

  it('answers an empty portfolio as of now', async () => {
    const xray = await xrayOf([], []).answer;
    expect(xray).toMatchObject({
      asOf: NOW.toISOString(),
      valueEur: '0.00',
      holdings: [],
      unratedWeight: 0,
      weightedScore: null,
      concentration: { largest: null, herfindahl: 0, effectiveHoldings: null },
    });
  });
});

describe('instrumentOf', () => {
  it('derives the instrument from the symbol until holdings carry one', () => {
    expect(instrumentOf(holding('brk.b', '1', { name: 'Berkshire' }))).toEqual({
      ticker: 'BRK-B',
      currency: 'USD',
      name: 'Berkshire',
      kind: 'share',
      resolution: 'export',
    });
    expect(instrumentOf(holding('US0378331005', '1'))).toEqual({
      isin: 'US0378331005',
      currency: 'USD',
      kind: 'other',
      resolution: 'unresolved',
    });
    const stored = {
      isin: 'US0378331005',
      ticker: 'AAPL',
      currency: 'USD',
      kind: 'share',
      cik: '0000320193',
      resolution: 'sec',
    };
    expect(instrumentOf(holding('AAPL', '1', { instrument: stored }))).toEqual(stored);
  });
});

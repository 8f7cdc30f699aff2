/**
 * Provider agreement (issue 12): the snapshot (SEC companyfacts) and SimFin providers on every
 * company-year they share. A figure that differs by more than 1% (1 pp for gross margin) must match
 * a recorded, explained exception below, and the verdict band over the shared years must be the
 * same unless an exception explains why not. The same table is in the fundamentals-client README.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSimfinProvider, parseCompanyFacts } from '@svc/fundamentals-client';
import { KNOWN_SPLITS } from '@svc/market-data';
import { evaluateMoat } from '@svc/moat-scoring';
import { createFundamentalsProvider, createQuoteSource } from '@svc/providers';
import type { FiscalYearFigures, Fundamentals } from '@svc/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateCompany } from '../src/moat/evaluate-company.js';
import { COMPANYFACTS_DIR, PRICES_DIR, SHARED_DATA_DIR } from './shared-data.js';

type Metric = 'revenue' | 'netIncome' | 'grossMargin' | 'capex' | 'eps';

const READ: Record<Metric, (y: FiscalYearFigures) => number | null> = {
  revenue: (y) => y.revenue?.value ?? null,
  netIncome: (y) => y.netIncome?.value ?? null,
  grossMargin: (y) => {
    const revenue = y.revenue?.value;
    if (!revenue) return null;
    if (y.grossProfit) return y.grossProfit.value / revenue;
    return y.costOfRevenue ? (revenue - y.costOfRevenue.value) / revenue : null;
  },
  capex: (y) => y.capitalExpenditure?.value ?? null,
  eps: (y) => y.dilutedEps?.value ?? null,
};

/** A recorded difference: `ticker` `*` for every company; `years` omitted for every shared year. */
interface Exception {
  readonly ticker: string | readonly string[];
  readonly metric: Metric | 'verdict';
  readonly years?: readonly number[];
  readonly reason: string;
}

/** The explained differences (also in packages/fundamentals-client/README.md). */
export const EXCEPTIONS: readonly Exception[] = [
  {
    ticker: '*',
    metric: 'capex',
    reason:
      'SimFin has only "Change in Fixed Assets & Intangibles": purchases of fixed assets and intangibles net of disposals (MCD FY2016 872 M against 1,821 M gross, after 975 M of restaurant sales; JNJ); its bulk cash-flow file has no gross capex column. DAL FY2019 1,592 M against 4,936 M is not disposals: SimFin keeps only the ground-equipment line (companyfacts PaymentsToAcquireOtherProductiveAssets 1,592 M) and leaves flight equipment (3,344 M) in other investing. GM above gross: the finance arm\'s lease vehicles. The capex criterion says "net of disposals" in its value; no sourced rule turns the net figure into a gross one',
  },
  {
    ticker: 'GOOGL',
    metric: 'eps',
    reason:
      "SimFin's diluted share count for Alphabet is 6–8% above the one its reported EPS implies (FY2019: 745.1 M against 34,343 M ÷ $49.16 = 698.6 M before the 20:1 of 2022); both EPS are on the latest split basis",
  },
  {
    ticker: ['NVDA', 'KR'],
    metric: 'eps',
    years: [2008, 2009],
    reason:
      'rounding of a small reported EPS before the split adjustment: NVDA FY2008 −$0.05 ÷ 40 against −30.0 M ÷ 548.1 M ÷ 40; FY2009 −$0.12 ÷ 40; KR FY2009 $0.11 ÷ 2 against 70 M ÷ 1,300 M',
  },
  {
    ticker: 'KR',
    metric: 'eps',
    years: [2014, 2015, 2018, 2019],
    reason:
      "KR's reported EPS divides net earnings available to common shareholders after participating securities (companyfacts NetIncomeLossAvailableToCommonStockholdersDiluted, FY2018 3,076 M), SimFin net income (common) (3,110 M): 1.0–1.2%",
  },
  {
    ticker: 'TSLA',
    metric: 'eps',
    years: [2010, 2011],
    reason:
      "SimFin gives TSLA FY2010 and FY2011 one share count (523,921,715, on the 2020 basis), not the IPO year's weighted average (reported FY2010 −$3.04, FY2011 −$2.53, ÷ 15 for the 5:1 of 2020 and 3:1 of 2022)",
  },
  {
    ticker: 'V',
    metric: 'eps',
    reason:
      'Visa reports EPS per share class only: companyfacts has neither a non-dimensional diluted EPS nor a diluted share count, so the snapshot has none; SimFin computes one from its own share count',
  },
  {
    ticker: ['PG', 'GM', 'BBY', 'DAL', 'LUV', 'MU', 'UAL', 'XOM', 'CCL', 'F', 'MOS'],
    metric: 'eps',
    reason:
      'continuing operations and rounding: the snapshot reads reported diluted EPS of continuing operations (PG FY2017 3.69 against 5.59 with discontinued operations; GM FY2017 0.22), SimFin computes total net income ÷ shares, which differs from reported EPS by a few percent where the share count is averaged differently (DAL, LUV, MU, UAL, XOM, CCL, F)',
  },
  {
    ticker: ['DAL', 'UAL', 'LUV', 'MCD', 'XOM', 'F', 'GM', 'BBY', 'CCL', 'MOS', 'PG'],
    metric: 'grossMargin',
    reason:
      'gross-margin applicability: SimFin standardises a "Cost of Revenue" for filers that report none (airlines DAL, UAL, LUV; MCD; XOM), where the snapshot rules the criterion not applicable; nothing in the SimFin rows tells those filers apart (Gross Profit = Revenue − Cost of Revenue, not Operating Income; the cost line is not all operating expenses) and neither provider has an industry here; F and GM: the snapshot widens cost to total costs less SG&A (finance arm), SimFin uses automotive cost of sales; BBY, CCL, MOS, PG: see revenue',
  },
  {
    ticker: 'BBY',
    metric: 'revenue',
    reason:
      "SimFin's Report Dates for BBY FY2009–FY2013 are a year late (2010-01-31 for the year ended 2009-02-28), so its years sit one label later until BBY's 2013 change of year end",
  },
  { ticker: 'BBY', metric: 'netIncome', reason: 'BBY year labels, see revenue' },
  {
    ticker: 'MOS',
    metric: 'revenue',
    reason:
      'MOS changed its year end from May to December in 2013; SimFin labels the May years one later, and has no FY2018–FY2019 income rows',
  },
  { ticker: 'MOS', metric: 'netIncome', reason: 'MOS year labels, see revenue' },
  {
    ticker: 'CCL',
    metric: 'revenue',
    reason:
      'the snapshot has no revenue tag for CCL FY2010–FY2013 (CCL tags only cruise revenue components); FY2008–FY2009 SimFin includes tour revenue',
  },
  {
    ticker: 'PG',
    metric: 'revenue',
    years: [2012, 2013, 2014],
    reason:
      "snapshot: PG's companyfacts `Revenues` for FY2012–FY2014 is a narrower figure (28.4–29.4 B against net sales of 74–82 B); outside the scored window, left for follow-up",
  },
  {
    ticker: 'MCD',
    metric: 'revenue',
    years: [2018, 2019],
    reason: 'SimFin excludes "other revenues" (233–287 M) that MCD includes in total revenues',
  },
  {
    ticker: 'TGT',
    metric: 'revenue',
    years: [2016, 2017],
    reason: 'SimFin excludes credit-card and other revenue that TGT includes in total revenue',
  },
  {
    ticker: 'XOM',
    metric: 'revenue',
    reason:
      'the snapshot reads XOM `Revenues` (sales plus other income and equity affiliates); SimFin its sales and other operating revenue',
  },
  {
    ticker: 'AAPL',
    metric: 'revenue',
    years: [2007],
    reason: 'AAPL FY2007 revenue as first reported (24,006 M) vs restated (24,578 M)',
  },
  {
    ticker: ['DAL', 'LUV', 'F'],
    metric: 'netIncome',
    years: [2016, 2017],
    reason:
      'restatements: the snapshot keeps the latest filed figure (DAL FY2017 3,205 M after the pension accounting change; LUV, F), SimFin the one it standardised',
  },
  {
    ticker: 'NVDA',
    metric: 'verdict',
    reason:
      'the snapshot has no capex for NVDA FY2008–FY2019 (no purchases-of-PP&E tag in those 10-Ks) and therefore no capex or FCF-based scores; SimFin has them',
  },
  {
    ticker: 'UAL',
    metric: 'verdict',
    reason:
      'on the 35% band line since methodology 5 (through-cycle debt payoff and earnings drawdown, issue 39; FY2009–FY2019: snapshot 36.1, SimFin 34.3): the gap is the gross-margin applicability above (N/A against 4.5 of 12.5), total debt (FY2019 14.6 B against 20.4 B, the providers reading a different debt scope; cause not traced here) and with it the debt-funded buyback gate (9.25 against 4.88) and ROIC (12.9% against 16.3%)',
  },
  {
    ticker: 'XOM',
    metric: 'verdict',
    reason:
      "ROIC and the revenue scope, not gross margin: XOM tags no operating income, so the snapshot's EBIT is pretax income + interest (FY2019 20,886 M), SimFin's Operating Income is 42,056 M (gross profit less operating expenses; SimFin puts −22,000 M of non-operating items between it and pretax income): median ROIC 14.2% against 24.3%; product durability (worst revenue year −39.1% against −34.2%). SimFin's gross margin (4.3 of 12.5, where the snapshot rules it N/A) lowers its percentage",
  },
];

const SIMFIN_TICKER: Record<string, string> = { GOOGL: 'GOOG' };
/** KNOWN_SPLITS, with GOOGL's also under SimFin's GOOG (one company, the same splits). */
const SPLITS = [
  ...KNOWN_SPLITS,
  ...KNOWN_SPLITS.filter((s) => s.symbol === 'GOOGL').map((s) => ({ ...s, symbol: 'GOOG' })),
];
const companies = new Map<string, { snapshot: Fundamentals; simfin: Fundamentals }>();

const matches = (e: Exception, ticker: string, metric: Exception['metric'], year?: number) =>
  (e.ticker === '*' ||
    e.ticker === ticker ||
    (Array.isArray(e.ticker) && e.ticker.includes(ticker))) &&
  e.metric === metric &&
  (year === undefined || e.years === undefined || e.years.includes(year));

function excepted(ticker: string, metric: Exception['metric'], year?: number): boolean {
  return EXCEPTIONS.some((e) => matches(e, ticker, metric, year));
}

beforeAll(async () => {
  const simfin = createSimfinProvider({
    dir: resolve(SHARED_DATA_DIR, 'fundamentals/raw/simfin_us_annual_2021-04'),
    splits: SPLITS,
  });
  for (const name of readdirSync(COMPANYFACTS_DIR)) {
    const ticker = /^(.+)_CIK\d{10}\.json$/.exec(name)?.[1];
    if (!ticker) continue;
    let other: Fundamentals;
    try {
      other = await simfin.getFundamentals(SIMFIN_TICKER[ticker] ?? ticker);
    } catch {
      continue; // not in the SimFin bulk (BF-B, SPGI, SNOW, UBER)
    }
    const json: unknown = JSON.parse(readFileSync(resolve(COMPANYFACTS_DIR, name), 'utf8'));
    companies.set(ticker, { snapshot: parseCompanyFacts(json, { ticker }), simfin: other });
  }
}, 120_000);

function sharedYears(a: Fundamentals, b: Fundamentals): number[] {
  const years = new Set(b.years.map((y) => y.fiscalYear));
  return a.years.map((y) => y.fiscalYear).filter((y) => years.has(y));
}

function only(f: Fundamentals, years: readonly number[]): Fundamentals {
  return { ...f, years: f.years.filter((y) => years.includes(y.fiscalYear)) };
}

interface Difference {
  readonly ticker: string;
  readonly metric: Metric;
  readonly year: number;
  readonly text: string;
}

/** Every company-year figure that differs by more than 1% (1 pp for gross margin). */
function differences(): Difference[] {
  const out: Difference[] = [];
  for (const [ticker, { snapshot, simfin }] of companies) {
    for (const year of sharedYears(snapshot, simfin)) {
      const a = snapshot.years.find((y) => y.fiscalYear === year) as FiscalYearFigures;
      const b = simfin.years.find((y) => y.fiscalYear === year) as FiscalYearFigures;
      for (const metric of Object.keys(READ) as Metric[]) {
        const [va, vb] = [READ[metric](a), READ[metric](b)];
        if (va === null && vb === null) continue;
        const differs =
          va === null ||
          vb === null ||
          (metric === 'grossMargin'
            ? Math.abs(va - vb) > 0.01
            : Math.abs(va - vb) > 0.01 * Math.abs(va));
        const text = `${ticker} FY${year} ${metric}: snapshot ${va}, SimFin ${vb}`;
        if (differs) out.push({ ticker, metric, year, text });
      }
    }
  }
  return out;
}

describe('snapshot and SimFin agree on every shared company-year', () => {
  it('covers the companies both providers hold', () => {
    expect(companies.size).toBeGreaterThanOrEqual(25);
  });

  it('differ by more than 1% (1 pp for gross margin) only where an exception explains it', () => {
    const unexplained = differences().filter((d) => !excepted(d.ticker, d.metric, d.year));
    expect(unexplained.map((d) => d.text)).toEqual([]);
  });

  it('records no figure exception that no longer applies (every ticker it names differs)', () => {
    const found = differences();
    const stale = EXCEPTIONS.flatMap((e) => {
      if (e.metric === 'verdict') return [];
      const tickers = typeof e.ticker === 'string' ? [e.ticker] : e.ticker;
      return tickers
        .filter(
          (t) =>
            !found.some(
              (d) => (t === '*' || d.ticker === t) && matches(e, d.ticker, d.metric, d.year),
            ),
        )
        .map((t) => `${t} ${e.metric}${e.years ? ` FY${e.years.join(',')}` : ''}`);
    });
    expect(stale).toEqual([]);
  });

  it('give the same verdict band over the shared years, or an exception says why not', () => {
    const unexplained: string[] = [];
    for (const [ticker, { snapshot, simfin }] of companies) {
      const years = sharedYears(snapshot, simfin);
      const [a, b] = [evaluateMoat(only(snapshot, years)), evaluateMoat(only(simfin, years))];
      if (a.verdict !== b.verdict && !excepted(ticker, 'verdict')) {
        unexplained.push(`${ticker}: snapshot ${a.verdict}, SimFin ${b.verdict}`);
      }
    }
    expect(unexplained).toEqual([]);
  });

  it('records no verdict exception that no longer applies', () => {
    const stale = EXCEPTIONS.filter((e) => e.metric === 'verdict').filter((e) => {
      const pair = typeof e.ticker === 'string' ? companies.get(e.ticker) : undefined;
      if (!pair) return true;
      const years = sharedYears(pair.snapshot, pair.simfin);
      return (
        evaluateMoat(only(pair.snapshot, years)).verdict ===
        evaluateMoat(only(pair.simfin, years)).verdict
      );
    });
    expect(stale.map((e) => e.ticker)).toEqual([]);
  });
});

describe('one-off years on the SimFin companies', () => {
  /*
   * MCO EPS FY2010–FY2019 (SimFin net income (common) ÷ diluted shares): FY2016 1.36 (the 864 M
   * settlement with the US Department of Justice and states) between 4.61 and 5.15; set aside, the
   * other nine grow ~14%/yr with R² 0.96 → pass (a warning before, R² 0.38). KO: FY2017 0.27 (tax
   * reform) is set aside too, but KO's EPS still falls over the decade (refranchising its bottlers):
   * a real decline still fails.
   */
  it('MCO passes with FY2016 set aside; KO still fails with FY2017 set aside', async () => {
    const simfin = createSimfinProvider({
      dir: resolve(SHARED_DATA_DIR, 'fundamentals/raw/simfin_us_annual_2021-04'),
    });
    const mco = evaluateMoat(await simfin.getFundamentals('MCO')).criteria[0];
    expect(mco?.value).toContain('FY2016 (1.36) set aside as a one-off');
    expect(mco?.status).toBe('pass');
    const ko = evaluateMoat(await simfin.getFundamentals('KO')).criteria[0];
    expect(ko?.value).toContain('FY2017 (0.27) set aside as a one-off');
    expect(ko?.status).toBe('fail');
  }, 60_000);
});

describe('capex scope on the airline (issue 12)', () => {
  /*
   * DAL FY2010–FY2019: SimFin's capex column (1,592 M in FY2019) scores 23% of net income, the
   * snapshot's gross purchases (4,936 M) 83%. The criterion keeps the figure it is given and says
   * which it is, so a reader of the SimFin evaluation can tell.
   */
  it('says the SimFin capex is net of disposals, and the snapshot one is not', () => {
    const pair = companies.get('DAL');
    if (!pair) throw new Error('DAL missing');
    const capex = (f: Fundamentals) =>
      evaluateMoat(f).criteria.find((c) => c.key === 'capex_efficiency')?.value;
    expect(capex(pair.simfin)).toContain('capex net of disposals in 10 yrs, not gross purchases');
    expect(capex(pair.snapshot)).not.toContain('net of disposals');
  });
});

describe('SimFin EPS on the latest split basis and the price (issue 12)', () => {
  /*
   * NVDA FY2019 on SimFin: 2,796 M ÷ 618 M shares = $4.52 on SimFin's 2021-03-31 basis; with
   * KNOWN_SPLITS (4:1 of 2021-07-20, 10:1 of 2024-06-10) it is $0.1131 and its `filed` is
   * 2024-06-10, so the price of 2026 needs no further split factor (it was 40 before), and the
   * market cap (price × 618 M × 40 shares) is the same either way.
   */
  it('adjusts the EPS once: split factor 1, market cap on 24.7 billion shares', async () => {
    const fundamentals = createFundamentalsProvider({
      provider: 'simfin',
      simfinDir: resolve(SHARED_DATA_DIR, 'fundamentals/raw/simfin_us_annual_2021-04'),
    });
    const { quotes, splitsOf } = createQuoteSource({ provider: 'csv', pricesDir: PRICES_DIR });
    const e = await evaluateCompany('NVDA', {
      fundamentals,
      quotes,
      splitsOf,
      now: () => new Date('2026-08-04T00:00:00Z'),
    });
    expect(e.valuation._splitFactor).toBe(1);
    expect(e.valuation._trailingEps).toBeCloseTo(2_796 / 618 / 40, 6);
    const price = e.valuation._price as number;
    expect(e._marketCap).toBe(Math.round(price * 618_000_000 * 40));
  }, 60_000);
});

import type {
  FxProvider,
  OpenFigiClient,
  PriceHistoryProvider,
  QuoteProvider,
} from '@svc/market-data';
import { createPriceHistory } from '@svc/providers';
import {
  type AccountDataService,
  createAccountDataService,
  createPortfolioService,
  createQuoteService,
  createXrayService,
  type EvaluationFills,
  type EvaluationService,
  type IsinResolver,
  type PortfolioService,
  type QuoteService,
  type XrayService,
} from '@svc/use-cases';

/** The portfolio and quote flows of `@svc/use-cases`, created once per process. */
export interface PortfolioFlows {
  /** Portfolios, holdings, cash, transactions, broker import, revaluation (`createPortfolioService`). */
  readonly portfolios: PortfolioService;
  /** Quotes with their EUR price, cached briefly (`createQuoteService`). */
  readonly quotes: QuoteService;
  /** The whole account as data: export (native, Ghostfolio) and import (`createAccountDataService`). */
  readonly accountData: AccountDataService;
  /** The portfolio moat X-ray over the holdings and the evaluation cache (`createXrayService`). */
  readonly xray: XrayService;
}

/**
 * Creates the portfolio and quote flows once, over one database, quote provider and FX provider
 * (both flows price with the same providers, so a holding's `lastPrice` and `GET /api/quote`
 * agree).
 *
 * @example
 * const portfolio = createPortfolioFlows({ db, quotes: quoteSource.quotes, fx, history, evaluations: moat.evaluations });
 */
export function createPortfolioFlows(options: {
  readonly db: Parameters<typeof createPortfolioService>[0]['db'];
  readonly quotes: QuoteProvider | null;
  readonly fx: FxProvider | null;
  /** Clock; default `() => new Date()`. */
  readonly now?: () => Date;
  /** ISIN → quote symbol for broker imports (`ISIN_SYMBOLS_FILE`). */
  readonly isinSymbols?: IsinResolver;
  /** OpenFIGI's mapping client (`OPENFIGI_URL`); absent or null: instruments resolve offline. */
  readonly openFigi?: Pick<OpenFigiClient, 'map'> | null;
  /**
   * Daily closes for performance figures; default `createPriceHistory(undefined, quotes)` of
   * `@svc/use-cases`: the quote provider when it serves history too, else none.
   */
  readonly history?: PriceHistoryProvider | null;
  /** The cached evaluations the X-ray reads (`moat.evaluations` of `createMoatServices`). */
  readonly evaluations: Pick<EvaluationService, 'cachedMany'>;
  /** Fills the evaluations an X-ray misses, in the background (`createEvaluationFills`). */
  readonly fills?: EvaluationFills;
}): PortfolioFlows {
  const { db, quotes, fx } = options;
  const now = options.now ?? (() => new Date());
  const portfolios = createPortfolioService({
    db,
    quotes,
    fx,
    now,
    ...(options.isinSymbols ? { isinSymbols: options.isinSymbols } : {}),
    ...(options.openFigi ? { openFigi: options.openFigi } : {}),
    history: options.history ?? createPriceHistory(undefined, quotes),
  });
  return {
    portfolios,
    quotes: createQuoteService({ quotes, fx, now }),
    accountData: createAccountDataService({ db, quotes, fx, now }),
    xray: createXrayService({
      holdings: portfolios,
      evaluations: options.evaluations,
      fills: options.fills,
      now,
    }),
  };
}

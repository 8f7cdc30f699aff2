import { Dec, formatDecimal, parseDecimal } from './decimal.js';
import type { DerivedCash, DerivedHolding, DerivedPortfolio } from './derive-holdings.js';
import type { CashPosition, Holding } from './records.js';

/** A quote: `price` per unit as a decimal string in `currency`, observed at `asOf` (ISO 8601). */
export interface Quote {
  readonly price: string;
  readonly currency: string;
  readonly asOf: string;
}

/** Inputs of {@link valueHoldings}. */
export interface ValuationInputs {
  /** Last quote per symbol (the holding's `symbol`). */
  readonly quotes: ReadonlyMap<string, Quote>;
  /**
   * ECB convention: units of the currency per 1 EUR, as decimal strings (`USD → "1.0823"`).
   * `EUR` need not be present (it is 1).
   */
  readonly eurRates: ReadonlyMap<string, string>;
  /** When the valuation is made (ISO 8601); copied to every record. The package reads no clock. */
  readonly valuedAt: string;
  /** Display names per symbol; the symbol is used when absent. */
  readonly names?: ReadonlyMap<string, string>;
  /** Day (`YYYY-MM-DD`) each rate of `eurRates` was published for. */
  readonly eurRateDates?: ReadonlyMap<string, string>;
  /** Largest age in days of a quote before its holding is `stale`. Default {@link MAX_QUOTE_AGE_DAYS}. */
  readonly maxQuoteAgeDays?: number;
  /** Largest age in days of an ECB rate before a position is `stale`. Default {@link MAX_FX_AGE_DAYS}. */
  readonly maxFxAgeDays?: number;
  /**
   * Per currency without a rate: where the rate data ends, appended to the `missing_fx_rate`
   * message ("the ECB file eurofxref-hist.csv ends on 2026-04-13"); the caller knows the source.
   */
  readonly eurRateNotes?: ReadonlyMap<string, string>;
}

/**
 * Largest age of a quote, in days before `valuedAt`, for a holding not to be `stale`: a Friday
 * close still values a holding on the Tuesday after Easter Monday (4 days), one more day of margin.
 */
export const MAX_QUOTE_AGE_DAYS = 5;

/**
 * Largest age of an ECB reference rate, in days before `valuedAt`: the ECB publishes on TARGET
 * business days, and the longest gap (Good Friday to Easter Monday) leaves 4 days without a rate.
 */
export const MAX_FX_AGE_DAYS = 5;

/** A holding's values: a {@link Holding} without the storage ids and its instrument (the service's). */
export type HoldingValues = Omit<Holding, 'id' | 'portfolioId' | 'instrument'>;
/** A cash position's values: a {@link CashPosition} without the storage ids. */
export type CashValues = Omit<CashPosition, 'id' | 'portfolioId'>;

/**
 * Why a position has null values: `missing_quote` (no quote for the symbol), `missing_fx_rate`
 * (no valid EUR rate for a currency needed), `invalid_quote` (price not a decimal string >= 0).
 */
export interface ValuationIssue {
  readonly code: 'missing_quote' | 'missing_fx_rate' | 'invalid_quote';
  /** The holding's symbol; absent for a cash position. */
  readonly symbol?: string;
  readonly currency: string;
  readonly message: string;
}

/** Result of {@link valueHoldings}. */
export interface ValuedPortfolio {
  readonly holdings: HoldingValues[];
  readonly cash: CashValues[];
  /** Sum of the EUR values that could be computed (holdings and cash), decimal string. */
  readonly totalValueEur: string;
  /** `true` when every position has an EUR value, i.e. `issues` is empty. */
  readonly complete: boolean;
  readonly issues: ValuationIssue[];
}

interface HoldingDraft {
  readonly base: DerivedHolding;
  readonly lastPrice: Dec | null;
  readonly marketValueEur: Dec | null;
  readonly costBasisEur: Dec | null;
}

/**
 * Values derived holdings and cash in EUR, in decimal arithmetic.
 *
 * Formulas (all outputs rounded half-even to 10 decimal places; the EUR fields are rounded before
 * P&L, total and weight are computed, so `unrealizedPnlEur = marketValueEur − costBasisEur` holds
 * exactly in the output):
 * - `lastPrice` = quote price, in the holding's currency; a quote in another currency is
 *   cross-converted: `price / rate(quote currency) × rate(holding currency)`;
 * - `marketValue = quantity × lastPrice` (holding currency);
 * - `marketValueEur = marketValue / rate`, where `rate` is the ECB reference rate in units of
 *   currency per 1 EUR (ECB convention: EUR 1 = USD 1.0823);
 * - `costBasisEur`: the holding's own `costBasisEur` when `deriveHoldings` computed it (each
 *   purchase at the rate of its day, so P&L includes the currency effect); otherwise, for callers
 *   without rate history, `costBasis / rate` at the valuation rate;
 * - `priceAsOf`, `fxAsOf`: the quote's instant and the rate's day; `stale` when either is older than
 *   `maxQuoteAgeDays` / `maxFxAgeDays` (defaults {@link MAX_QUOTE_AGE_DAYS}, {@link MAX_FX_AGE_DAYS});
 * - `realizedPnlEur` from `deriveHoldings` (null without rate history);
 * - `unrealizedPnlEur = marketValueEur − costBasisEur`;
 * - `weight = marketValueEur / gross` (fraction 0–1, not percent), where `gross` is the portfolio's
 *   gross EUR value: every holding's `marketValueEur` that could be computed plus the cash
 *   balances that are positive. Negative cash (an overdraft, a margin loan) is a liability, not a
 *   position, so it does not shrink the denominator: with it in, weights could exceed 1 and the
 *   denominator could reach 0 or less. The weights of the valued holdings and positive cash thus
 *   sum to 1 and each lies in [0, 1]. `null` when the holding has no EUR value or `gross` is not
 *   > 0 (nothing valued);
 * - `totalValueEur` stays the net value: every EUR value that could be computed, holdings and
 *   cash, negative cash included.
 *
 * A missing quote leaves `lastPrice`, `marketValue`, `marketValueEur`, `unrealizedPnlEur` and
 * `weight` null (never 0) and adds a {@link ValuationIssue}; a missing FX rate leaves the EUR
 * fields null. Pure: no clock, no I/O; never throws for missing data.
 *
 * @example
 * ```ts
 * const valued = valueHoldings(deriveHoldings(transactions), {
 *   quotes: new Map([['AAPL', { price: '180', currency: 'USD', asOf: '2024-03-01T21:00:00Z' }]]),
 *   eurRates: new Map([['USD', '1.08']]),
 *   valuedAt: '2024-03-02T08:00:00Z',
 * });
 * ```
 */
export function valueHoldings(derived: DerivedPortfolio, inputs: ValuationInputs): ValuedPortfolio {
  const issues: ValuationIssue[] = [];
  const drafts = derived.holdings.map((h) => draftHolding(h, inputs, issues));
  const cashEur = derived.cash.map((c) => cashInEur(c, inputs, issues));
  const holdingsEur = drafts.map((d) => d.marketValueEur);
  const total = sumKnown([...holdingsEur, ...cashEur]);
  const gross = sumKnown([...holdingsEur, ...cashEur.filter((v) => v?.gt(0))]);
  const weightOf = (eur: Dec | null) =>
    eur === null || !gross.gt(0) ? null : formatDecimal(eur.div(gross));
  return {
    holdings: drafts.map((d) => finishHolding(d, inputs, weightOf(d.marketValueEur))),
    cash: derived.cash.map((c, i) => ({
      currency: c.currency,
      amount: c.amount,
      amountEur: nullableFormat(cashEur[i] ?? null),
      valuedAt: inputs.valuedAt,
      fxAsOf:
        c.currency === 'EUR' || cashEur[i] === null
          ? null
          : (inputs.eurRateDates?.get(c.currency) ?? null),
    })),
    totalValueEur: formatDecimal(total),
    complete: issues.length === 0,
    issues,
  };
}

function draftHolding(
  holding: DerivedHolding,
  inputs: ValuationInputs,
  issues: ValuationIssue[],
): HoldingDraft {
  const rate = eurRate(inputs.eurRates, holding.currency);
  if (rate === null) issues.push(missingRate(inputs, holding.currency, holding.symbol));
  const historic = holding.costBasisEur;
  const costBasisEur =
    historic !== undefined
      ? historic === null
        ? null
        : new Dec(historic)
      : rate === null
        ? null
        : round(new Dec(holding.costBasis).div(rate));
  const lastPrice = priceInHoldingCurrency(holding, inputs, issues);
  const marketValueEur =
    lastPrice === null || rate === null
      ? null
      : round(new Dec(holding.quantity).times(lastPrice).div(rate));
  return { base: holding, lastPrice, marketValueEur, costBasisEur };
}

function priceInHoldingCurrency(
  holding: DerivedHolding,
  inputs: ValuationInputs,
  issues: ValuationIssue[],
): Dec | null {
  const { symbol, currency } = holding;
  const quote = inputs.quotes.get(symbol);
  if (quote === undefined) {
    issues.push({ code: 'missing_quote', symbol, currency, message: `no quote for ${symbol}` });
    return null;
  }
  const price = parseDecimal(quote.price);
  if (price === undefined || price.lt(0)) {
    const message = `quote price "${quote.price}" for ${symbol} is not a decimal >= 0`;
    issues.push({ code: 'invalid_quote', symbol, currency, message });
    return null;
  }
  if (quote.currency === currency) return price;
  const from = eurRate(inputs.eurRates, quote.currency);
  const to = eurRate(inputs.eurRates, currency);
  if (from === null || to === null) {
    if (from === null) issues.push(missingRate(inputs, quote.currency, symbol));
    return null;
  }
  return round(price.div(from).times(to));
}

function finishHolding(
  draft: HoldingDraft,
  inputs: ValuationInputs,
  weight: string | null,
): HoldingValues {
  const { base, lastPrice, marketValueEur, costBasisEur } = draft;
  const pnl =
    marketValueEur === null || costBasisEur === null ? null : marketValueEur.minus(costBasisEur);
  const quote = lastPrice === null ? undefined : inputs.quotes.get(base.symbol);
  const fxAsOf = base.currency === 'EUR' ? null : (inputs.eurRateDates?.get(base.currency) ?? null);
  const quoteCurrencyDate =
    quote === undefined || quote.currency === 'EUR'
      ? null
      : (inputs.eurRateDates?.get(quote.currency) ?? null);
  const stale =
    (quote !== undefined &&
      olderThan(quote.asOf, inputs.valuedAt, inputs.maxQuoteAgeDays ?? MAX_QUOTE_AGE_DAYS)) ||
    [fxAsOf, quoteCurrencyDate].some(
      (day) =>
        day !== null && olderThan(day, inputs.valuedAt, inputs.maxFxAgeDays ?? MAX_FX_AGE_DAYS),
    );
  return {
    symbol: base.symbol,
    name: inputs.names?.get(base.symbol) ?? base.symbol,
    quantity: base.quantity,
    averageCost: base.averageCost,
    currency: base.currency,
    lastPrice: nullableFormat(lastPrice),
    marketValue: lastPrice === null ? null : formatDecimal(lastPrice.times(base.quantity)),
    marketValueEur: nullableFormat(marketValueEur),
    costBasisEur: nullableFormat(costBasisEur),
    unrealizedPnlEur: nullableFormat(pnl),
    weight,
    valuedAt: inputs.valuedAt,
    priceAsOf: quote === undefined ? null : instant(quote.asOf),
    fxAsOf,
    stale,
    realizedPnlEur: base.realizedPnlEur ?? null,
  };
}

/** Whether `asOf` (a day or an instant) lies more than `days` days before `valuedAt`. */
function olderThan(asOf: string, valuedAt: string, days: number): boolean {
  const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(asOf) ? `${asOf}T00:00:00Z` : asOf);
  return Number.isNaN(at) || Date.parse(valuedAt) - at > days * 86_400_000;
}

/** A quote's `asOf` as an ISO instant (a day reads as 00:00 UTC). */
function instant(asOf: string): string {
  const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(asOf) ? `${asOf}T00:00:00Z` : asOf);
  return Number.isNaN(at) ? asOf : new Date(at).toISOString();
}

function cashInEur(
  cash: DerivedCash,
  inputs: ValuationInputs,
  issues: ValuationIssue[],
): Dec | null {
  const rate = eurRate(inputs.eurRates, cash.currency);
  if (rate === null) {
    issues.push(missingRate(inputs, cash.currency));
    return null;
  }
  return round(new Dec(cash.amount).div(rate));
}

/** Units of `currency` per 1 EUR; 1 for EUR; `null` when absent or not a decimal > 0. */
function eurRate(rates: ReadonlyMap<string, string>, currency: string): Dec | null {
  const raw = rates.get(currency);
  if (raw === undefined) return currency === 'EUR' ? new Dec(1) : null;
  const rate = parseDecimal(raw);
  return rate?.gt(0) ? rate : null;
}

function missingRate(inputs: ValuationInputs, currency: string, symbol?: string): ValuationIssue {
  const note = inputs.eurRateNotes?.get(currency);
  const message = `no EUR reference rate of ${currency} on ${inputs.valuedAt.slice(0, 10)}${symbol ? ` (needed by ${symbol})` : ''}${note ? `; ${note}` : ''}`;
  return symbol === undefined
    ? { code: 'missing_fx_rate', currency, message }
    : { code: 'missing_fx_rate', symbol, currency, message };
}

/** Sum of the values that are known (null: could not be valued). */
function sumKnown(values: readonly (Dec | null | undefined)[]): Dec {
  return values.reduce<Dec>((sum, v) => (v == null ? sum : sum.plus(v)), new Dec(0));
}

function round(value: Dec): Dec {
  return new Dec(formatDecimal(value));
}

function nullableFormat(value: Dec | null): string | null {
  return value === null ? null : formatDecimal(value);
}

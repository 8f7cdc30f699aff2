import type { CashPosition, Holding, ValuedPortfolio } from '@svc/portfolio';
import type {
  NewCashPosition,
  NewHolding,
  CashPosition as StoredCash,
  Holding as StoredHolding,
} from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { Decimal } from 'decimal.js';
import { pendingInstrument } from './ledger-codec.js';

const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN });

/** The store's rows for the valued positions of one portfolio (`replaceForPortfolio` input). */
export function toStoredPositions(
  valued: ValuedPortfolio,
  instruments: ReadonlyMap<string, Instrument> = new Map(),
): {
  holdings: NewHolding[];
  cash: NewCashPosition[];
} {
  return {
    holdings: valued.holdings.map((h) => ({
      symbol: h.symbol,
      name: h.name,
      quantity: h.quantity,
      averageCost: h.averageCost,
      currency: h.currency,
      lastPrice: h.lastPrice,
      marketValue: h.marketValue,
      marketValueEur: h.marketValueEur,
      costBasisEur: h.costBasisEur,
      unrealizedPnlEur: h.unrealizedPnlEur,
      weight: h.weight,
      valuedAt: h.valuedAt,
      priceAsOf: h.priceAsOf,
      fxAsOf: h.fxAsOf,
      stale: h.stale,
      realizedPnlEur: h.realizedPnlEur,
      instrument: instruments.get(h.symbol) ?? null,
    })),
    cash: valued.cash.map((c) => ({
      currency: c.currency,
      amount: c.amount,
      amountEur: c.amountEur,
      valuedAt: c.valuedAt,
      fxAsOf: c.fxAsOf,
    })),
  };
}

/**
 * A stored holding as the contract publishes it. Rows are only written by the revaluation, which
 * always sets `averageCost` and `valuedAt`; `name` falls back to the symbol.
 *
 * @throws Error when a row lacks `averageCost` or `valuedAt` (written by something else).
 */
export function toHolding(row: StoredHolding): Holding {
  return {
    id: row.id,
    portfolioId: row.portfolioId,
    symbol: row.symbol,
    name: row.name ?? row.symbol,
    quantity: row.quantity,
    averageCost: required(row.averageCost, 'averageCost', row.id),
    currency: row.currency,
    lastPrice: row.lastPrice,
    marketValue: money(row.marketValue),
    marketValueEur: money(row.marketValueEur),
    costBasisEur: money(row.costBasisEur),
    unrealizedPnlEur: money(row.unrealizedPnlEur),
    weight: fixed(row.weight, WEIGHT_SCALE),
    valuedAt: required(row.valuedAt, 'valuedAt', row.id),
    priceAsOf: row.priceAsOf,
    fxAsOf: row.fxAsOf,
    stale: row.stale ?? false,
    realizedPnlEur: money(row.realizedPnlEur),
    instrument: row.instrument ?? pendingInstrument(row.symbol, row.currency, row.name),
  };
}

/** A stored cash position as the contract publishes it; see {@link toHolding}. */
export function toCashPosition(row: StoredCash): CashPosition {
  return {
    id: row.id,
    portfolioId: row.portfolioId,
    currency: row.currency,
    amount: fixed(row.amount, MONEY_SCALE) ?? row.amount,
    amountEur: money(row.amountEur),
    valuedAt: required(row.valuedAt, 'valuedAt', row.id),
    fxAsOf: row.fxAsOf,
  };
}

/**
 * Decimal places of every money amount the API publishes (`marketValue`, `marketValueEur`,
 * `costBasisEur`, `unrealizedPnlEur`, `realizedPnlEur`, cash `amount` and `amountEur`,
 * `totalValueEur`): 2, the minor unit of EUR, USD, CHF, GBP (a JPY amount also shows 2). Always
 * written with exactly 2 places ("1568.76", "-0.50"). Rounded half-even here, at the edge only:
 * the stored values and every computation keep full precision, so `unrealizedPnlEur` may differ
 * from `marketValueEur − costBasisEur` by 0.01.
 * Quantities, `lastPrice` and `averageCost` are published as stored (the broker's precision,
 * at most 10 places), `weight` at {@link WEIGHT_SCALE} places.
 */
export const MONEY_SCALE = 2;

/** Decimal places of `weight` (a fraction 0–1): 6, i.e. 0.0001 %. */
export const WEIGHT_SCALE = 6;

/** `value` rounded half-even to {@link MONEY_SCALE} places, or null. */
export function money(value: string | null): string | null {
  return fixed(value, MONEY_SCALE);
}

/** A plain decimal as the database writes a numeric: sign, integer digits, fraction digits. */
const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d*))?$/;

/**
 * `value` rounded half-even to `places` decimal places and written with exactly that many, zero
 * without a sign ("-0.001" → "0.00"), or null. Works on the digits of the text (a read of 34
 * holdings rounds 200 values; decimal.js objects for each were most of the read's own CPU);
 * anything that is not a plain decimal (an exponent, say) goes through decimal.js. Same answers
 * as `new Decimal(value).toDecimalPlaces(places, ROUND_HALF_EVEN).toFixed(places)`.
 */
function fixed(value: string | null, places: number): string | null {
  if (value === null) return null;
  const parts = PLAIN_DECIMAL.exec(value);
  if (!parts) {
    const rounded = new Dec(value).toDecimalPlaces(places, Dec.ROUND_HALF_EVEN);
    return (rounded.isZero() ? new Dec(0) : rounded).toFixed(places);
  }
  const [, sign, whole = '0', fraction = ''] = parts;
  let digits = whole + fraction.slice(0, places).padEnd(places, '0');
  const rest = fraction.slice(places);
  if (rest !== '' && roundsUp(rest, digits.charCodeAt(digits.length - 1) % 2 === 1)) {
    digits = increment(digits);
  }
  const integer = digits.slice(0, digits.length - places).replace(/^0+(?=\d)/, '') || '0';
  const text = places > 0 ? `${integer}.${digits.slice(digits.length - places)}` : integer;
  return sign === '-' && /[1-9]/.test(digits) ? `-${text}` : text;
}

/** Whether dropping the digits `rest` rounds half-even away from zero (`odd`: the kept last digit). */
function roundsUp(rest: string, odd: boolean): boolean {
  const first = rest.charCodeAt(0);
  if (first !== 53) return first > 53; // '5'
  return odd || /[1-9]/.test(rest.slice(1));
}

/** A string of decimal digits plus one (may grow by a digit). */
function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i -= 1;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return `${digits.slice(0, i)}${String.fromCharCode(digits.charCodeAt(i) + 1)}${'0'.repeat(digits.length - i - 1)}`;
}

function required(value: string | null, field: string, id: string): string {
  if (value === null) throw new Error(`stored position ${id} has no ${field}`);
  return value;
}

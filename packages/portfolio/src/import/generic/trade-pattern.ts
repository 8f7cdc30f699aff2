import { dividedBy } from '../values.js';
import { isCurrencyCode, readCell } from './cells.js';
import type { TradeText } from './trade-text.js';

/**
 * Reads a trade from a text cell with a definition's own pattern (`detailsPattern`): a regular
 * expression (compiled case-insensitive) whose named groups are `quantity` and `price` (numbers
 * with the decimal mark `decimal`), and optionally `currency` (an ISO 4217 code of the price;
 * `GBX`, pence, gives GBP and the price ÷ 100) and `side` (a word looked up, case-insensitive, in
 * `sides`, keys lower case). `undefined` when the pattern does not compile, does not match, or a number of it does
 * not read; a side word `sides` does not list gives no side.
 *
 * @example
 * readTradePattern('Koop 6 @ 79,35 EUR', String.raw`^(?<side>koop|verkoop)\s+(?<quantity>[\d.,]+)\s*@\s*(?<price>[\d.,]+)\s+(?<currency>[A-Z]{3})`, ',', new Map([['koop', 'buy']]))
 * // → { side: 'buy', quantity: '6', price: '79.35', currency: 'EUR' }
 */
export function readTradePattern(
  cell: string,
  pattern: string,
  decimal: '.' | ',',
  sides: ReadonlyMap<string, 'buy' | 'sell'> = new Map(),
): TradeText | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'iu');
  } catch {
    return undefined;
  }
  const groups = regex.exec(cell)?.groups;
  if (groups?.quantity === undefined || groups.price === undefined) return undefined;
  const quantity = readCell(groups.quantity, decimal);
  const read = readCell(groups.price, decimal);
  if (quantity === undefined || read === undefined) return undefined;
  const code = groups.currency?.toUpperCase();
  const pence = code === 'GBX';
  const currency = pence ? 'GBP' : code !== undefined && isCurrencyCode(code) ? code : undefined;
  const side = groups.side === undefined ? undefined : sides.get(groups.side.toLowerCase());
  return {
    quantity,
    price: pence ? dividedBy(read, '100') : read,
    ...(side ? { side } : {}),
    ...(currency ? { currency } : {}),
  };
}

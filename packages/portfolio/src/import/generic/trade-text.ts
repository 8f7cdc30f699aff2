import { sideOf } from './action-words.js';
import { isCurrencyCode, readCell } from './cells.js';

/** A trade written as text in a cell: "Sell 3 @ 139.74 USD", "OPEN BUY 34/42.5658 @ 11.7480". */
export interface TradeText {
  readonly side?: 'buy' | 'sell';
  readonly quantity: string;
  readonly price: string;
  readonly currency?: string;
}

const PATTERN =
  /(?<quantity>\d[\d.,]*)(?:\/\d[\d.,]*)?\s*(?:@|x|à|a|zu je|zu|til|till|por|per|po)\s*(?<price>\d[\d.,]*)\s*(?<currency>[A-Z]{3})?\b/i;

/**
 * Reads a trade from a text cell: the quantity (the filled part of "filled/ordered"), the price
 * after `@` (or "zu je", "à", "x", "til"…), an ISO currency after the price, and the side when a
 * buy or sell word of any language comes before the numbers. `undefined` when the cell holds none.
 */
export function readTradeText(cell: string, decimal: '.' | ','): TradeText | undefined {
  const match = PATTERN.exec(cell);
  const groups = match?.groups;
  if (!match || !groups) return undefined;
  const quantity = readCell(groups.quantity ?? '', decimal);
  const price = readCell(groups.price ?? '', decimal);
  if (quantity === undefined || price === undefined) return undefined;
  const code = groups.currency?.toUpperCase();
  const before = cell.slice(0, match.index).trim();
  const side = before.length > 1 ? sideOf(before) : undefined;
  return {
    quantity,
    price,
    ...(side ? { side } : {}),
    ...(code && isCurrencyCode(code) ? { currency: code } : {}),
  };
}

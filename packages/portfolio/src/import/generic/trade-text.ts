import { sideOf } from './action-words.js';
import { isCurrencyCode, readCell } from './cells.js';

/** A trade written as text in a cell: "Sell 3 @ 139.74 USD", "OPEN BUY 34/42.5658 @ 11.7480". */
export interface TradeText {
  readonly side?: 'buy' | 'sell';
  readonly quantity: string;
  readonly price: string;
  readonly currency?: string;
}

const NUMBER = String.raw`\d[\d.,]*`;
/** "34/42.5658 @ 11.7480", "1 @ 33,9 USD", "1,5 zu je 10,5 EUR" */
const ADJACENT = new RegExp(
  String.raw`(?<quantity>${NUMBER})(?:\/${NUMBER})?\s*(?:@|x|à|a|zu je|zu|til|till|por|per|po)\s*(?<price>${NUMBER})\s*(?<currency>[A-Z]{3})?\b`,
  'i',
);
/** "Compra 6 ISHARES MSCI WOR A@49,785 EUR (IE00B4L5Y983)": the name between quantity and `@` */
const NAMED = new RegExp(
  String.raw`(?<quantity>${NUMBER})\s+[^@\d][^@]{0,60}@\s*(?<price>${NUMBER})\s*(?<currency>[A-Z]{3})?\b`,
  'i',
);

/**
 * Reads a trade from a text cell: the quantity (the filled part of "filled/ordered"; a name may
 * stand between it and `@`), the price after `@` (or "zu je", "à", "x", "til"…), an ISO currency after the price, and the side when a
 * buy or sell word of any language comes before the numbers. `undefined` when the cell holds none.
 */
export function readTradeText(cell: string, decimal: '.' | ','): TradeText | undefined {
  const match = ADJACENT.exec(cell) ?? NAMED.exec(cell);
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

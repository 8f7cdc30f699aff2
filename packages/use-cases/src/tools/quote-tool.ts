import { TickerSymbol } from '@svc/schemas';
import { z } from 'zod';
import { QuoteResult } from '../portfolio/schemas.js';
import { defineTool } from './definition.js';

/** `getQuote {symbol}` (advisor only): the flow of `GET /api/quote`. */
export const getQuote = defineTool({
  name: 'getQuote',
  title: 'Get a quote',
  description: 'The last close of a symbol with its EUR price.',
  input: z.object({ symbol: TickerSymbol }),
  output: QuoteResult.extend({}),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  scopes: ['portfolio:read'],
  surfaces: ['advisor'],
  run: (flows, _actor, { symbol }) => flows.quotes.getQuote(symbol),
  summarize: (quote) => `${quote.symbol} ${quote.price} ${quote.currency}`,
});

import { TickerSymbol } from '@svc/schemas';
import { QuoteResult } from '@svc/use-cases';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonResponse } from '../../openapi.js';
import { errorResponses } from '../../problem.js';

/** Query of `GET /api/quote`. */
export const QuoteQuery = z.object({
  symbol: TickerSymbol.describe(
    'Ticker: 1–10 characters of A–Z, 0–9, "." or "-" (case-insensitive; BRK.B = BRK-B); anything else answers 400',
  ),
});

/**
 * `GET /api/quote?symbol=` (interface spec 4.4, CONTRACT §4), registered at `/api/quote`: the
 * last close of a symbol with its EUR equivalent, briefly cached in memory by the flow. 404
 * `not_found` when the provider has no price for it, 400 for a malformed symbol, 503
 * `upstream_unavailable` when the quote provider fails.
 */
export const quoteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('', {
    config: { auth: 'session' },
    schema: {
      tags: ['portfolio'],
      summary: 'Quote of a symbol: last close, currency, day, source and price in EUR',
      description:
        'Money is a decimal string. `priceEur = price ÷ (currency per EUR)` at the ECB reference rate of `asOf`, rounded half-even to 10 places; null when no rate is available. Answers are cached for about a minute.',
      querystring: QuoteQuery,
      response: {
        200: jsonResponse('The quote', QuoteResult),
        ...errorResponses(404, 503),
      },
    },
    handler: async (request) => app.portfolio.quotes.getQuote(request.query.symbol),
  });
};

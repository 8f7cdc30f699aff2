import { BROKER_FORMAT_LABELS } from '@svc/use-cases';
import type { DocsAddresses, SectionText } from './shared.js';

/** The import modules' names (`BROKER_FORMAT_LABELS`), for the import route's line. */
const BROKERS = Object.values(BROKER_FORMAT_LABELS).join(', ');

/** The `portfolio` section. */
export function portfolio({ baseUrl }: DocsAddresses): SectionText {
  return {
    title: 'Portfolio',
    description: 'Read portfolios, holdings, cash, transactions and quotes.',
    content: {
      summary:
        'Holdings and cash follow from recorded transactions and carry stored EUR values with ' +
        'the instant they were valued (valuedAt). Reads take an optional portfolioId (default: ' +
        'all of your portfolios). Money and quantities are decimal strings, never JSON numbers: ' +
        'money amounts with exactly 2 decimals (e.g. "2492.28", rounded half-even), quantities and ' +
        'prices as the broker gives them, weight with 6 (a fraction 0–1 of the ' +
        "portfolio's gross EUR value: valued holdings plus positive cash). costBasisEur takes each " +
        'purchase at the ECB rate of its day, so unrealizedPnlEur includes the currency effect; ' +
        'priceAsOf and fxAsOf date the values, and stale says the quote or the rate is older than 5 days. ' +
        'A symbol bought in two currencies is two holdings.',
      endpoints: [
        {
          method: 'GET',
          path: '/api/portfolios',
          auth: 'session',
          description: '[{ id, name, baseCurrency, createdAt }]',
        },
        {
          method: 'GET',
          path: '/api/holdings?portfolioId=',
          auth: 'session',
          description:
            '[{ id, portfolioId, symbol, name, quantity, averageCost, currency, lastPrice, marketValue, marketValueEur, costBasisEur, unrealizedPnlEur, realizedPnlEur, weight, valuedAt, priceAsOf, fxAsOf, stale }]',
        },
        {
          method: 'GET',
          path: '/api/cash?portfolioId=',
          auth: 'session',
          description: '[{ id, portfolioId, currency, amount, amountEur, valuedAt, fxAsOf }]',
        },
        {
          method: 'GET',
          path: '/api/transactions?portfolioId=&from=&to=&limit=&cursor=',
          auth: 'session',
          description:
            '{ items: [{ id, portfolioId, type: buy|sell|dividend|deposit|withdrawal|fee|split, symbol?, quantity?, price?, amount?, ratio?, currency, fee?, executedAt, note? }], nextCursor } — newest first; pass nextCursor back as cursor for the next page',
        },
        {
          method: 'POST',
          path: '/api/portfolios',
          auth: 'session',
          description: 'create: { name, baseCurrency? } → 201 Portfolio',
        },
        {
          method: 'DELETE',
          path: '/api/portfolios/{id}',
          auth: 'session',
          description:
            '204; the portfolio goes with its transactions, holdings, cash and changes, at once for every reader; saved column mappings (of the account) stay; 404 if not yours',
        },
        {
          method: 'POST',
          path: '/api/portfolios/{id}/transactions',
          auth: 'session',
          description:
            'record one transaction (buy/sell: symbol, quantity, price; dividend/deposit/withdrawal/fee: amount; split: symbol, ratio) → 201; holdings and cash are re-derived and revalued',
        },
        {
          method: 'POST',
          path: '/api/portfolios/{id}/import?format=&dryRun=&oversell=&accountCurrency=&mapping=&previewToken=&saveMapping=&confirmMapping=',
          auth: 'session',
          description: `broker export (${BROKERS}; detected from the content) as text/csv, application/json or multipart (file part), at most 2 MB → 201 { format, rows, imported, alreadyPresent, skipped, warnings, holdings, cash, importBatchId }; re-importing stores nothing (alreadyPresent); dryRun=1 → 200 with the same answer and failed lines, nothing stored; any bad row → 400 with errors [{ path: "line N", message }] and nothing applied; a file no catalogue definition recognises gets, on a dry run, a preview of the mapper's proposal (a column mapping with its questions in needs, its checks, the holdings, cash and counts confirming it would produce) and a previewToken; a real import with that mapping needs the previewToken (400 otherwise), and a failed check → 400 with errors [{ path: "mapping.checks.<id>", message }] unless confirmMapping=1`,
        },
        {
          method: 'GET',
          path: '/api/portfolios/{id}/xray',
          auth: 'session',
          description:
            'the moat X-ray (also with a personal access token: portfolio:read + moat:read) → { portfolioId, asOf, valueEur, holdings: [{ instrument, weight, valueEur, evaluation?, valuation?, reason? }], bands, unratedWeight, weightedScore, pastSellTrigger, pending, unvalued, concentration }; evaluations from the cache, missing ones filled in the background within the quota (pending); the page is GET /xray/{id}',
        },
        {
          method: 'POST',
          path: '/api/portfolios/{id}/revalue',
          auth: 'session',
          description: 'prices holdings and converts to EUR now; stores and returns the values',
        },
        {
          method: 'PATCH',
          path: '/api/portfolios/{id}/transactions/{transactionId}',
          auth: 'session',
          description:
            'correct a transaction: any of its fields (null removes note or fee) → 200 Transaction; a sale beyond the units held → 409 conflict with transactions [ids], nothing changed',
        },
        {
          method: 'DELETE',
          path: '/api/portfolios/{id}/transactions/{transactionId}',
          auth: 'session',
          description: 'delete a transaction → 204; 409 conflict as above',
        },
        {
          method: 'GET',
          path: '/api/portfolios/{id}/changes?cursor=&limit=',
          auth: 'session',
          description:
            '{ items: [{ id, kind: record|edit|delete|import|revert, at, source: rest|advisor|account-import, summary, transactionCount, revertedBy?, reverts? }], nextCursor } — every write to the ledger, newest first',
        },
        {
          method: 'POST',
          path: '/api/portfolios/{id}/changes/{changeId}/revert',
          auth: 'session',
          description:
            'undo a change → 201 the new revert change: an import loses exactly its rows, an edit gets its old values back, a deleted transaction returns with its id; already reverted, or later changes depend on it → 409 conflict with changes [ids]',
        },
        {
          method: 'GET',
          path: '/api/quote?symbol=KO',
          auth: 'session',
          description: '{ symbol, price, currency, asOf, source, priceEur }',
        },
      ],
      examples: [
        {
          title: 'List portfolios',
          language: 'bash',
          code: `curl -s -b cookies.txt ${baseUrl}/api/portfolios`,
        },
        {
          title: 'Record a buy (cookie-authenticated writes need an Origin header)',
          language: 'bash',
          code:
            `curl -s -b cookies.txt -H 'content-type: application/json' -H 'origin: ${baseUrl}' \\\n` +
            `  -d '{"type":"buy","symbol":"AAPL","quantity":"10","price":"150","fee":"1","currency":"USD","executedAt":"2024-03-01T15:00:00Z"}' \\\n` +
            `  ${baseUrl}/api/portfolios/<id>/transactions`,
        },
        {
          title: 'Holdings of one portfolio',
          language: 'bash',
          code: `curl -s -b cookies.txt '${baseUrl}/api/holdings?portfolioId=<id>'`,
        },
      ],
      notes: [
        'Agents should read portfolio data through MCP (listPortfolios, listHoldings, listCash).',
        'Broker formats: ghostfolio (CSV), revolut, ibkr-trades (auto-detected from the header).',
        "You only ever see your own rows; another user's ids answer 404.",
        'Every write to a ledger is a change you can revert (GET …/changes); agents list them with the MCP tool listPortfolioChanges.',
      ],
    },
  };
}

import type { DocsAddresses, SectionText } from './shared.js';

/** The `portfolio` section. */
export function portfolio({ baseUrl }: DocsAddresses): SectionText {
  return {
    title: 'Portfolio',
    description: 'Read portfolios, holdings, cash, transactions and quotes.',
    content: {
      summary:
        'Holdings and cash follow from recorded transactions and carry stored EUR values with ' +
        'the instant they were valued (valuedAt). Reads take an optional portfolioId (default: ' +
        'all of your portfolios). Money is sent as decimal numbers in the record currency plus EUR.',
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
            '[{ id, portfolioId, symbol, name, quantity, averageCost, currency, lastPrice, marketValue, marketValueEur, costBasisEur, unrealizedPnlEur, weight, valuedAt }]',
        },
        {
          method: 'GET',
          path: '/api/transactions?portfolioId=',
          auth: 'session',
          description:
            '[{ id, portfolioId, type: buy|sell|dividend|deposit|withdrawal|fee|split, symbol?, quantity?, price?, currency, fee?, executedAt, note? }]',
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
          title: 'Holdings of one portfolio',
          language: 'bash',
          code: `curl -s -b cookies.txt '${baseUrl}/api/holdings?portfolioId=<id>'`,
        },
      ],
      notes: [
        'Agents should read portfolio data through MCP (listPortfolios, listHoldings, listCash).',
        'Write routes (create a portfolio, record a transaction, import a broker CSV) are listed in /openapi.json.',
        "You only ever see your own rows; another user's ids answer 404.",
      ],
    },
  };
}

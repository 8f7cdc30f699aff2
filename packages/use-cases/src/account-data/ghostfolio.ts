import { z } from 'zod';
import type { AccountExport, ExportedPortfolio, ExportedTransaction } from './schemas.js';

/**
 * Ghostfolio's activity types (`enum Type` of its `prisma/schema.prisma`) that an export of ours
 * can hold.
 */
const GHOSTFOLIO_TYPES = ['BUY', 'SELL', 'DIVIDEND', 'FEE'] as const;

/** One Ghostfolio activity as its export writes it. */
const GhostfolioActivity = z
  .object({
    accountId: z.string().nullable(),
    comment: z.string().nullable(),
    currency: z.string(),
    dataSource: z.string().describe('YAHOO for a listed symbol, MANUAL for a fee without one'),
    date: z.iso.datetime({ offset: true }),
    fee: z.number(),
    id: z.string(),
    quantity: z.number(),
    symbol: z.string(),
    tags: z.array(z.string()),
    type: z.enum(GHOSTFOLIO_TYPES),
    unitPrice: z.number(),
  })
  .meta({ id: 'GhostfolioActivity' });
type GhostfolioActivity = z.infer<typeof GhostfolioActivity>;

/** One Ghostfolio account (a portfolio of ours) as its export writes it. */
const GhostfolioAccount = z
  .object({
    balance: z
      .number()
      .describe(
        "Cash in the account's currency (the portfolio's base currency; a EUR portfolio's other currencies at their stored EUR value)",
      ),
    balances: z.array(z.object({ date: z.iso.datetime({ offset: true }), value: z.number() })),
    comment: z.string().nullable(),
    currency: z.string(),
    id: z.string(),
    isExcluded: z.boolean(),
    name: z.string(),
    platformId: z.string().nullable(),
    tags: z.array(z.string()),
  })
  .meta({ id: 'GhostfolioAccount' });

/**
 * An account export in Ghostfolio's own shape, so that a user can take their activities to
 * Ghostfolio (its `POST /api/v1/import` reads this document). The shape is the one Ghostfolio's
 * export writes: `ExportResponse` of `libs/common/src/lib/interfaces/responses/
 * export-response.interface.ts` and `ExportService.export` of
 * `apps/api/src/app/export/export.service.ts` (ghostfolio/ghostfolio): `meta { date, version }`,
 * `accounts[]` (`balance`, `balances[{ date, value }]`, `comment`, `currency`, `id`, `isExcluded`,
 * `name`, `platformId`, `tags`), `activities[]` (`accountId`, `comment`, `currency`,
 * `dataSource`, `date`, `fee`, `id`, `quantity`, `symbol`, `tags`, `type`, `unitPrice`),
 * `assetProfiles[]`, `platforms[]`, `tags[]` and `user.settings { currency,
 * performanceCalculationType }`; an example is its `test/import/ok/sample.json`. Amounts are JSON
 * numbers there (Prisma `Float`), so decimals are converted.
 */
export const GhostfolioExport = z
  .object({
    meta: z.object({
      date: z.iso.datetime({ offset: true }),
      version: z.string().describe("This service's version (Ghostfolio writes its own)"),
    }),
    accounts: z.array(GhostfolioAccount),
    activities: z.array(GhostfolioActivity),
    assetProfiles: z.array(z.never()).describe('Always empty: no custom asset profiles here'),
    platforms: z.array(z.never()).describe('Always empty'),
    tags: z.array(z.never()).describe('Always empty'),
    user: z.object({
      settings: z.object({
        currency: z.string().describe('Base currency of the first portfolio, else EUR'),
        performanceCalculationType: z.literal('ROAI'),
      }),
    }),
  })
  .meta({
    id: 'GhostfolioExport',
    description:
      "An account export in Ghostfolio's shape: one account per portfolio, buys, sells, " +
      'dividends and fees as activities (deposits and withdrawals only as the account balance, ' +
      'splits left out: Ghostfolio adjusts for splits from market data)',
  });
export type GhostfolioExport = z.infer<typeof GhostfolioExport>;

const num = (value: string | undefined): number => (value === undefined ? 0 : Number(value));

/** One transaction as a Ghostfolio activity, or null for a type Ghostfolio has none for. */
function activityOf(
  portfolio: ExportedPortfolio,
  tx: ExportedTransaction,
): GhostfolioActivity | null {
  const base = {
    accountId: portfolio.id,
    comment: tx.note ?? null,
    currency: tx.currency,
    date: tx.executedAt,
    id: tx.id,
    tags: [],
  };
  switch (tx.type) {
    case 'buy':
    case 'sell':
      return {
        ...base,
        dataSource: 'YAHOO',
        fee: num(tx.fee),
        quantity: num(tx.quantity),
        symbol: tx.symbol ?? '',
        type: tx.type === 'buy' ? 'BUY' : 'SELL',
        unitPrice: num(tx.price),
      };
    case 'dividend':
      // Ghostfolio's dividend is quantity × unitPrice; ours is one cash amount
      return {
        ...base,
        dataSource: 'YAHOO',
        fee: 0,
        quantity: 1,
        symbol: tx.symbol ?? '',
        type: 'DIVIDEND',
        unitPrice: num(tx.amount),
      };
    case 'fee':
      // as Ghostfolio's own sample: the amount in `fee`, a MANUAL symbol naming it
      return {
        ...base,
        dataSource: tx.symbol === undefined ? 'MANUAL' : 'YAHOO',
        fee: num(tx.amount),
        quantity: 0,
        symbol: tx.symbol ?? tx.note ?? 'Fee',
        type: 'FEE',
        unitPrice: 0,
      };
    case 'deposit':
    case 'withdrawal':
    case 'split':
      return null;
  }
}

/**
 * Maps a native export to {@link GhostfolioExport}: each portfolio becomes an account (its
 * `balance` the portfolio's cash in its base currency, from `cashByPortfolio`: the cash held in
 * that currency, plus, for a EUR portfolio, the stored EUR value of the cash in others), each buy, sell,
 * dividend and fee an activity, oldest first. Deposits and withdrawals have no activity type in
 * Ghostfolio (cash is the account's balance) and splits none either (it adjusts for splits from
 * market data), so they are not activities; the native export keeps everything.
 *
 * @param cashByPortfolio - cash per portfolio id in its base currency (decimal string), if any.
 */
export function toGhostfolioExport(
  native: AccountExport,
  options: { version: string; cashByPortfolio: ReadonlyMap<string, string> },
): GhostfolioExport {
  return {
    meta: { date: native.exportedAt, version: options.version },
    accounts: native.portfolios.map((portfolio) => {
      const balance = num(options.cashByPortfolio.get(portfolio.id));
      return {
        balance,
        balances: [{ date: native.exportedAt, value: balance }],
        comment: null,
        currency: portfolio.baseCurrency,
        id: portfolio.id,
        isExcluded: false,
        name: portfolio.name,
        platformId: null,
        tags: [],
      };
    }),
    activities: native.portfolios.flatMap((portfolio) =>
      portfolio.transactions.flatMap((tx) => activityOf(portfolio, tx) ?? []),
    ),
    assetProfiles: [],
    platforms: [],
    tags: [],
    user: {
      settings: {
        currency: native.portfolios[0]?.baseCurrency ?? 'EUR',
        performanceCalculationType: 'ROAI',
      },
    },
  };
}

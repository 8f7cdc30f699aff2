import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AccountExport, ExportedPortfolio, ExportedTransaction } from './schemas.js';

/**
 * Ghostfolio's activity types (`enum Type` of its `prisma/schema.prisma`) that an export of ours
 * can hold.
 */
const GHOSTFOLIO_TYPES = ['BUY', 'SELL', 'DIVIDEND', 'FEE', 'INTEREST'] as const;

/** One Ghostfolio activity as its export writes it. */
const GhostfolioActivity = z
  .object({
    accountId: z.string().nullable(),
    comment: z.string().nullable(),
    currency: z.string(),
    dataSource: z
      .string()
      .describe(
        'YAHOO for a listed symbol; MANUAL for a fee without one and for interest, whose symbol is then a UUID with an entry in `assetProfiles` (as Ghostfolio requires)',
      ),
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
      leftOut: z
        .object({
          deposits: z.number().int().min(0),
          withdrawals: z.number().int().min(0),
          splits: z.number().int().min(0),
        })
        .describe(
          "Transactions Ghostfolio has no activity for, so not in `activities`: deposits (except interest, exported as INTEREST) and withdrawals are only the accounts' balances; splits Ghostfolio takes from market data",
        ),
      note: z.string().describe('The same in words'),
    }),
    accounts: z.array(GhostfolioAccount),
    activities: z.array(GhostfolioActivity),
    assetProfiles: z
      .array(
        z.object({
          currency: z.string(),
          dataSource: z.literal('MANUAL'),
          isActive: z.boolean(),
          marketData: z.array(z.never()),
          name: z.string(),
          symbol: z.string().describe('A UUID derived from the name and currency'),
        }),
      )
      .describe(
        'One custom (MANUAL) asset profile per fee without an instrument and per interest, named by its note',
      ),
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

type AssetProfile = GhostfolioExport['assetProfiles'][number];

/**
 * A stable UUID for a custom asset profile (`MANUAL` data source): SHA-256 of its kind, name and
 * currency, laid out as an RFC 9562 version-5-style UUID, so that exporting twice names it alike.
 */
function manualSymbol(kind: string, name: string, currency: string): string {
  const hex = createHash('sha256').update(`${kind}\u001f${name}\u001f${currency}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Whether a deposit is interest (the importers note it so). */
function isInterest(tx: ExportedTransaction): boolean {
  return tx.type === 'deposit' && /^interest\b/i.test(tx.note ?? '');
}

/**
 * One transaction as a Ghostfolio activity, or null for a type Ghostfolio has none for; a MANUAL
 * activity adds its asset profile to `profiles` (one per symbol).
 */
function activityOf(
  portfolio: ExportedPortfolio,
  tx: ExportedTransaction,
  profiles: Map<string, AssetProfile>,
): GhostfolioActivity | null {
  const base = {
    accountId: portfolio.id,
    comment: tx.note ?? null,
    currency: tx.currency,
    date: tx.executedAt,
    id: tx.id,
    tags: [],
  };
  const manual = (kind: string, name: string) => {
    const symbol = manualSymbol(kind, name, tx.currency);
    if (!profiles.has(symbol)) {
      profiles.set(symbol, {
        currency: tx.currency,
        dataSource: 'MANUAL',
        isActive: true,
        marketData: [],
        name,
        symbol,
      });
    }
    return { dataSource: 'MANUAL', symbol };
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
      // the amount in `fee`; a fee of an instrument keeps its symbol, any other is a custom
      // asset named by its note (Ghostfolio refuses a free-text MANUAL symbol)
      return {
        ...base,
        ...(tx.symbol === undefined
          ? manual('fee', tx.note ?? 'Fee')
          : { dataSource: 'YAHOO', symbol: tx.symbol }),
        fee: num(tx.amount),
        quantity: 0,
        type: 'FEE',
        unitPrice: 0,
      };
    case 'deposit':
      if (!isInterest(tx)) return null;
      return {
        ...base,
        ...manual('interest', 'Interest'),
        fee: 0,
        quantity: 1,
        type: 'INTEREST',
        unitPrice: num(tx.amount),
      };
    case 'withdrawal':
    case 'split':
      return null;
  }
}

/**
 * Maps a native export to {@link GhostfolioExport}: each portfolio becomes an account (its
 * `balance` the portfolio's cash in its base currency, from `cashByPortfolio`: the cash held in
 * that currency, plus, for a EUR portfolio, the stored EUR value of the cash in others), each buy, sell,
 * dividend and fee an activity, interest (a deposit noted interest) an `INTEREST` activity, in
 * the native export's order. A fee without an instrument and interest are custom assets
 * (`MANUAL`, a UUID symbol with its `assetProfiles` entry), as Ghostfolio's import requires
 * (`import.service.ts`: a MANUAL symbol must be a UUID or start with `GF_`). Other deposits and
 * withdrawals have no activity type in Ghostfolio (cash is the account's balance) and splits none
 * either (it adjusts for splits from market data), so they are not activities; `meta.leftOut`
 * counts them and `meta.note` says so; the native export keeps everything.
 *
 * @param cashByPortfolio - cash per portfolio id in its base currency (decimal string), if any.
 */
export function toGhostfolioExport(
  native: AccountExport,
  options: { version: string; cashByPortfolio: ReadonlyMap<string, string> },
): GhostfolioExport {
  const profiles = new Map<string, AssetProfile>();
  const transactions = native.portfolios.flatMap((p) => p.transactions);
  const leftOut = {
    deposits: transactions.filter((tx) => tx.type === 'deposit' && !isInterest(tx)).length,
    withdrawals: transactions.filter((tx) => tx.type === 'withdrawal').length,
    splits: transactions.filter((tx) => tx.type === 'split').length,
  };
  const activities = native.portfolios.flatMap((portfolio) =>
    portfolio.transactions.flatMap((tx) => activityOf(portfolio, tx, profiles) ?? []),
  );
  return {
    meta: {
      date: native.exportedAt,
      version: options.version,
      leftOut,
      note: `Left out, as Ghostfolio has no activity for them: ${leftOut.deposits} deposit(s) and ${leftOut.withdrawals} withdrawal(s) (each account's balance is its cash), ${leftOut.splits} split(s) (Ghostfolio adjusts for splits from market data). The native export (format=native) keeps everything.`,
    },
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
    activities,
    assetProfiles: [...profiles.values()],
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

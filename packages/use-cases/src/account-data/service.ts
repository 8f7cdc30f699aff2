import { createRepositories } from '@svc/portfolio-store';
import { Decimal } from 'decimal.js';
import type { AccountUser } from '../accounts/ports.js';
import { exportAccount } from './export.js';
import { type GhostfolioExport, toGhostfolioExport } from './ghostfolio.js';
import { type AccountImportDeps, importAccount } from './import.js';
import type { AccountExport, AccountImportResult } from './schemas.js';

/** The formats of an account export: `native` (the default) and `ghostfolio`. */
export const ACCOUNT_EXPORT_FORMATS = ['native', 'ghostfolio'] as const;
/** One of {@link ACCOUNT_EXPORT_FORMATS}. */
export type AccountExportFormat = (typeof ACCOUNT_EXPORT_FORMATS)[number];

/** Dependencies of {@link createAccountDataService}: the database, market data and clock. */
export type AccountDataDeps = AccountImportDeps;

/** Options of {@link AccountDataService.exportAccount}. */
export interface AccountExportOptions {
  /** Default `native`. */
  readonly format?: AccountExportFormat;
  /** The service's version, written as `meta.version` of a Ghostfolio export (Ghostfolio writes its own). */
  readonly version?: string;
}

/**
 * The user's whole account as data (CONTRACT §6): export it (native, or in Ghostfolio's shape)
 * and import a native export into an account. Every call is scoped to the signed-in user.
 *
 * @example
 * const data = createAccountDataService({ db, quotes, fx, now });
 * const snapshot = await data.exportAccount(user, { format: 'native' });
 * await data.importAccount(otherUser.id, snapshot); // { portfolios, transactions, reports }
 */
export function createAccountDataService(deps: AccountDataDeps) {
  return {
    /**
     * Everything of the user as one document: {@link AccountExport} (`native`) or
     * {@link GhostfolioExport} (`ghostfolio`), taken as one consistent snapshot.
     */
    async exportAccount(
      user: AccountUser,
      options: AccountExportOptions = {},
    ): Promise<AccountExport | GhostfolioExport> {
      const native = await exportAccount(deps.db, user, deps.now());
      if ((options.format ?? 'native') === 'native') return native;
      const cash = await createRepositories(deps.db).positions.listCash(user.id);
      const base = new Map(native.portfolios.map((p) => [p.id, p.baseCurrency]));
      const cashByPortfolio = new Map<string, string>();
      for (const position of cash) {
        const currency = base.get(position.portfolioId);
        // in the base currency; other currencies only when that is EUR (their stored EUR value)
        const amount =
          position.currency === currency
            ? position.amount
            : currency === 'EUR'
              ? position.amountEur
              : null;
        if (amount === null) continue;
        const sum = new Decimal(cashByPortfolio.get(position.portfolioId) ?? 0).plus(amount);
        cashByPortfolio.set(position.portfolioId, sum.toString());
      }
      return toGhostfolioExport(native, { version: options.version ?? 'unknown', cashByPortfolio });
    },

    /** Imports a native export into the user's account; see {@link importAccount}. */
    importAccount(userId: string, body: unknown): Promise<AccountImportResult> {
      return importAccount(deps, userId, body);
    },
  };
}

/** The account data flows (see {@link createAccountDataService}). */
export type AccountDataService = ReturnType<typeof createAccountDataService>;

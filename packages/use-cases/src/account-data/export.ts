import { StoredMapping } from '@svc/portfolio';
import { createRepositories, type Executor, type Transaction } from '@svc/portfolio-store';
import { publicUser } from '../accounts/auth-service.js';
import type { AccountUser } from '../accounts/ports.js';
import { decodeTransaction } from '../portfolio/ledger-codec.js';
import { money } from '../portfolio/position-records.js';
import {
  ACCOUNT_EXPORT_FORMAT,
  ACCOUNT_EXPORT_VERSION,
  type AccountExport,
  type ExportedPortfolio,
  type ExportedTransaction,
} from './schemas.js';

/** A stored transaction as exported: the contract's fields, then its name and fingerprint. */
export function exportedTransaction(row: Transaction): ExportedTransaction {
  const tx: ExportedTransaction = decodeTransaction(row);
  if (row.name !== null) tx.name = row.name;
  if (row.fingerprint !== null) tx.fingerprint = row.fingerprint;
  return tx;
}

/**
 * Reads everything of the user into a native {@link AccountExport}, in one `REPEATABLE READ`
 * database transaction, so that the export is one consistent snapshot even while the user (or an
 * advisor proposal) writes: portfolios (oldest first) with every transaction (oldest first),
 * saved reports with their evaluations, saved column mappings, and the metadata of the live
 * personal access tokens (never a secret or hash). Portfolios carry `realizedPnlEur` as listed.
 *
 * @example
 * const snapshot = await exportAccount(database.db, user, new Date());
 */
export async function exportAccount(
  db: Executor,
  user: AccountUser,
  exportedAt: Date,
): Promise<AccountExport> {
  const read = async (trx: Executor): Promise<AccountExport> => {
    const repos = createRepositories(trx);
    const portfolios: ExportedPortfolio[] = [];
    for (const { realizedPnlEur, ...portfolio } of await repos.portfolios.list(user.id)) {
      const rows = await repos.transactions.listAll(user.id, portfolio.id);
      const realized = realizedPnlEur === undefined ? null : money(realizedPnlEur);
      portfolios.push({
        ...portfolio,
        ...(realized === null ? {} : { realizedPnlEur: realized }),
        transactions: rows.reverse().map(exportedTransaction),
      });
    }
    const tokens = await repos.tokens.list(user.id);
    return {
      format: ACCOUNT_EXPORT_FORMAT,
      version: ACCOUNT_EXPORT_VERSION,
      exportedAt: exportedAt.toISOString(),
      user: publicUser(user),
      portfolios,
      reports: await repos.reports.listAll(user.id),
      // A stored mapping that is no longer valid would make the export refuse to import again:
      // it is left out (GET /api/import-mappings lists it as unreadable, for its owner to delete).
      importMappings: (await repos.importMappings.list(user.id)).flatMap((saved) => {
        const mapping = StoredMapping.safeParse(saved.mapping);
        return mapping.success ? [{ ...saved, mapping: mapping.data }] : [];
      }),
      tokens: tokens.map(({ id, name, prefix, createdAt, lastUsedAt, expiresAt, scopes }) => ({
        id,
        name,
        prefix,
        createdAt,
        lastUsedAt,
        expiresAt,
        scopes: scopes as AccountExport['tokens'][number]['scopes'],
      })),
    };
  };
  if (db.isTransaction) return read(db);
  return db.transaction().setIsolationLevel('repeatable read').execute(read);
}

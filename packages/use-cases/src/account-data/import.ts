import { type DerivedPortfolio, type LedgerTransaction, NewTransaction } from '@svc/portfolio';
import {
  createLedgerWrites,
  createRepositories,
  type Executor,
  type LedgerWrites,
  type NewTransaction as StoredNewTransaction,
} from '@svc/portfolio-store';
import type { Instrument } from '@svc/schemas';
import { MoatEvaluation } from '@svc/schemas';
import type { z } from 'zod';
import { type FieldProblem, UseCaseError } from '../errors.js';
import { utcDay } from '../portfolio/decimal-text.js';
import { deriveChecked, fromStoreError } from '../portfolio/ledger.js';
import { encodeTransaction } from '../portfolio/ledger-codec.js';
import {
  gatherMarketInputs,
  historicEurRates,
  type MarketInputs,
  type MarketInputsDeps,
} from '../portfolio/market-inputs.js';
import { ensurePortfolioRoom } from '../portfolio/portfolio-service.js';
import { storeValuation } from '../portfolio/revaluation.js';
import {
  AccountImportInput,
  type AccountImportResult,
  type ExportedPortfolio,
  MAX_IMPORTED_TRANSACTIONS,
} from './schemas.js';

/** What {@link importAccount} needs: the database, the market data and the clock. */
export interface AccountImportDeps extends Omit<MarketInputsDeps, 'marketData'> {
  readonly db: Executor;
  readonly now: () => Date;
}

type Input = z.output<typeof AccountImportInput>;

/** One portfolio of the export, checked and ready to store. */
interface PlannedPortfolio {
  readonly source: ExportedPortfolio;
  readonly rows: StoredNewTransaction[];
  readonly ledger: LedgerTransaction[];
  /** Instrument names per symbol, newest first wins (as a ledger read gives them). */
  readonly names: Map<string, string>;
}

/**
 * Writes the imported rows of one portfolio: the one place an account import stores
 * transactions, as one import batch of the portfolio, journalled as an `import` change of source
 * `account-import` (reverting it removes exactly these rows).
 */
function storeImportedRows(
  writes: LedgerWrites,
  userId: string,
  portfolioId: string,
  rows: readonly StoredNewTransaction[],
  exportedAt: string,
) {
  return writes.insert(userId, portfolioId, rows, {
    kind: 'import',
    source: 'account-import',
    summary: `Imported ${rows.length} transaction(s) from an account export of ${exportedAt}`,
  });
}

const invalid = (message: string, errors: FieldProblem[]) =>
  new UseCaseError('validation_failed', message, { errors: errors.slice(0, 50) });

/** Parses the body; every problem named by its path in the document. */
function parseInput(body: unknown): Input {
  const parsed = AccountImportInput.safeParse(body);
  if (parsed.success) return parsed.data;
  throw invalid(
    'The body is not a native account export (format "moat-portfolio-export", version 1).',
    parsed.error.issues.map((issue) => ({
      path: ['body', ...issue.path.map(String)].join('.'),
      message: issue.message,
    })),
  );
}

/** The fields of an exported transaction its type takes, as `NewTransaction` reads them. */
function newTransactionOf(tx: ExportedPortfolio['transactions'][number]) {
  const { type, symbol, quantity, price, fee, amount, ratio, currency, executedAt, note } = tx;
  const common = { type, currency, executedAt, ...(note === undefined ? {} : { note }) };
  switch (type) {
    case 'buy':
    case 'sell':
      return { ...common, symbol, quantity, price, ...(fee === undefined ? {} : { fee }) };
    case 'dividend':
      return { ...common, symbol, amount };
    case 'deposit':
    case 'withdrawal':
    case 'fee':
      return { ...common, amount, ...(symbol === undefined ? {} : { symbol }) };
    case 'split':
      return { ...common, symbol, ratio };
  }
}

/** The exported instrument of each symbol, the newest transaction's (as a ledger read gives it). */
function instrumentsOf(source: ExportedPortfolio): Map<string, Instrument> {
  const instruments = new Map<string, Instrument>();
  const newestFirst = [...source.transactions].sort(
    (a, b) => Date.parse(b.executedAt) - Date.parse(a.executedAt),
  );
  for (const tx of newestFirst) {
    if (tx.symbol === undefined || tx.instrument === undefined) continue;
    if (instruments.has(tx.symbol)) continue;
    instruments.set(tx.symbol, tx.instrument);
  }
  return instruments;
}

/** Checks one portfolio's transactions and that its ledger holds (no sale beyond the units held). */
function planPortfolio(source: ExportedPortfolio, index: number): PlannedPortfolio {
  const rows: StoredNewTransaction[] = [];
  const ledger: LedgerTransaction[] = [];
  const names = new Map<string, string>();
  const problems: FieldProblem[] = [];
  const fingerprints = new Set<string>();
  source.transactions.forEach((tx, j) => {
    if (tx.fingerprint !== undefined) {
      if (fingerprints.has(tx.fingerprint)) {
        const path = `body.portfolios.${index}.transactions.${j}.fingerprint`;
        problems.push({ path, message: 'a fingerprint appears once per portfolio' });
      }
      fingerprints.add(tx.fingerprint);
    }
    const parsed = NewTransaction.safeParse(newTransactionOf(tx));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = ['body', 'portfolios', index, 'transactions', j, ...issue.path].map(String);
        problems.push({ path: path.join('.'), message: issue.message });
      }
      return;
    }
    rows.push({
      // the exported instrument comes back with it (a user's assignment included, issue 38)
      ...encodeTransaction(parsed.data, parsed.data.symbol ? (tx.instrument ?? null) : null),
      fingerprint: tx.fingerprint ?? null,
      name: tx.name ?? null,
    });
    ledger.push({ ...parsed.data, id: `import:${j}` });
  });
  if (problems.length > 0) throw invalid(`Portfolio ${index} has invalid transactions.`, problems);
  const newestFirst = source.transactions
    .map((tx, j) => ({ tx, j }))
    .sort((a, b) => Date.parse(b.tx.executedAt) - Date.parse(a.tx.executedAt) || b.j - a.j);
  for (const { tx } of newestFirst) {
    if (tx.symbol !== undefined && tx.name !== undefined && !names.has(tx.symbol)) {
      names.set(tx.symbol, tx.name);
    }
  }
  deriveChecked(ledger, `body.portfolios.${index}.transactions`);
  return { source, rows, ledger, names };
}

/** Checks every saved report's evaluation; answers them as the report flow stores them. */
function checkReports(input: Input) {
  const problems: FieldProblem[] = [];
  const reports = input.reports.map((report, i) => {
    const parsed = MoatEvaluation.safeParse(report.evaluation);
    if (!parsed.success) {
      problems.push({ path: `body.reports.${i}.evaluation`, message: 'not a MoatEvaluation' });
    }
    return { report, evaluation: parsed.data };
  });
  if (problems.length > 0) throw invalid('Some reports are not moat reports.', problems);
  return reports;
}

/**
 * Imports a native account export (`AccountExport`) into the user's account, beside what is
 * there: every portfolio, transaction, saved report and column mapping is created anew (new ids;
 * portfolios and reports keep their `createdAt`; a mapping replaces the user's mapping of the same
 * header set). Holdings and cash are derived and valued as of `now()`, as after any write.
 *
 * All or nothing: the body is checked first (shape, every transaction as `NewTransaction`, every
 * ledger without a sale beyond the units held, every report's evaluation), market data is fetched
 * next, outside the database, and then ONE database transaction stores it all (the ledger's
 * writes of `createLedgerWrites`, as `changeLedger` makes them; the portfolios are new in that
 * transaction, so no other writer can see them to lock against); any failure leaves nothing
 * behind. A document whose portfolio the account already holds (same name, base currency and
 * creation instant: an export imported before) is refused, not duplicated.
 *
 * @throws UseCaseError `validation_failed` with `errors` (paths into the document as the request
 *   body, as request validation names them, e.g. `body.portfolios.0.transactions.3.quantity`), at
 *   most 50 listed; `conflict` when the export was imported into this account already.
 */
export async function importAccount(
  deps: AccountImportDeps,
  userId: string,
  body: unknown,
): Promise<AccountImportResult> {
  const input = parseInput(body);
  const total = input.portfolios.reduce((n, p) => n + p.transactions.length, 0);
  if (total > MAX_IMPORTED_TRANSACTIONS) {
    throw invalid(`At most ${MAX_IMPORTED_TRANSACTIONS} transactions are imported at once.`, [
      { path: 'body.portfolios', message: `${total} transactions` },
    ]);
  }
  const planned = input.portfolios.map(planPortfolio);
  const reports = checkReports(input);

  const valuedAt = deps.now();
  const marketDeps = {
    quotes: deps.quotes,
    fx: deps.fx,
    marketData: createRepositories(deps.db).marketData,
  };
  const valuations: { derived: DerivedPortfolio; inputs: MarketInputs }[] = [];
  for (const plan of planned) {
    const eurRateOn = await historicEurRates(marketDeps, plan.ledger);
    const derived = deriveChecked(plan.ledger, 'body.portfolios', { eurRateOn });
    const inputs = await gatherMarketInputs(marketDeps, derived, utcDay(valuedAt));
    valuations.push({ derived, inputs });
  }

  return deps.db
    .transaction()
    .execute(async (trx) => {
      const repos = createRepositories(trx);
      // the same export imported twice: its portfolios (name, base currency and the creation
      // instant they keep) are here already; refused rather than duplicated silently
      const held = await repos.portfolios.list(userId);
      const again = planned.flatMap(({ source }) =>
        held.filter(
          (p) =>
            p.name === source.name &&
            p.baseCurrency === source.baseCurrency &&
            Date.parse(p.createdAt) === Date.parse(source.createdAt ?? ''),
        ),
      );
      if (again.length > 0) {
        throw new UseCaseError(
          'conflict',
          `this export was imported already: the account holds ${again.map((p) => `“${p.name}” (${p.id})`).join(', ')} from it; delete or rename those portfolios to import it again`,
        );
      }
      await ensurePortfolioRoom(repos, userId, planned.length);
      const writes = createLedgerWrites(trx);
      for (const [i, plan] of planned.entries()) {
        const { name, baseCurrency, createdAt } = plan.source;
        const portfolio = await repos.portfolios.create(userId, { name, baseCurrency, createdAt });
        if (plan.rows.length > 0) {
          await storeImportedRows(writes, userId, portfolio.id, plan.rows, input.exportedAt);
        }
        const valuation = valuations[i];
        if (valuation === undefined) continue;
        await storeValuation(
          { repos, writes },
          userId,
          portfolio.id,
          valuation.derived,
          { ...valuation.inputs, valuedAt: valuedAt.toISOString(), names: plan.names },
          instrumentsOf(plan.source),
        );
      }
      for (const { report, evaluation } of reports) {
        await repos.reports.create(userId, {
          symbol: report.symbol,
          evaluation: evaluation as Record<string, unknown>,
          companyName: report.companyName,
          totalScore: report.totalScore,
          maxScore: report.maxScore,
          verdict: report.verdict,
          tags: report.tags,
          createdAt: report.createdAt,
        });
      }
      for (const mapping of input.importMappings) {
        await repos.importMappings.save(userId, mapping, {
          createdAt: mapping.createdAt,
          updatedAt: mapping.updatedAt,
        });
      }
      return { portfolios: planned.length, transactions: total, reports: reports.length };
    })
    .catch((error: unknown) => fromStoreError(error, 'body.portfolios'));
}

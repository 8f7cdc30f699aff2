import { Portfolio, StoredMapping, Transaction } from '@svc/portfolio';
import { Plan, Tags, TickerSymbol } from '@svc/schemas';
import { z } from 'zod';
import { TokenScope } from '../accounts/scopes.js';

/** The `format` marker of a native account export. */
export const ACCOUNT_EXPORT_FORMAT = 'moat-portfolio-export';
/** The schema version of a native account export; a later incompatible shape gets a new one. */
export const ACCOUNT_EXPORT_VERSION = 1;

/** Most portfolios an account import takes: as many as an account holds (MAX_PORTFOLIOS_PER_ACCOUNT). */
export const MAX_IMPORTED_PORTFOLIOS = 200;
/** Most transactions an account import takes, over all its portfolios. */
export const MAX_IMPORTED_TRANSACTIONS = 100_000;
/** Most reports an account import takes. */
export const MAX_IMPORTED_REPORTS = 5_000;

const instant = z.iso.datetime({ offset: true });

/**
 * A transaction as exported: the contract's `Transaction`, plus what the store keeps beside it so
 * that an import gives back the same account: the instrument name a broker import gave (holdings
 * show it) and the import fingerprint (a later import of the same broker file then still finds
 * its rows already present).
 */
export const ExportedTransaction = Transaction.extend({
  name: z.string().max(1000).optional().describe('Instrument name a broker import gave'),
  fingerprint: z
    .string()
    .max(200)
    .optional()
    .describe('Fingerprint of a row imported from a broker file (unique per portfolio)'),
}).meta({ id: 'ExportedTransaction' });
export type ExportedTransaction = z.infer<typeof ExportedTransaction>;

/** A portfolio as exported: the contract's `Portfolio` with every transaction, oldest first. */
export const ExportedPortfolio = Portfolio.extend({
  transactions: z.array(ExportedTransaction).describe('Every transaction, oldest first'),
}).meta({ id: 'ExportedPortfolio' });
export type ExportedPortfolio = z.infer<typeof ExportedPortfolio>;

/** A saved moat report as exported: the summary fields and the evaluation saved. */
export const ExportedReport = z
  .object({
    id: z.string(),
    symbol: TickerSymbol,
    companyName: z.string().max(500).nullable(),
    totalScore: z.number().nullable(),
    maxScore: z.number().nullable(),
    verdict: z.string().max(100).nullable(),
    tags: Tags,
    createdAt: instant,
    evaluation: z
      .record(z.string(), z.unknown())
      .describe('The MoatEvaluation saved (an import checks it is one)'),
  })
  .meta({ id: 'ExportedReport' });
export type ExportedReport = z.infer<typeof ExportedReport>;

/** A column mapping the user saved for broker files of one header set. */
export const ExportedImportMapping = z
  .object({
    id: z.string(),
    headerKey: z.string().min(1).max(200).describe('Key of the header set the mapping reads'),
    headers: z.array(z.string().max(200)).max(200).describe('The header names, as in the file'),
    mapping: StoredMapping.describe(
      'The saved format definition or column mapping (checked like one sent with an import)',
    ),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'ExportedImportMapping' });
export type ExportedImportMapping = z.infer<typeof ExportedImportMapping>;

/** A personal access token's metadata: never its secret nor its hash. */
export const ExportedToken = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('First characters of the token, for recognition'),
    createdAt: instant,
    lastUsedAt: instant.nullable(),
    expiresAt: instant.nullable(),
    scopes: z.array(TokenScope),
  })
  .meta({ id: 'ExportedToken' });

/** The account's owner as exported. */
export const ExportedUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    plan: Plan,
    createdAt: instant,
  })
  .meta({ id: 'ExportedUser' });

/**
 * The native account export (CONTRACT §6, `GET /api/account/export?format=native`): everything a
 * user put in, in one JSON document that `POST /api/account/import` reads back into any account.
 * Holdings, cash and returns are not in it: they follow from the transactions (and the market
 * data of the day), and an import derives them again. Tokens are listed for the record (an
 * import creates none: a secret is never exported).
 */
export const AccountExport = z
  .object({
    format: z.literal(ACCOUNT_EXPORT_FORMAT),
    version: z.literal(ACCOUNT_EXPORT_VERSION),
    exportedAt: instant.describe('When the export was taken'),
    user: ExportedUser,
    portfolios: z.array(ExportedPortfolio),
    reports: z.array(ExportedReport).describe('Saved moat reports, oldest first'),
    importMappings: z.array(ExportedImportMapping).describe('Saved broker column mappings'),
    tokens: z.array(ExportedToken).describe('Personal access tokens, metadata only'),
  })
  .meta({ id: 'AccountExport', description: 'A native export of a whole account' });
export type AccountExport = z.infer<typeof AccountExport>;

/**
 * What `POST /api/account/import` reads: a native {@link AccountExport} (its `user` and `tokens`
 * are not read and may be left out), within the bounds of an import.
 */
export const AccountImportInput = AccountExport.extend({
  user: ExportedUser.partial().optional(),
  tokens: z.array(z.unknown()).optional(),
  portfolios: z.array(ExportedPortfolio).max(MAX_IMPORTED_PORTFOLIOS),
  reports: z.array(ExportedReport).max(MAX_IMPORTED_REPORTS).default([]),
  importMappings: z.array(ExportedImportMapping).max(MAX_IMPORTED_PORTFOLIOS).default([]),
}).meta({
  id: 'AccountImportInput',
  description: 'A native account export to import (user and tokens are ignored)',
});
export type AccountImportInput = z.input<typeof AccountImportInput>;

/** The answer of an account import: how many of each were created. */
export const AccountImportResult = z
  .object({
    portfolios: z.number().int().min(0),
    transactions: z.number().int().min(0),
    reports: z.number().int().min(0),
  })
  .meta({ id: 'AccountImportResult' });
export type AccountImportResult = z.infer<typeof AccountImportResult>;

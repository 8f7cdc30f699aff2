// The user's whole account as data (CONTRACT §6): the native export and its import, and the
// export in Ghostfolio's shape.
export { exportAccount } from './export.js';
export { GhostfolioExport, toGhostfolioExport } from './ghostfolio.js';
export { type AccountImportDeps, importAccount } from './import.js';
export {
  ACCOUNT_EXPORT_FORMAT,
  ACCOUNT_EXPORT_VERSION,
  AccountExport,
  AccountImportInput,
  AccountImportResult,
  ExportedImportMapping,
  ExportedPortfolio,
  ExportedReport,
  ExportedToken,
  ExportedTransaction,
  ExportedUser,
  MAX_IMPORTED_PORTFOLIOS,
  MAX_IMPORTED_REPORTS,
  MAX_IMPORTED_TRANSACTIONS,
} from './schemas.js';
export {
  ACCOUNT_EXPORT_FORMATS,
  type AccountDataDeps,
  type AccountDataService,
  type AccountExportFormat,
  type AccountExportOptions,
  createAccountDataService,
} from './service.js';

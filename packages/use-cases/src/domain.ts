// The domain shapes and helpers the apps' boundaries need, re-exported so that the apps import only
// `@svc/use-cases`, `@svc/service`, `@svc/mcp-server` and `@svc/schemas` (the rule of
// `scripts/dep-graph.mjs --check`): the portfolio records and broker import limits of the REST
// routes, the advisor's stream frames, and the fundamentals tables and errors the CLI prints.
export {
  type AdvisorFrame,
  AdvisorFrameSchema,
  type Attachment,
  GroundingReportSchema,
  type NarrativeEvent,
} from '@svc/advisor';
export {
  createSecFilingsClient,
  FundamentalsError,
  figureMarks,
  formatFigureMarks,
  formatFundamentalsJson,
  formatFundamentalsTable,
  isListableProvider,
  METRIC_ROWS,
} from '@svc/fundamentals-client';
export { MoatScoringError } from '@svc/moat-scoring';
export {
  BROKER_FORMATS,
  CashPosition,
  ColumnMapping,
  DEFAULT_IMPORT_LIMITS,
  decodeBrokerFile,
  Holding,
  NewTransaction,
  Portfolio,
  Transaction,
} from '@svc/portfolio';

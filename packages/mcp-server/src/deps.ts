import type { QuotaService } from '@svc/quota';
import type {
  Actor,
  EvaluationHistoryService,
  ReportService,
  TokenCallRecord,
  TokenScope,
  ToolFlows,
} from '@svc/use-cases';

/**
 * A problem object (RFC 9457, CONTRACT §1) as the app's error mapping produces it: at least
 * `type`, `title`, `status`, `detail` and a stable `code`; more fields (`errors`, `quota`) pass
 * through unchanged.
 */
export interface McpProblem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly [field: string]: unknown;
}

/**
 * Maps anything a tool threw to a problem object. The app passes its own single mapping (apps/api
 * `toProblem`), so REST and MCP report one error the same way (STYLE rule 4).
 */
export type ProblemMapper = (error: unknown) => McpProblem;

/**
 * The flows the tools call, created ONCE per process by the app (the same objects the REST routes
 * and the advisor use) and shared by every per-request server: the `ToolFlows` of the tool
 * definitions, plus what the resources and prompts read.
 */
export interface McpServices extends Omit<ToolFlows, 'history' | 'reports'> {
  /**
   * Kept fresh evaluations, their diffs and cache reads that never fetch
   * (`createEvaluationHistoryService`): tools `getEvaluationHistory`, `compareEvaluations` and
   * the evaluation resources.
   */
  readonly history: ToolFlows['history'] & Pick<EvaluationHistoryService, 'cached'>;
  /** The user's saved-report library (`createReportService`); `get` serves report resources. */
  readonly reports: ToolFlows['reports'] & Pick<ReportService, 'get'>;
  /** Quotas counted in the database (`createQuotaService`). */
  readonly quotas: Pick<QuotaService, 'withQuota'>;
}

/** Name and version the server announces in `initialize` and in the discovery document. */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

/**
 * Records one tool call in the audit log of the caller's token (`createTokenActivity(...).record`
 * of `@svc/use-cases`, bound to the token); awaited before the answer goes out.
 */
export type McpCallAudit = (call: Omit<TokenCallRecord, 'tokenId' | 'userId'>) => Promise<void>;

/** What {@link buildMcpServer} is built from: long-lived flows plus the caller of this request. */
export interface McpServerDeps {
  readonly services: McpServices;
  /** The user the personal access token belongs to; every tool reads and writes only their rows. */
  readonly actor: Actor;
  /**
   * The scopes of the caller's token: `tools/list` shows only the tools they allow, a call
   * outside them answers `insufficient_scope`, and quota spending needs its scope. Default every
   * scope (a server used in-process, without a token).
   */
  readonly scopes?: readonly TokenScope[];
  /** Records every tool call before its answer goes out; default none. */
  readonly audit?: McpCallAudit;
  /** The app's error mapping (see {@link ProblemMapper}). */
  readonly toProblem: ProblemMapper;
  /** Server name and version; default {@link DEFAULT_SERVER_INFO}. */
  readonly info?: McpServerInfo;
}

/** The server identity used when none is given. */
export const DEFAULT_SERVER_INFO: McpServerInfo = { name: 'moat-portfolio', version: '0.1.0' };

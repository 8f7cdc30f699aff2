import type { QuotaService } from '@svc/quota';
import type {
  Actor,
  EvaluationService,
  NarrationService,
  PortfolioService,
  ReportService,
  ScreenerService,
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
 * use) and shared by every per-request server.
 */
export interface McpServices {
  /** Evaluation with cache, quota and one fetch per symbol (`createEvaluationService`). */
  readonly evaluations: Pick<EvaluationService, 'getEvaluation'>;
  /** Indexed SQL over the evaluation cache (`createScreenerService`). */
  readonly screener: Pick<ScreenerService, 'screen'>;
  /** The user's saved-report library (`createReportService`). */
  readonly reports: Pick<ReportService, 'save' | 'list'>;
  /** Stored portfolio reads (`createPortfolioService`). */
  readonly portfolios: Pick<
    PortfolioService,
    'listPortfolios' | 'listHoldings' | 'listCash' | 'getPerformance'
  >;
  /** Quotas counted in the database (`createQuotaService`). */
  readonly quotas: Pick<QuotaService, 'withQuota'>;
  /**
   * The moat narrative flow (`createNarrationService`): the same flow as
   * `POST /api/stock-evaluation/ai`, one `ai_consult` unit per narrative.
   */
  readonly narratives: Pick<NarrationService, 'narrateToMarkdown'>;
}

/** Name and version the server announces in `initialize` and in the discovery document. */
export interface McpServerInfo {
  readonly name: string;
  readonly version: string;
}

/** What {@link buildMcpServer} is built from: long-lived flows plus the caller of this request. */
export interface McpServerDeps {
  readonly services: McpServices;
  /** The user the personal access token belongs to; every tool reads and writes only their rows. */
  readonly actor: Actor;
  /** The app's error mapping (see {@link ProblemMapper}). */
  readonly toProblem: ProblemMapper;
  /** Server name and version; default {@link DEFAULT_SERVER_INFO}. */
  readonly info?: McpServerInfo;
}

/** The server identity used when none is given. */
export const DEFAULT_SERVER_INFO: McpServerInfo = { name: 'moat-portfolio', version: '0.1.0' };

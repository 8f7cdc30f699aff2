import type { AccountInputs, AccountServices } from './accounts.js';

/**
 * Everything the servers are built from, created once by the composition root (`openRuntime`)
 * or a test. Each resource adds its flows here as one field (`moat`, …), created by its own
 * factory; the account services are built last, from the others (`createAccountServices`).
 */
export interface AppDeps extends AccountInputs {
  /**
   * Sessions, personal access tokens (their memo and `authenticate`, the PAT guard's verify),
   * token activity and its purge, the signer and the OIDC client (`createAccountServices`).
   */
  readonly accounts: AccountServices;
}

/**
 * The flows the MCP tools call (`McpServices` of `@svc/mcp-server`), taken from the runtime's
 * dependencies, for every server that mounts the MCP plugin (apps/api and apps/mcp alike).
 */
export function mcpServicesOf(deps: AppDeps) {
  return {
    evaluations: deps.moat.evaluations,
    history: deps.moat.history,
    screener: deps.moat.screener,
    reports: deps.moat.reports,
    portfolios: deps.portfolio.portfolios,
    quotes: deps.portfolio.quotes,
    quotas: deps.quotas,
    narratives: deps.ai.narration,
    xray: deps.portfolio.xray,
  };
}

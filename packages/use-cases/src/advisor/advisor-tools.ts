import type { AdvisorTool, OfflineIntent, ToolOutcome } from '@svc/advisor';
import type { z } from 'zod';
import type { Actor } from '../moat/evaluation-service.js';
import { type AnyToolDefinition, type ToolNameOn, toolsOn } from '../tools/catalog.js';
import type { ToolFlows } from '../tools/definition.js';
import { getMoatEvaluation } from '../tools/moat-tools.js';

/** Who the tools act for, and what the user wrote last (for the fresh-evaluation rule). */
export interface ToolScope {
  readonly actor: Actor;
  /** The content of the last user message of the turn. */
  readonly lastUserMessage: string;
}

/**
 * True when the user's own last message names `symbol` (as a word, any case): only then may the
 * advisor fetch an evaluation that costs the user a `stock_evaluation` unit. A model, or text in
 * an attachment, cannot spend the user's quota on a symbol the user did not ask about.
 */
export function userAskedFor(symbol: string, lastUserMessage: string): boolean {
  const escaped = symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9])${escaped}($|[^A-Za-z0-9])`, 'i').test(lastUserMessage);
}

type AdvisorToolName = ToolNameOn<'advisor'>;

/** The offline asks of `@svc/advisor` each read tool answers (see `AdvisorTool.offline`). */
const OFFLINE: Partial<Record<AdvisorToolName, OfflineIntent>> = {
  listPortfolios: 'portfolios',
  listHoldings: 'holdings',
  listCash: 'cash',
  getMoatEvaluation: 'evaluate',
  listMoatReports: 'reports',
  getPortfolioXray: 'xray',
};

/**
 * The tools whose data a client wrote (a saved report's score, verdict and evaluation are the
 * client's `evaluationJson`): their figures ground nothing in an answer (issue 41).
 */
const CLIENT_WRITTEN: ReadonlySet<AdvisorToolName> = new Set(['listMoatReports']);

/**
 * An advisor-only rule run before a tool: an outcome answers the call instead of the tool;
 * `undefined` lets the tool run.
 */
type Policy = (args: never, flows: ToolFlows, scope: ToolScope) => Promise<ToolOutcome | undefined>;

/** What the model is told when it asked for a fresh evaluation the user did not ask for. */
export const FRESH_NOT_ASKED =
  'This is the cached evaluation: a fresh one costs the user one stock_evaluation unit and the ' +
  'user did not name this symbol; ask the user before evaluating it again.';

/**
 * The fresh-evaluation rule of `getMoatEvaluation`: what the evaluation flow serves without a
 * fetch (the cache, or a fetch under way) is answered at once; a fetch, which costs the user one
 * `stock_evaluation` unit, runs only when the user's last message names the symbol
 * ({@link userAskedFor}). `fresh: true` on a symbol the user did not name answers the cached
 * evaluation when there is one (with {@link FRESH_NOT_ASKED} in `freshNotFetched`), never "not
 * cached"; without one the model is told to ask the user.
 */
async function freshEvaluationRule(
  { symbol, fresh }: z.output<typeof getMoatEvaluation.input>,
  flows: ToolFlows,
  scope: ToolScope,
): Promise<ToolOutcome | undefined> {
  const asked = userAskedFor(symbol, scope.lastUserMessage);
  if (fresh === true && asked) return undefined;
  const served = await flows.evaluations.served(symbol);
  if (served) {
    const summary = getMoatEvaluation.summarize?.(served);
    if (fresh !== true) return { data: served, summary };
    return {
      data: { ...served, freshNotFetched: FRESH_NOT_ASKED },
      summary: `${summary ?? symbol}; not fetched again: the user did not ask for ${symbol}`,
    };
  }
  if (asked) return undefined;
  return {
    data: {
      symbol,
      evaluated: false,
      reason:
        'Not in the cache. A new evaluation costs the user one stock_evaluation unit: ' +
        'ask the user whether to evaluate this symbol.',
    },
    summary: `${symbol}: not cached`,
  };
}

const POLICIES: Partial<Record<AdvisorToolName, Policy>> = {
  getMoatEvaluation: freshEvaluationRule,
};

/**
 * Top-level-strict copies of the inputs (an argument the model invents goes back to it as an
 * error rather than being dropped), made once per process.
 */
const strictInputs = new WeakMap<z.ZodObject, z.ZodObject>();

function strictInput(input: z.ZodObject): z.ZodObject {
  let strict = strictInputs.get(input);
  if (strict === undefined) {
    strict = input.strict();
    strictInputs.set(input, strict);
  }
  return strict;
}

/** One tool definition as an advisor tool bound to `scope.actor`. */
function advisorTool(tool: AnyToolDefinition, flows: ToolFlows, scope: ToolScope): AdvisorTool {
  const name = tool.name as AdvisorToolName;
  const policy = POLICIES[name];
  const offline = OFFLINE[name];
  return {
    name,
    description: tool.description,
    parameters: strictInput(tool.input),
    ...(offline === undefined ? {} : { offline }),
    ...(CLIENT_WRITTEN.has(name) ? { source: 'client' as const } : {}),
    async run(args) {
      const early = await policy?.(args as never, flows, scope);
      if (early !== undefined) return early;
      const answer = await tool.run(flows, scope.actor, args);
      return { data: answer, ...(tool.summarize ? { summary: tool.summarize(answer) } : {}) };
    },
  };
}

/**
 * The advisor's read tools: every tool definition offered on the `advisor` surface
 * (`toolsOn('advisor')`: the same name, description, input schema and flow as on MCP), each bound
 * on the server to `scope.actor` (no argument selects a user; a `portfolioId` of another user
 * answers `not_found` like a missing one), its input strict at the top, its answer the tool's
 * output as the model's data with the definition's summary. Advisor-only policies: the
 * fresh-evaluation rule of `getMoatEvaluation` ({@link freshEvaluationRule}); `listTransactions`
 * returns the newest `TOOL_TRANSACTION_LIMIT` (its definition). The offline asks are marked.
 */
export function buildReadTools(flows: ToolFlows, scope: ToolScope): AdvisorTool[] {
  return toolsOn('advisor').map((tool) => advisorTool(tool, flows, scope));
}

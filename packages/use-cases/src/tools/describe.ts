import { QUOTA_SCOPES } from '../accounts/scopes.js';
import type { AnyToolDefinition } from './catalog.js';

// Prose about the tools, computed from their definitions so that documentation cannot miss a
// tool or a scope: the `/api/docs` MCP section and the README blocks of
// `scripts/generated-docs.mjs` read these.

/** A tool as a call shape: `listHoldings {portfolioId?}`, or the bare name without arguments. */
export function toolSignature(tool: AnyToolDefinition): string {
  const args = Object.entries(tool.input.shape).map(([name, schema]) =>
    (schema as { isOptional(): boolean }).isOptional() ? `${name}?` : name,
  );
  return args.length === 0 ? tool.name : `${tool.name} {${args.join(', ')}}`;
}

/**
 * Which scopes each tool needs, the tools grouped by their scopes in catalogue order, plus what
 * a missing scope hides and what spending a quota needs, e.g. "listPortfolios, listHoldings need
 * portfolio:read; getMoatEvaluation needs moat:read. Without portfolio:values, listHoldings
 * leaves out the money amounts (amountsHidden: true). Spending stock_evaluation (getMoatEvaluation)
 * needs moat:fresh."
 */
export function scopesPerTool(tools: readonly AnyToolDefinition[]): string {
  const groups = new Map<string, string[]>();
  for (const tool of tools) {
    const key = tool.scopes.join(' and ');
    groups.set(key, [...(groups.get(key) ?? []), tool.name]);
  }
  const needs = [...groups].map(
    ([scopes, names]) => `${names.join(', ')} ${names.length === 1 ? 'needs' : 'need'} ${scopes}`,
  );
  const hides = new Map<string, string[]>();
  for (const tool of tools) {
    if (tool.redactUnless === undefined) continue;
    const scope = tool.redactUnless.scope;
    hides.set(scope, [...(hides.get(scope) ?? []), tool.name]);
  }
  const hidden = [...hides].map(
    ([scope, names]) =>
      `Without ${scope}, ${names.join(', ')} leave out the money amounts (amountsHidden: true).`,
  );
  const spends = new Map<string, string[]>();
  for (const tool of tools) {
    for (const quota of tool.spends ?? [])
      spends.set(quota, [...(spends.get(quota) ?? []), tool.name]);
  }
  const spending = [...spends].map(
    ([quota, names]) => `spending ${quota} (${names.join(', ')}) needs ${QUOTA_SCOPES[quota]}`,
  );
  return [
    `${needs.join('; ')}.`,
    ...hidden,
    ...(spending.length > 0 ? [`${spending.join('; ')}.`.replace(/^s/, 'S')] : []),
  ].join(' ');
}

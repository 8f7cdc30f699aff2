import { describe, expect, it } from 'vitest';
import { READ_ONLY_TOKEN_SCOPES } from '../accounts/scopes.js';
import {
  DEFAULT_TOKEN_SCOPES,
  SPEC_MCP_TOOLS,
  scopesToUse,
  TOOL_DEFINITIONS,
  toolsOn,
} from './catalog.js';

const byName = (name: string) => {
  const tool = TOOL_DEFINITIONS.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
};

describe('the default scopes of a token minted without scopes', () => {
  it('names the eight tools of interface spec §4.5, each offered over MCP', () => {
    expect([...SPEC_MCP_TOOLS].sort()).toEqual(
      [
        'generateMoatNarrative',
        'getMoatEvaluation',
        'listCash',
        'listHoldings',
        'listMoatReports',
        'listPortfolios',
        'saveMoatReport',
        'screenMoat',
      ].sort(),
    );
    const mcp = toolsOn('mcp').map((t) => t.name);
    for (const name of SPEC_MCP_TOOLS) expect(mcp).toContain(name);
  });

  it('covers every scope those tools need, show amounts with, or spend quota under', () => {
    for (const name of SPEC_MCP_TOOLS) {
      const tool = byName(name);
      for (const scope of tool.scopes) expect(DEFAULT_TOKEN_SCOPES).toContain(scope);
      if (tool.redactUnless) expect(DEFAULT_TOKEN_SCOPES).toContain(tool.redactUnless.scope);
    }
    // the spec: fresh fetches and narratives consume quotas "as in the web application"
    expect(DEFAULT_TOKEN_SCOPES).toContain('moat:fresh');
    expect(DEFAULT_TOKEN_SCOPES).toContain('ai:consult');
    // listHoldings "with stored EUR values"
    expect(DEFAULT_TOKEN_SCOPES).toContain('portfolio:values');
  });

  it('counts redaction and spending scopes, and what they need', () => {
    expect(scopesToUse([byName('listHoldings')])).toEqual(['portfolio:read', 'portfolio:values']);
    expect(scopesToUse([byName('getMoatEvaluation')])).toEqual(['moat:read', 'moat:fresh']);
    expect(scopesToUse([byName('screenMoat')])).toEqual(['moat:read']);
    expect(scopesToUse([])).toEqual([]);
  });

  it('keeps the narrow read-only choice for people minting by hand', () => {
    expect(READ_ONLY_TOKEN_SCOPES).toEqual(['portfolio:read', 'moat:read']);
    expect(DEFAULT_TOKEN_SCOPES.length).toBeGreaterThan(READ_ONLY_TOKEN_SCOPES.length);
  });
});

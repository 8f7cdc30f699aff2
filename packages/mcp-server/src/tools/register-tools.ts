import { toolsOn } from '@svc/use-cases';
import type { McpServerDeps } from '../deps.js';
import type { ToolRegistry } from '../tool-registry.js';
import { runTool } from '../tool-result.js';

/**
 * Registers every tool offered on the `mcp` surface (`toolsOn('mcp')` of `@svc/use-cases`, in
 * catalogue order: interface spec 4.5's eight, the evaluation-history tools of issue 21,
 * `getPortfolioPerformance` of issue 20), each one flow call for the token's user
 * (`tool.run(services, actor, args, call)`, the call's token call passed down as an argument),
 * its answer or mapped problem shaped by {@link runTool}.
 * A new tool is a definition in `@svc/use-cases` `src/tools/`, not code here.
 */
export function registerTools(server: ToolRegistry, deps: McpServerDeps): void {
  const { services, actor, toProblem } = deps;
  for (const tool of toolsOn('mcp')) {
    server.registerTool(tool, (args, call) =>
      runTool(toProblem, () => tool.run(services, actor, args, call)),
    );
  }
}

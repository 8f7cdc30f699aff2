import { PROBLEM_CODES, QuotaName } from '@svc/schemas';
import { z } from 'zod';

/** The seven documentation sections of interface spec §4.1, in reading order. */
export const DOCS_SECTION_IDS = [
  'overview',
  'authentication',
  'mcp',
  'desktop-client',
  'advisor-moat',
  'advisor-chat',
  'portfolio',
] as const;

/** One of {@link DOCS_SECTION_IDS}. */
export type DocsSectionId = (typeof DOCS_SECTION_IDS)[number];

const Endpoint = z
  .object({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    path: z.string(),
    auth: z.enum(['none', 'session', 'bearer']).describe('What the call needs'),
    description: z.string(),
  })
  .meta({ id: 'DocsEndpoint' });

const Example = z
  .object({
    title: z.string(),
    language: z.enum(['bash', 'json', 'http', 'text']),
    code: z.string(),
  })
  .meta({ id: 'DocsExample' });

/** The content object of a docs section: a summary plus the parts that section needs. */
export const DocsContent = z
  .object({
    summary: z.string(),
    steps: z.array(z.string()).optional().describe('What to do, in order'),
    endpoints: z.array(Endpoint).optional(),
    examples: z.array(Example).optional(),
    streamFrames: z
      .array(z.object({ frame: z.string(), meaning: z.string() }))
      .optional()
      .describe('Server-sent event frames, as sent on the wire'),
    errors: z
      .array(
        z.object({ code: z.enum(PROBLEM_CODES), status: z.number().int(), meaning: z.string() }),
      )
      .optional()
      .describe('Problem codes'),
    quotas: z
      .array(z.object({ name: QuotaName, consumedBy: z.string() }))
      .optional()
      .describe('Quotas involved (limits per plan: GET /api/auth/session)'),
    mcpClientConfig: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('A ready-to-paste MCP client configuration'),
    notes: z.array(z.string()).optional(),
  })
  .meta({ id: 'DocsContent' });

/** A docs section payload (interface spec §4.1). */
export const DocsSection = z
  .object({
    id: z.enum(DOCS_SECTION_IDS),
    title: z.string(),
    description: z.string(),
    url: z.url().describe('Absolute address of this section'),
    content: DocsContent,
  })
  .meta({ id: 'DocsSection' });

/** The docs index (CONTRACT §4). */
export const DocsIndex = z
  .object({
    title: z.string(),
    version: z.string().describe('The OpenAPI description version'),
    sections: z.array(z.object({ id: z.enum(DOCS_SECTION_IDS), title: z.string(), url: z.url() })),
    discovery: z.object({
      openapi: z.url().describe('{base_url}/openapi.json'),
      mcpDiscovery: z.url().describe('{base_url}/.well-known/mcp.json'),
      mcpServer: z.url().describe('{base_url}/api/mcp/user'),
    }),
  })
  .meta({ id: 'DocsIndex' });

/** A docs section payload. */
export type DocsSection = z.infer<typeof DocsSection>;
/** A docs section content object. */
export type DocsContent = z.infer<typeof DocsContent>;

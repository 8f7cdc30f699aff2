import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DOCS_SECTION_IDS, DocsIndex, DocsSection, type DocsSectionId } from '../../docs/schema.js';
import { sectionText } from '../../docs/sections/index.js';
import { jsonResponse, OPENAPI_VERSION } from '../../openapi.js';
import { ApiError, errorResponses } from '../../problem.js';

const isSection = (value: string): value is DocsSectionId =>
  (DOCS_SECTION_IDS as readonly string[]).includes(value);

/** `GET /api/docs` and `GET /api/docs/{section}` (interface spec §4.1): public, no session. */
export const docsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { baseUrl, accountUrl } = app.config;
  const addresses = { baseUrl, accountUrl };
  const urlOf = (id: DocsSectionId) => `${baseUrl}/api/docs/${id}`;

  app.get('', {
    schema: {
      tags: ['docs'],
      summary: 'Index of the integration sections and discovery addresses',
      response: {
        200: jsonResponse('Sections and discovery addresses', DocsIndex),
        ...errorResponses(),
      },
    },
    handler: async () => ({
      title: 'Moat evaluation and portfolio service: integration guide',
      version: OPENAPI_VERSION,
      sections: DOCS_SECTION_IDS.map((id) => ({
        id,
        title: sectionText(id, addresses).title,
        url: urlOf(id),
      })),
      discovery: {
        openapi: `${baseUrl}/openapi.json`,
        mcpDiscovery: `${baseUrl}/.well-known/mcp.json`,
        mcpServer: `${baseUrl}/api/mcp/user`,
      },
    }),
  });

  app.get('/:section', {
    schema: {
      tags: ['docs'],
      summary: 'One documentation section',
      params: z.object({
        section: z
          .string()
          .max(64)
          .describe(`One of: ${DOCS_SECTION_IDS.join(', ')}`),
      }),
      response: { 200: jsonResponse('The section', DocsSection), ...errorResponses(404) },
    },
    handler: async (request) => {
      const { section } = request.params;
      if (!isSection(section)) {
        throw new ApiError('not_found', `Unknown docs section "${section}"; see /api/docs.`);
      }
      const text = sectionText(section, addresses);
      return {
        id: section,
        title: text.title,
        description: text.description,
        url: urlOf(section),
        content: text.content,
      };
    },
  });
};

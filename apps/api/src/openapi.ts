import { z } from 'zod';

/** `info.version` of the published OpenAPI document (interface spec §9). */
export const OPENAPI_VERSION = '2.5.33';

/** Security scheme names used in route schemas and the document's components. */
export const SECURITY = {
  /** The `service_session` cookie (a JWT). */
  session: 'sessionCookie',
  /** `Authorization: Bearer svc_pat_...` (MCP only). */
  bearer: 'personalAccessToken',
} as const;

/**
 * The challenge of every REST 401 (RFC 9110 §11.6.1 requires one): the session is a cookie set by
 * signing in, so the scheme is `Cookie` (as in draft-broyer-http-cookie-auth), naming the cookie
 * and the sign-in endpoint. The MCP endpoint answers its own `Bearer` challenge.
 */
export const SESSION_CHALLENGE =
  'Cookie realm="moat-portfolio", cookie-name="service_session", form-action="/api/auth/login"';

/** The description of the API in the OpenAPI document. */
export const API_DESCRIPTION = [
  'Portfolio tracking and durable-competitive-advantage ("moat") evaluation of listed companies',
  'from SEC filings. Output is informational only and is not financial advice.',
  '',
  'Authentication: REST data endpoints need the `service_session` cookie (a JWT issued by',
  '`POST /api/auth/login`, `POST /api/auth/register` or the OpenID Connect flow). State-changing',
  'cookie requests must send an `Origin` (or `Referer`) of this service. Personal access tokens',
  '(`Authorization: Bearer svc_pat_...`) are for the MCP server only.',
  '',
  'Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`;',
  '429 answers carry `Retry-After` in seconds. A 401 carries',
  `\`WWW-Authenticate: ${SESSION_CHALLENGE}\`. A documented path asked with a method it does`,
  'not have answers 405 `method_not_allowed` with `Allow`. Streams (`text/event-stream`) are',
  'documented on their routes and under `/api/docs`. String lengths (`minLength`, `maxLength`)',
  'count Unicode code points, as JSON Schema does (an emoji is one). Text anywhere in a request',
  '(a JSON string or key, a query or path value, an uploaded file) that holds U+0000 or an',
  'unpaired UTF-16 surrogate answers 400 `validation_failed`: the database cannot store it.',
].join('\n');

/** OpenAPI security scheme objects. */
export const SECURITY_SCHEMES = {
  [SECURITY.session]: {
    type: 'apiKey',
    in: 'cookie',
    name: 'service_session',
    description: 'Session JWT set by login/register/OIDC; HttpOnly, SameSite=Lax',
  },
  [SECURITY.bearer]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svc_pat_<43 base64url characters>',
    description: 'Personal access token minted at /account/developer; MCP server only',
  },
} as const;

/**
 * Declares a `text/event-stream` response for OpenAPI (narrative and advisor streams, CONTRACT
 * §4). The body is documented as a string whose frames `description` explains; when `frame` is
 * given, the JSON Schema of the JSON carried by each `data:` line is attached to the string
 * schema as `x-sse-data` (OpenAPI 3.1 has no keyword for event items). The handler writes the
 * stream itself, so no serializer runs.
 *
 * @example
 * response: { 200: eventStreamResponse('data: "<markdown chunk>" ... then event: done') }
 */
export function eventStreamResponse(description: string, frame?: Record<string, unknown>) {
  const schema = z.string().describe('Server-sent events; see the route description for frames');
  return {
    description,
    content: {
      'text/event-stream': {
        schema: frame === undefined ? schema : schema.meta({ 'x-sse-data': frame }),
      },
    },
  };
}

/**
 * Declares a JSON success response with a description (OpenAPI response objects need one;
 * a bare schema would be documented as "Default Response").
 *
 * @example
 * response: { 200: jsonResponse('The signed-in user', UserEnvelope) }
 */
export function jsonResponse<S extends z.ZodType>(description: string, schema: S) {
  return { description, content: { 'application/json': { schema } } };
}

import { z } from 'zod';
import { UseCaseError } from '../errors.js';

/**
 * The scopes of a personal access token, each a right of the agent that holds it:
 * - `portfolio:read`: portfolios, holdings and cash positions with quantities and weights;
 * - `portfolio:values`: their money amounts as well (prices, costs, market values, P&L, cash
 *   balances); without it those fields are left out;
 * - `moat:read`: cached evaluations, the screener and the saved reports;
 * - `moat:fresh`: fetching an evaluation, which spends the `stock_evaluation` quota;
 * - `ai:consult`: narratives, which spend the `ai_consult` quota;
 * - `reports:write`: saving reports to the user's library.
 */
export const TOKEN_SCOPES = [
  'portfolio:read',
  'portfolio:values',
  'moat:read',
  'moat:fresh',
  'ai:consult',
  'reports:write',
] as const;

/** One of {@link TOKEN_SCOPES}. */
export const TokenScope = z
  .enum(TOKEN_SCOPES)
  .meta({ id: 'TokenScope' })
  .describe(
    'A right of a personal access token: portfolio:read, portfolio:values (money amounts, needs ' +
      'portfolio:read), moat:read, moat:fresh (spends stock_evaluation, needs moat:read), ' +
      'ai:consult (spends ai_consult, needs moat:read), reports:write (needs moat:read)',
  );
/** One of {@link TOKEN_SCOPES}. */
export type TokenScope = z.infer<typeof TokenScope>;

/**
 * What each scope needs besides itself: amounts are amounts of the holdings one may read, a fresh
 * evaluation, a narrative and a saved report are all made of evaluations one may read.
 */
export const SCOPE_NEEDS: Readonly<Record<TokenScope, readonly TokenScope[]>> = {
  'portfolio:read': [],
  'portfolio:values': ['portfolio:read'],
  'moat:read': [],
  'moat:fresh': ['moat:read'],
  'ai:consult': ['moat:read'],
  'reports:write': ['moat:read'],
};

/**
 * The narrow choice the developer page ticks for a person minting a token by hand: read-only, no
 * money amounts, no quota spent (least privilege, chosen). A token minted through the API without
 * `scopes` gets `DEFAULT_TOKEN_SCOPES` instead (`tools/catalog.ts`: what the spec's tools need).
 */
export const READ_ONLY_TOKEN_SCOPES: readonly TokenScope[] = ['portfolio:read', 'moat:read'];

/** The scope a quota's spending needs (a quota not listed needs none). */
export const QUOTA_SCOPES: Readonly<Record<string, TokenScope>> = {
  stock_evaluation: 'moat:fresh',
  ai_consult: 'ai:consult',
};

/**
 * The scopes with everything they need added ({@link SCOPE_NEEDS}), without duplicates, in the
 * order of {@link TOKEN_SCOPES}.
 *
 * @example
 * withNeededScopes(['reports:write']); // ['moat:read', 'reports:write']
 */
export function withNeededScopes(scopes: readonly TokenScope[]): TokenScope[] {
  const wanted = new Set<TokenScope>();
  for (const scope of scopes) {
    wanted.add(scope);
    for (const needed of SCOPE_NEEDS[scope]) wanted.add(needed);
  }
  return TOKEN_SCOPES.filter((scope) => wanted.has(scope));
}

/** The scopes of `required` that `granted` lacks, in the order of `required`. */
export function missingScopes(
  granted: ReadonlySet<string> | readonly string[],
  required: readonly TokenScope[],
): TokenScope[] {
  const has = granted instanceof Set ? granted : new Set(granted as readonly string[]);
  return required.filter((scope) => !has.has(scope));
}

/** The known scopes among stored strings (a scope no longer known grants nothing). */
export function knownScopes(stored: readonly string[]): TokenScope[] {
  return TOKEN_SCOPES.filter((scope) => stored.includes(scope));
}

/**
 * The `insufficient_scope` error (RFC 6750 §3.1) for `missing` scopes: 403 with
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` over HTTP, and the problem of
 * a failed MCP call (its `detail` and `scope` name the missing scopes).
 *
 * @param what - What was refused, for the detail (e.g. `the tool saveMoatReport`).
 */
export function insufficientScope(
  missing: readonly TokenScope[],
  what: string,
  realm?: string,
): UseCaseError {
  const scope = missing.join(' ');
  const challenge = [
    ...(realm === undefined ? [] : [`realm="${realm}"`]),
    'error="insufficient_scope"',
    `scope="${scope}"`,
  ].join(', ');
  return new UseCaseError(
    'insufficient_scope',
    `This token lacks the scope ${scope} needed for ${what}; mint a token with it at /account/developer.`,
    { scope, headers: { 'www-authenticate': `Bearer ${challenge}` } },
  );
}

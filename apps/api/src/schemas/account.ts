import { EmailAddress, NOT_BLANK, numberFromText, Plan, QuotaUsage } from '@svc/schemas';
import {
  ACTIVITY_PAGE_DEFAULT,
  ACTIVITY_PAGE_MAX,
  DEFAULT_TOKEN_SCOPES,
  READ_ONLY_TOKEN_SCOPES,
  TokenScope,
} from '@svc/use-cases';
import { z } from 'zod';

/** A signed-in user as the API shows it (never a password hash). */
export const User = z
  .object({
    id: z.uuid().describe('User id'),
    email: z.email().describe('Lower-cased e-mail address (sign-up accepts only EmailAddress)'),
    name: z.string().nullable().describe('Display name'),
    plan: Plan,
    createdAt: z.iso
      .datetime({ offset: true })
      .describe('ISO 8601 instant the account was created'),
  })
  .meta({ id: 'User', description: 'A user account' });

/** `{ user }`, the answer of register and login. */
export const UserEnvelope = z.object({ user: User }).meta({ id: 'UserEnvelope' });

/** `GET /api/auth/session`: the user, plan and quotas. */
export const SessionInfo = z
  .object({
    user: User,
    plan: Plan,
    quotas: z.array(QuotaUsage),
  })
  .meta({ id: 'SessionInfo', description: 'The current session: user, plan and quota usage' });

/** A new password, at sign-up or on a change: length per NIST SP 800-63B (at least 8). */
const NewPassword = z.string().min(8).max(512);

/** Registration body (CONTRACT §2). Password length per NIST SP 800-63B (at least 8). */
export const RegisterBody = z
  .object({
    email: EmailAddress.describe('E-mail address; stored lower-cased'),
    password: NewPassword.describe('At least 8 characters'),
    name: z.string().trim().min(1).max(100).optional().describe('Display name'),
  })
  .meta({ id: 'RegisterBody' });

/** Body of `POST /api/auth/password` (CONTRACT §6): the new password follows sign-up's rules. */
export const ChangePasswordBody = z
  .object({
    currentPassword: z.string().min(1).max(512).describe('The password the account has now'),
    newPassword: NewPassword.describe('At least 8 characters, at most 512 (as at sign-up)'),
  })
  .meta({ id: 'ChangePasswordBody' });

/** Body of `DELETE /api/account` (CONTRACT §6). */
export const EraseAccountBody = z
  .object({
    password: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .describe(
        "The account's password; required when it has one. An account without a password (OIDC) needs a sign-in in the last 10 minutes instead",
      ),
  })
  .meta({ id: 'EraseAccountBody' });

/**
 * Login body (CONTRACT §2). The e-mail is any address (at most 254 characters), not only what
 * sign-up accepts today, so that an account made under an older rule can still sign in; an
 * unknown address answers 401 like a wrong password.
 */
export const LoginBody = z
  .object({
    email: z.email().max(254).describe('The e-mail address the account was registered with'),
    password: z.string().min(1).max(512),
  })
  .meta({ id: 'LoginBody' });

/** A personal access token as listed: never the secret. */
export const TokenSummary = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe('First characters of the token (svc_pat_ + 6), for recognition'),
    createdAt: z.iso.datetime({ offset: true }),
    lastUsedAt: z.iso.datetime({ offset: true }).nullable().describe('Last successful use'),
    expiresAt: z.iso.datetime({ offset: true }).nullable().describe('Expiry; null = never'),
    scopes: z.array(TokenScope).describe("The token's scopes"),
  })
  .meta({ id: 'TokenSummary' });

/** The scopes asked for at minting or in a change: at least one; what they need is added. */
const WantedScopes = z
  .array(TokenScope)
  .min(1)
  .max(12)
  .describe(
    'Scopes of the token; the scopes they need are added (portfolio:values → portfolio:read; ' +
      'moat:fresh, ai:consult and reports:write → moat:read)',
  );

/** Body of `POST /api/account/tokens`. */
export const MintTokenBody = z
  .object({
    name: z
      .string()
      // the pattern puts "not blank" in the document, where trim() alone does not show
      .regex(NOT_BLANK, 'must not be blank')
      .trim()
      .min(1)
      .max(100)
      .describe('A label, e.g. the MCP client using it; not blank'),
    expiresInDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .optional()
      .describe('Lifetime in days (1 to 365); default 90'),
    scopes: WantedScopes.optional().describe(
      `Scopes of the token; without it, every scope the interface spec's eight MCP tools need ` +
        `(${DEFAULT_TOKEN_SCOPES.join(' ')}: portfolio reads with amounts, fresh evaluations and ` +
        'narratives spending your quotas, saving reports). Name fewer for a narrower token, e.g. ' +
        `${READ_ONLY_TOKEN_SCOPES.join(' ')} (read-only, no amounts, no quota). The scopes they need are added`,
    ),
  })
  .meta({ id: 'MintTokenBody' });

/** Body of `PATCH /api/account/tokens/{id}`. */
export const UpdateTokenBody = z.object({ scopes: WantedScopes }).meta({ id: 'UpdateTokenBody' });

/** One recorded call of a token (an MCP tool call or a REST call). */
export const TokenActivityItem = z
  .object({
    id: z.string().describe('Row id'),
    at: z.iso.datetime({ offset: true }).describe('When the call started'),
    tool: z
      .string()
      .describe('The MCP tool called, or the REST route (`GET /api/portfolios/:id/xray`)'),
    outcome: z
      .enum(['ok', 'error', 'denied'])
      .describe('ok; error (answered a problem); denied (a scope was missing)'),
    errorCode: z.string().nullable().describe('Problem code of a failed call'),
    quotaSpent: z
      .record(z.string(), z.number().int())
      .describe('Units spent per quota (stock_evaluation, ai_consult); empty when none'),
    durationMs: z.number().int().min(0).describe('Milliseconds from the call to its answer'),
    arguments: z
      .unknown()
      .describe('The arguments, secrets redacted, long strings cut, size bounded; null for none'),
  })
  .meta({ id: 'TokenActivityItem' });

/** `GET /api/account/tokens/{id}/activity`: a page, as the screener's (CONTRACT §4). */
export const TokenActivityPage = z
  .object({
    items: z.array(TokenActivityItem),
    page: z.number().int().min(1),
    limit: z.number().int().min(1).max(ACTIVITY_PAGE_MAX),
    total: z.number().int().min(0),
    totalPages: z.number().int().min(0),
  })
  .meta({ id: 'TokenActivityPage' });

/** Query of `GET /api/account/tokens/{id}/activity`. */
export const TokenActivityQuery = z.object({
  page: numberFromText(z.number().int().min(1).max(100_000).default(1)).describe('Page, from 1'),
  limit: numberFromText(
    z.number().int().min(1).max(ACTIVITY_PAGE_MAX).default(ACTIVITY_PAGE_DEFAULT),
  ).describe(`Calls per page (1 to ${ACTIVITY_PAGE_MAX})`),
});

/** The minted token: the only answer that carries the secret. */
export const MintedToken = z
  .object({
    id: z.uuid(),
    name: z.string(),
    token: z
      .string()
      .regex(/^svc_pat_[A-Za-z0-9_-]{43}$/)
      .describe('The secret; shown only in this response'),
    createdAt: z.iso.datetime({ offset: true }),
    expiresAt: z.iso.datetime({ offset: true }).nullable(),
    scopes: z.array(TokenScope).describe("The token's scopes, the needed ones added"),
  })
  .meta({ id: 'MintedToken' });

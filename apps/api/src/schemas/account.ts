import { EmailAddress, Plan, QuotaUsage } from '@svc/schemas';
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

/** Registration body (CONTRACT §2). Password length per NIST SP 800-63B (at least 8). */
export const RegisterBody = z
  .object({
    email: EmailAddress.describe('E-mail address; stored lower-cased'),
    password: z.string().min(8).max(512).describe('At least 8 characters'),
    name: z.string().trim().min(1).max(100).optional().describe('Display name'),
  })
  .meta({ id: 'RegisterBody' });

/** Login body (CONTRACT §2). */
export const LoginBody = z
  .object({
    email: EmailAddress,
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
  })
  .meta({ id: 'TokenSummary' });

/** Body of `POST /api/account/tokens`. */
export const MintTokenBody = z
  .object({
    name: z.string().trim().min(1).max(100).describe('A label, e.g. the MCP client using it'),
    expiresInDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .optional()
      .describe('Lifetime in days (1 to 365); default 90'),
  })
  .meta({ id: 'MintTokenBody' });

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
  })
  .meta({ id: 'MintedToken' });

#!/usr/bin/env node
/**
 * `svc-admin`: account administration.
 *   svc-admin set-plan <email> <free|pro>
 *   svc-admin usage <email>
 *   svc-admin reset <email> [stock_evaluation|ai_consult]
 * Environment (read here, at the edge): `DATABASE_URL` (PostgreSQL; unset: embedded PGlite) and
 * `DATA_DIR` (embedded database location; default `./.data`). Migrates before running.
 */
import {
  createDatabase,
  createRepositories,
  migrateToLatest,
  type User,
} from '@svc/portfolio-store';
import { isPlan, isQuotaName } from '../limits.js';
import { createQuotaService, type QuotaService } from '../quota-service.js';

const USAGE = `usage:
  svc-admin set-plan <email> <free|pro>
  svc-admin usage <email>
  svc-admin reset <email> [stock_evaluation|ai_consult]`;

class UsageError extends Error {}

type Command = (ctx: {
  user: User;
  args: string[];
  quotas: QuotaService;
  repos: ReturnType<typeof createRepositories>;
}) => Promise<string>;

const COMMANDS: Record<string, Command> = {
  async 'set-plan'({ user, args, repos }) {
    const plan = args[0];
    if (!plan || !isPlan(plan)) throw new UsageError(USAGE);
    const updated = await repos.users.setPlan(user.id, plan);
    return `${updated.email}: plan ${updated.plan}`;
  },
  async usage({ user, quotas }) {
    const rows = await quotas.usage(user.id, user.plan);
    const lines = rows.map((q) => `  ${q.name}: ${q.used}/${q.limit}, resets ${q.resetsAt}`);
    return [`${user.email} (plan ${user.plan})`, ...lines].join('\n');
  },
  async reset({ user, args, quotas }) {
    const name = args[0];
    if (name !== undefined && !isQuotaName(name)) throw new UsageError(USAGE);
    const removed = await quotas.reset(user.id, name);
    return `${user.email}: ${name ?? 'all quotas'} reset (${removed} counter rows removed)`;
  },
};

async function main(argv: string[]): Promise<void> {
  const [commandName, email, ...args] = argv;
  const command = commandName ? COMMANDS[commandName] : undefined;
  if (!command || !email) throw new UsageError(USAGE);
  const database = await createDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.DATA_DIR || './.data',
  });
  try {
    await migrateToLatest(database.db);
    const repos = createRepositories(database.db);
    const user = await repos.users.findByEmail(email);
    if (!user) throw new Error(`no user with e-mail ${email}`);
    const quotas = createQuotaService({ db: database.db });
    process.stdout.write(`${await command({ user, args, quotas, repos })}\n`);
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});

/**
 * `svc-admin`: account administration.
 *   svc-admin set-plan <email> <free|pro>
 *   svc-admin usage <email>
 *   svc-admin reset <email> [stock_evaluation|ai_consult]
 * Environment (read once, through the service's parser `parseCommandConfig`): `DATABASE_URL`
 * (PostgreSQL; unset: embedded PGlite), `DATA_DIR` (embedded database location; default
 * `./.data`) and `QUOTA_LIMITS` (the limits `usage` shows). Migrates before running.
 */
import { PLAN_NAMES, type Plan, QUOTA_NAMES, type QuotaName } from '@svc/schemas';
import { openStore, parseCommandConfig, type Store } from '@svc/service';

const USAGE = `usage:
  svc-admin set-plan <email> <free|pro>
  svc-admin usage <email>
  svc-admin reset <email> [stock_evaluation|ai_consult]`;

class UsageError extends Error {}

type User = NonNullable<Awaited<ReturnType<Store['repos']['users']['findByEmail']>>>;

type Command = (ctx: { user: User; args: string[]; store: Store }) => Promise<string>;

const COMMANDS: Record<string, Command> = {
  async 'set-plan'({ user, args, store }) {
    const plan = args[0];
    if (!plan || !(PLAN_NAMES as readonly string[]).includes(plan)) throw new UsageError(USAGE);
    const updated = await store.repos.users.setPlan(user.id, plan as Plan);
    return `${updated.email}: plan ${updated.plan}`;
  },
  async usage({ user, store }) {
    const rows = await store.quotas.usage(user.id, user.plan);
    const lines = rows.map((q) => `  ${q.name}: ${q.used}/${q.limit}, resets ${q.resetsAt}`);
    return [`${user.email} (plan ${user.plan})`, ...lines].join('\n');
  },
  async reset({ user, args, store }) {
    const name = args[0];
    if (name !== undefined && !(QUOTA_NAMES as readonly string[]).includes(name))
      throw new UsageError(USAGE);
    const removed = await store.quotas.reset(user.id, name as QuotaName | undefined);
    return `${user.email}: ${name ?? 'all quotas'} reset (${removed} counter rows removed)`;
  },
};

async function main(argv: string[]): Promise<void> {
  const [commandName, email, ...args] = argv;
  const command = commandName ? COMMANDS[commandName] : undefined;
  if (!command || !email) throw new UsageError(USAGE);
  const store = await openStore(parseCommandConfig(process.env));
  try {
    const user = await store.repos.users.findByEmail(email);
    if (!user) throw new Error(`no user with e-mail ${email}`);
    process.stdout.write(`${await command({ user, args, store })}\n`);
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});

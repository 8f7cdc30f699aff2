/**
 * `svc-migrate`: brings the database to the latest migration and exits.
 * Environment (read once, through the service's parser `parseCommandConfig`): `DATABASE_URL`
 * (PostgreSQL; unset: embedded PGlite) and `DATA_DIR` (where the embedded database lives;
 * default `./.data`).
 */
import { openStore, parseCommandConfig } from '@svc/service';

async function main(): Promise<void> {
  const config = parseCommandConfig(process.env);
  const store = await openStore(config);
  try {
    const where = store.dialect === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL';
    const what = store.applied.length
      ? `applied ${store.applied.join(', ')}`
      : 'already up to date';
    process.stdout.write(`svc-migrate: ${where}, schema ${store.schema}: ${what}\n`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`svc-migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof Error && error.cause)
    process.stderr.write(`  cause: ${String(error.cause)}\n`);
  process.exitCode = 1;
});

#!/usr/bin/env node
/**
 * `svc-migrate`: brings the database to the latest migration and exits.
 * Environment (read here, at the edge): `DATABASE_URL` (PostgreSQL; unset: embedded PGlite),
 * `DATA_DIR` (where the embedded database lives; default `./.data`).
 */
import { createDatabase } from '../database.js';
import { migrateToLatest } from '../migrate.js';

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = process.env.DATA_DIR || './.data';
  const database = await createDatabase({ databaseUrl, dataDir });
  try {
    const { applied, schema } = await migrateToLatest(database.db);
    const where = database.dialect === 'pglite' ? `PGlite in ${dataDir}` : 'PostgreSQL';
    const what = applied.length ? `applied ${applied.join(', ')}` : 'already up to date';
    process.stdout.write(`svc-migrate: ${where}, schema ${schema}: ${what}\n`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`svc-migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  if (error instanceof Error && error.cause)
    process.stderr.write(`  cause: ${String(error.cause)}\n`);
  process.exitCode = 1;
});

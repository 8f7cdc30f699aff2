/**
 * Test-only: this package's own suites read `TEST_DATABASE_URL` here and run on the engines of
 * `src/testing.ts` (published as `@svc/portfolio-store/testing`).
 */
import { createTestBackends } from '../testing.js';

export { type TestDatabase, uniqueEmail } from '../testing.js';

/** The engines to run against: PostgreSQL (when named or reachable) and PGlite. */
export const backends = await createTestBackends({ databaseUrl: process.env.TEST_DATABASE_URL });

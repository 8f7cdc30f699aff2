import type { Selectable } from 'kysely';
import type { ImportMappingsTable } from '../db-types.js';
import { type Executor, iso, isUuid } from './shared.js';

/** A column mapping a user saved for one header set of broker files. */
export interface SavedImportMapping {
  id: string;
  /** `headerSetKey` of `@svc/portfolio` (SHA-256 hex of the sorted, lower-cased header names). */
  headerKey: string;
  /** The header names of the file the mapping was saved from (trimmed, lower-cased). */
  headers: string[];
  /** The `ColumnMapping` of `@svc/portfolio` (stored as JSON; the caller validates it on use). */
  mapping: Record<string, unknown>;
  /** ISO-8601. */
  createdAt: string;
  /** ISO-8601. */
  updatedAt: string;
}

function toSaved(row: Selectable<ImportMappingsTable>): SavedImportMapping {
  return {
    id: row.id,
    headerKey: row.header_key,
    headers: row.headers,
    mapping: row.mapping,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The user's saved column mappings (`import_mappings`); every call is scoped to the user. */
export function createImportMappingsRepository(db: Executor) {
  return {
    /**
     * Saves (or replaces) the user's mapping for a header set, in one statement. `at` keeps the
     * instants of a mapping brought from elsewhere (an account import); default now.
     */
    async save(
      userId: string,
      input: { headerKey: string; headers: readonly string[]; mapping: Record<string, unknown> },
      at: { createdAt?: string; updatedAt?: string } = {},
    ): Promise<SavedImportMapping> {
      const row = await db
        .insertInto('import_mappings')
        .values({
          user_id: userId,
          header_key: input.headerKey,
          headers: JSON.stringify(input.headers),
          mapping: JSON.stringify(input.mapping),
          ...(at.createdAt === undefined ? {} : { created_at: at.createdAt }),
          ...(at.updatedAt === undefined ? {} : { updated_at: at.updatedAt }),
        })
        .onConflict((oc) =>
          oc.columns(['user_id', 'header_key']).doUpdateSet((eb) => ({
            headers: eb.ref('excluded.headers'),
            mapping: eb.ref('excluded.mapping'),
            updated_at: at.updatedAt ?? new Date(),
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSaved(row);
    },
    /** The user's mapping for a header set, if saved. */
    async find(userId: string, headerKey: string): Promise<SavedImportMapping | undefined> {
      const row = await db
        .selectFrom('import_mappings')
        .selectAll()
        .where('user_id', '=', userId)
        .where('header_key', '=', headerKey)
        .executeTakeFirst();
      return row ? toSaved(row) : undefined;
    },
    /** The user's mappings, most recently saved first. */
    async list(userId: string): Promise<SavedImportMapping[]> {
      const rows = await db
        .selectFrom('import_mappings')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('updated_at', 'desc')
        .execute();
      return rows.map(toSaved);
    },
    /** Deletes one of the user's mappings; answers whether it existed (another user's: false). */
    async delete(userId: string, id: string): Promise<boolean> {
      if (!isUuid(id)) return false;
      const result = await db
        .deleteFrom('import_mappings')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

/** The `import_mappings` repository (see {@link createImportMappingsRepository}). */
export type ImportMappingsRepository = ReturnType<typeof createImportMappingsRepository>;

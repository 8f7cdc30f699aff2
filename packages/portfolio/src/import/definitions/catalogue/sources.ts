import type { DefinitionSource } from '../definition.js';

/**
 * The source of a definition that replaced an import module written from dickwolff/
 * Export-To-Ghostfolio's converter `converter` (a file name under `src/converters/`, read as
 * documentation; Apache-2.0) and recorded on its sample in ../shared/data/broker-exports, with
 * `note` when given.
 */
export const E2G = (converter: string, note?: string): DefinitionSource => ({
  kind: 'open-source-importer',
  reference: `dickwolff/Export-To-Ghostfolio@9e35bd60 src/converters/${converter} (read as documentation) and its sample in ../shared/data/broker-exports`,
  licence: 'Apache-2.0',
  ...(note ? { note } : {}),
});

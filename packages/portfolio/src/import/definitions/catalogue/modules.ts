import { degiroFormat } from '../../formats/degiro.js';
import type { BrokerFormatSpec } from '../../row.js';
import type { DefinitionSource, Recognition } from '../definition.js';

/**
 * A catalogue entry whose recognition and source are data but whose rows are read by a module in
 * code (`formats/`), for row kinds the declarative vocabulary does not express yet (DEGIRO's trades
 * written as text with continuation lines and FX legs paired across rows).
 */
export interface ModuleEntry<Id extends string = string> {
  readonly id: Id;
  readonly label: string;
  readonly source: DefinitionSource;
  readonly recognise: Recognition;
  readonly delimiter: ',' | ';' | '\t' | '|';
  readonly module: BrokerFormatSpec;
}

const E2G = (converter: string, note?: string): DefinitionSource => ({
  kind: 'open-source-importer',
  reference: `dickwolff/Export-To-Ghostfolio@9e35bd60 src/converters/${converter} (read as documentation) and its sample in ../shared/data/broker-exports`,
  licence: 'Apache-2.0',
  ...(note ? { note } : {}),
});

const entry = <const Id extends string>(
  id: Id,
  module: BrokerFormatSpec,
  source: DefinitionSource,
  recognise: Recognition,
): ModuleEntry<Id> => ({
  id,
  label: module.label,
  source,
  recognise,
  delimiter: module.delimiter,
  module,
});

/**
 * The import modules of earlier rounds still read in code (one CSV layout; Ghostfolio JSON is
 * read apart; the other ten are definitions now, `first.ts` and `converted.ts`).
 */
export const MODULE_ENTRIES = [
  entry('degiro', degiroFormat, E2G('degiroConverterV3.ts'), {
    headers: ['isin', ['datum', 'date', 'data', 'fecha']],
    minColumns: 12,
    positions: {
      '0': ['datum', 'date', 'data', 'fecha'],
      '4': ['isin'],
      '11': ['orderid', 'idorden', 'idordre', 'idordine', 'idordem'],
    },
  }),
] as const;

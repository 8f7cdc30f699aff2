import {
  type FileHead,
  type FormatDefinition,
  fileHead,
  type Recognised,
  recognise,
} from '../definition.js';
import { ghostfolio } from './converted.js';
import { degiro, degiroTransactions, degiroTransactions2024 } from './degiro.js';
import {
  bux,
  comdirect,
  consorsbank,
  directa,
  fineco,
  finpension,
  flatex,
  ingNlCash,
  ingNlPortfolio,
  parqet,
  portfolioPerformanceDe,
  portfolioPerformanceEn,
  rabobank,
  rabobank2026,
  scalableCapital,
  swissquote,
} from './europe.js';
import { etoro, ibkrCash, ibkrTrades, revolut, saxo, schwab, tradeRepublic, xtb } from './first.js';
import { scalableCapitalBaader } from './more-layouts.js';
import {
  avanza,
  delta,
  disnat,
  fidelity,
  freetrade,
  hargreavesLansdown,
  investEngine,
  nordnet,
  nordnetDk,
  nordnetDk2021,
  nordnetDkTyped,
  nordnetFi,
  nordnetFi2021,
  nordnetNo,
  robinhood,
  vanguard,
} from './nordic-uk-us.js';
import { trading212, trading212Eur, trading212Gbp, trading212Usd } from './trading212.js';

/**
 * The declarative definitions of the catalogue, each read by the one engine (`mappedFormat`).
 * Adding a broker is one definition here (see README "Broker import").
 */
export const DEFINITIONS = [
  etoro,
  revolut,
  ibkrCash,
  tradeRepublic,
  schwab,
  xtb,
  saxo,
  ibkrTrades,
  degiro,
  ghostfolio,
  trading212,
  scalableCapital,
  parqet,
  portfolioPerformanceDe,
  portfolioPerformanceEn,
  comdirect,
  consorsbank,
  swissquote,
  finpension,
  directa,
  fineco,
  bux,
  flatex,
  rabobank,
  rabobank2026,
  ingNlPortfolio,
  ingNlCash,
  avanza,
  nordnet,
  nordnetDk,
  nordnetDkTyped,
  nordnetDk2021,
  nordnetNo,
  nordnetFi,
  nordnetFi2021,
  freetrade,
  investEngine,
  robinhood,
  fidelity,
  vanguard,
  hargreavesLansdown,
  disnat,
  delta,
  degiroTransactions,
  degiroTransactions2024,
  scalableCapitalBaader,
  trading212Eur,
  trading212Gbp,
  trading212Usd,
] as const;

/** One format of the catalogue: a declarative definition (issue 40: no rows are read in code). */
export type CatalogueEntry = FormatDefinition;

/** The ids of the first formats (read by modules in code before issue 40), in their order of then. */
const FIRST_ORDER = [
  'ghostfolio',
  'revolut',
  'ibkr-trades',
  'ibkr-cash',
  'degiro',
  'etoro',
  'saxo',
  'schwab',
  'trade-republic',
  'trading212',
  'xtb',
];

/**
 * Every CSV format of the catalogue: the formats of the first modules in their order of then, then
 * the other definitions.
 */
export const CATALOGUE: readonly CatalogueEntry[] = [...DEFINITIONS].sort(
  (a, b) => rank(a.id) - rank(b.id),
);

function rank(id: string): number {
  const i = FIRST_ORDER.indexOf(id);
  return i === -1 ? FIRST_ORDER.length : i;
}

/** Id of a catalogue format. */
export type CatalogueId = (typeof DEFINITIONS)[number]['id'];

/** The catalogue's ids, in catalogue order. */
export const CATALOGUE_IDS = CATALOGUE.map((e) => e.id) as readonly CatalogueId[];

/** The delimiter an entry's rows are read with. */
export function delimiterOf(entry: CatalogueEntry): ',' | ';' | '\t' | '|' {
  return entry.read.delimiter;
}

/** An entry that recognised a file, and where its header row is. */
export interface Recognition {
  readonly entry: CatalogueEntry;
  readonly found: Recognised;
}

/**
 * Every entry of `entries` that recognises `text` (LF line ends, no BOM). The catalogue is built
 * so that at most one does (a test feeds every fixture to every definition); more than one is
 * answered as ambiguous by the caller, never guessed. Only the file's first 40 lines are read,
 * each line parsed once per delimiter for all entries ({@link fileHead}).
 */
export function recogniseAll(
  text: string | FileHead,
  entries: readonly CatalogueEntry[] = CATALOGUE,
): Recognition[] {
  const head = typeof text === 'string' ? fileHead(text) : text;
  return entries.flatMap((entry) => {
    const found = recognise(head, entry.recognise, delimiterOf(entry));
    return found ? [{ entry, found }] : [];
  });
}

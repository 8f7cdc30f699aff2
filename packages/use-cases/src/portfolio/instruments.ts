import { EXCHANGES, listingSymbol, MarketDataError, type OpenFigiClient } from '@svc/market-data';
import { createRepositories, type Executor } from '@svc/portfolio-store';
import { type Instrument, type InstrumentKind, isValidIsin, normaliseTicker } from '@svc/schemas';
import offlineFile from '../../data/instruments.json' with { type: 'json' };
import type { IsinResolver } from './isin-symbols.js';

/**
 * What the service knows of an instrument when it meets it: the transaction's `symbol` and
 * currency, and what the export gave (`isin`, `ticker`, `name`; `fromExport` when the file named
 * the instrument by these columns).
 */
export interface InstrumentHint {
  readonly symbol: string;
  readonly currency: string;
  readonly isin?: string;
  readonly ticker?: string;
  readonly name?: string;
  /** The export named the instrument (its ticker and/or ISIN columns); default false. */
  readonly fromExport?: boolean;
}

/** One entry of the offline resolver file's `isins` (see `scripts/build-instrument-file.mjs`). */
interface FileEntry {
  readonly ticker?: string;
  readonly mic?: string;
  readonly currency?: string;
  readonly name?: string;
  readonly kind: InstrumentKind;
}

/**
 * The offline resolver file (`packages/use-cases/data/instruments.json`, derived from the shared
 * data by `scripts/build-instrument-file.mjs`): ISIN → listing, SEC ticker → CIK.
 */
export interface InstrumentFile {
  readonly isins: Readonly<Record<string, FileEntry>>;
  readonly sec: Readonly<Record<string, number>>;
}

/** The file bundled with the package (35 ISINs from the broker samples, SEC's 10k tickers). */
export const OFFLINE_INSTRUMENT_FILE: InstrumentFile = offlineFile as unknown as InstrumentFile;

/** How long an OpenFIGI answer is reused: 30 days with a listing, 1 day without one. */
export const OPENFIGI_CACHE_MS = { found: 30 * 86_400_000, notFound: 86_400_000 } as const;

/** How long OpenFIGI is left alone after it failed: 5 minutes (the cache still answers). */
export const OPENFIGI_PAUSE_MS = 5 * 60_000;

/** What {@link createInstrumentResolver} needs. */
export interface InstrumentResolverDeps {
  readonly db: Executor;
  /** OpenFIGI's mapping client (`OPENFIGI_URL`); null: the step is skipped (offline). */
  readonly openFigi: Pick<OpenFigiClient, 'map'> | null;
  /** Default {@link OFFLINE_INSTRUMENT_FILE}. */
  readonly file?: InstrumentFile;
  /** The `ISIN_SYMBOLS_FILE` table, a `file` step of its own (before the bundled file). */
  readonly isinSymbols?: IsinResolver;
  readonly now: () => Date;
}

/** Exchanges of the US (no suffix at the quote providers); a ticker there may have a CIK. */
const US_MICS = new Set(['XNYS', 'XNAS', 'XASE', 'ARCX']);

/**
 * Resolves instruments in the order of CONTRACT §9 (issue 38), first match wins, later steps only
 * fill what is missing (a CIK, an ISIN, a name):
 *
 * 1. `export`: the export named the instrument by a ticker (with or without an ISIN);
 * 2. `user`: the user's own assignment to this ISIN or symbol (`transactions.userAssignment`);
 * 3. `openfigi`: OpenFIGI's mapping API, asked once for all hints of a call (batched by the
 *    client), answers cached in `instrument_resolutions` ({@link OPENFIGI_CACHE_MS}); an outage
 *    skips the step (nothing cached) for {@link OPENFIGI_PAUSE_MS};
 * 4. `sec`: a ticker in SEC's ticker list gets its CIK (a US share);
 * 5. `file`: the `ISIN_SYMBOLS_FILE` table, then the bundled resolver file;
 * 6. `unresolved`: kept usable (quantity, cost, cash count; the symbol stays as given), with
 *    `unresolvedReason`.
 *
 * Never throws for an unknown instrument; database errors propagate.
 */
export function createInstrumentResolver(deps: InstrumentResolverDeps) {
  const file = deps.file ?? OFFLINE_INSTRUMENT_FILE;
  const tickerIsin = new Map<string, string>();
  for (const [isin, entry] of Object.entries(file.isins)) {
    if (entry.ticker && isin.startsWith('US') && !tickerIsin.has(entry.ticker)) {
      tickerIsin.set(entry.ticker, isin);
    }
  }

  const cikOf = (ticker: string | undefined): string | undefined => {
    const key = ticker && normaliseTicker(ticker);
    const cik = key ? file.sec[key] : undefined;
    return cik === undefined ? undefined : String(cik).padStart(10, '0');
  };

  /** Fills a CIK (US listings), an ISIN (from the file), the name and currency of the hint. */
  const enrich = (instrument: Instrument, hint: InstrumentHint): Instrument => {
    const us =
      instrument.mic === undefined
        ? instrument.isin === undefined || instrument.isin.startsWith('US')
        : US_MICS.has(instrument.mic);
    const cik =
      instrument.cik ?? (us && instrument.kind !== 'fund' ? cikOf(instrument.ticker) : undefined);
    const isin =
      instrument.isin ?? (us && instrument.ticker ? tickerIsin.get(instrument.ticker) : undefined);
    const name = instrument.name ?? hint.name;
    return {
      ...instrument,
      ...(isin ? { isin } : {}),
      ...(cik ? { cik } : {}),
      ...(name ? { name: name.slice(0, 200) } : {}),
    };
  };

  const fromFile = (isin: string, hint: InstrumentHint): Instrument | undefined => {
    const symbol = deps.isinSymbols?.symbolOf(isin);
    if (symbol) {
      return {
        isin,
        ...splitTicker(symbol),
        currency: hint.currency,
        kind: 'share',
        resolution: 'file',
      };
    }
    const entry = file.isins[isin];
    if (!entry?.ticker) return undefined;
    return {
      isin,
      ticker: entry.ticker,
      ...(entry.mic ? { mic: entry.mic } : {}),
      currency: entry.currency ?? hint.currency,
      ...(entry.name ? { name: entry.name } : {}),
      kind: entry.kind,
      resolution: 'file',
    };
  };

  const unresolved = (
    hint: InstrumentHint,
    isin: string | undefined,
    ticker: string | undefined,
    figiDown: boolean,
  ): Instrument => {
    const entry = isin ? file.isins[isin] : undefined;
    const reason = isin
      ? entry
        ? `no listing is known for ISIN ${isin} (the offline resolver file knows its name only${figiDown ? '; OpenFIGI could not be reached' : deps.openFigi ? '; OpenFIGI has no listing for it' : '; OpenFIGI is off'}): assign a ticker to price it`
        : `ISIN ${isin} is unknown to ${deps.openFigi ? (figiDown ? 'the offline resolver file (OpenFIGI could not be reached)' : 'OpenFIGI and the offline resolver file') : 'the offline resolver file (OpenFIGI is off)'}: assign a ticker to price it`
      : ticker
        ? `ticker ${ticker} is not in SEC's ticker list${deps.openFigi ? (figiDown ? ' (OpenFIGI could not be reached)' : ' nor known to OpenFIGI') : ''}: kept as given`
        : `"${hint.symbol}" is neither an ISIN nor a ticker: a manual asset, valued at cost`;
    const name = entry?.name ?? hint.name;
    return {
      ...(isin ? { isin } : {}),
      ...(ticker ? splitTicker(ticker) : {}),
      currency: hint.currency,
      ...(name ? { name: name.slice(0, 200) } : {}),
      kind: entry?.kind ?? (isin || ticker ? 'share' : 'other'),
      resolution: 'unresolved',
      unresolvedReason: reason,
    };
  };

  /** Until when OpenFIGI is not asked again after a failure (a breaker: imports stay fast offline). */
  let figiPausedUntil = 0;

  const run = async (
    userId: string,
    hints: readonly InstrumentHint[],
  ): Promise<{ instruments: Instrument[]; figiDown: boolean }> => {
    const repos = createRepositories(deps.db);
    const out: (Instrument | undefined)[] = [];
    const ids = hints.map((hint) => identifiers(hint));
    // 1 export, 2 user
    for (const [i, hint] of hints.entries()) {
      const { isin, ticker } = ids[i] as ReturnType<typeof identifiers>;
      if (hint.fromExport && hint.ticker && ticker) {
        const entry = isin ? file.isins[isin] : undefined;
        out.push({
          ...(isin ? { isin } : {}),
          ...splitTicker(ticker),
          currency: hint.currency,
          kind: entry?.kind ?? 'share',
          resolution: 'export',
        });
        continue;
      }
      const assigned = await repos.transactions.userAssignment(userId, {
        ...(isin ? { isin } : {}),
        symbol: hint.symbol,
      });
      out.push(assigned);
    }
    // 3 OpenFIGI, for the rest, through the cache
    const open = hints.flatMap((_, i) => (out[i] === undefined ? [i] : []));
    let figiDown = deps.openFigi !== null && deps.now().getTime() < figiPausedUntil;
    if (deps.openFigi && open.length > 0) {
      const keyOf = (i: number) => {
        const { isin, ticker } = ids[i] as ReturnType<typeof identifiers>;
        return isin ? `isin:${isin}` : ticker ? `ticker:${ticker}` : undefined;
      };
      const keys = [...new Set(open.map(keyOf).filter((k): k is string => k !== undefined))];
      const now = deps.now();
      const cached = await repos.instrumentResolutions.cached(keys, {
        maxAgeMs: OPENFIGI_CACHE_MS.found,
        negativeMaxAgeMs: OPENFIGI_CACHE_MS.notFound,
        now,
      });
      const ask = keys.filter((k) => !cached.has(k));
      if (ask.length > 0 && !figiDown) {
        try {
          const currencyOf = new Map<string, string>();
          for (const i of open) {
            const key = keyOf(i);
            if (key && !currencyOf.has(key)) {
              currencyOf.set(key, (hints[i] as InstrumentHint).currency);
            }
          }
          const answers = await deps.openFigi.map(
            ask.map((k) => ({
              ...(k.startsWith('isin:') ? { isin: k.slice(5) } : { ticker: k.slice(7) }),
              ...(currencyOf.has(k) ? { currency: currencyOf.get(k) as string } : {}),
            })),
          );
          const entries = ask.map((key, j) => ({
            key,
            instrument: answers[j] ?? null,
            source: 'openfigi',
          }));
          await repos.instrumentResolutions.remember(entries, now);
          for (const e of entries) cached.set(e.key, e.instrument);
        } catch (error) {
          if (!(error instanceof MarketDataError)) throw error;
          figiDown = true;
          figiPausedUntil = now.getTime() + OPENFIGI_PAUSE_MS;
        }
      }
      for (const i of open) {
        const key = keyOf(i);
        const found = key ? cached.get(key) : undefined;
        if (found) {
          const hint = hints[i] as InstrumentHint;
          // a listing in the user's currency when OpenFIGI's pick trades in another
          out[i] = { ...found, currency: found.currency ?? hint.currency };
        }
      }
    }
    // 4 SEC, 5 file, 6 unresolved
    const instruments = hints.map((hint, i) => {
      const { isin, ticker } = ids[i] as ReturnType<typeof identifiers>;
      const found =
        out[i] ??
        (ticker && !isin && cikOf(ticker)
          ? ({
              ...splitTicker(ticker),
              currency: hint.currency,
              kind: 'share',
              resolution: 'sec',
            } satisfies Instrument)
          : undefined) ??
        (isin ? fromFile(isin, hint) : undefined) ??
        unresolved(hint, isin, ticker, figiDown);
      return enrich(found, hint);
    });
    return { instruments, figiDown };
  };

  return {
    /**
     * One {@link Instrument} per hint, in order, for the user `userId` (whose own assignments
     * count).
     */
    async resolve(userId: string, hints: readonly InstrumentHint[]): Promise<Instrument[]> {
      return (await run(userId, hints)).instruments;
    },

    /**
     * {@link resolve}, also saying whether OpenFIGI failed during the call (its unresolved
     * answers may then resolve later).
     */
    resolveDetailed: run,
  };
}

/** An instrument resolver (see {@link createInstrumentResolver}). */
export type InstrumentResolver = ReturnType<typeof createInstrumentResolver>;

/**
 * The symbol a transaction and its holding carry for an instrument (CONTRACT §9): the ticker when
 * known (with its exchange's suffix outside the US, `VWRL.AS`, so two listings of one fund stay
 * two holdings and the quote providers find it), else the ISIN, else the text given. One
 * instrument met under its ISIN and its ticker so gets one symbol, and one holding.
 */
export function instrumentSymbol(instrument: Instrument, given: string): string {
  return listingSymbol(instrument) ?? instrument.isin ?? given;
}

/** The ISIN and ticker a hint names: its own fields, else its symbol read as either. */
function identifiers(hint: InstrumentHint): { isin?: string; ticker?: string } {
  const symbol = hint.symbol.trim().toUpperCase();
  const isinGiven = hint.isin?.trim().toUpperCase();
  const isin =
    isinGiven && isValidIsin(isinGiven) ? isinGiven : isValidIsin(symbol) ? symbol : undefined;
  const tickerGiven = hint.ticker?.trim().toUpperCase();
  const ticker =
    tickerGiven && /^[A-Z0-9][A-Z0-9.-]{0,19}$/.test(tickerGiven)
      ? tickerGiven
      : symbol !== isin && /^[A-Z0-9][A-Z0-9.-]{0,14}$/.test(symbol)
        ? symbol
        : undefined;
  return { ...(isin ? { isin } : {}), ...(ticker ? { ticker } : {}) };
}

/** Yahoo-style suffixes back to MICs: `SPYL.DE` → ticker SPYL on XETR. */
const SUFFIX_TO_MIC = new Map(
  Object.entries(EXCHANGES)
    .filter(([, e]) => e.yahoo !== '')
    .map(([mic, e]) => [e.yahoo.slice(1), mic] as const),
);

/** A ticker with a known exchange suffix as ticker and MIC; any other as the ticker alone. */
function splitTicker(text: string): { ticker: string; mic?: string } {
  const match = /^(.+)\.([A-Z]{1,2})$/.exec(text.toUpperCase());
  const mic = match ? SUFFIX_TO_MIC.get(match[2] as string) : undefined;
  return match && mic ? { ticker: match[1] as string, mic } : { ticker: text.toUpperCase() };
}

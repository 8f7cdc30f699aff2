import type { CompanyProfile } from '@svc/schemas';
import { z } from 'zod';
import { FundamentalsError } from '../errors.js';
import { normaliseSymbol } from '../symbol.js';

/** SEC `company_tickers.json`: `{"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}, …}`. */
const CompanyTickers = z.record(
  z.string(),
  z.looseObject({
    cik_str: z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,10}$/)]),
    ticker: z.string(),
    title: z.string().optional(),
  }),
);

/** Zero-pads a CIK to SEC's 10 digits (`320193` → `0000320193`). */
export function padCik(cik: number | string): string {
  return String(cik).padStart(10, '0');
}

/**
 * Parses SEC's `company_tickers.json` into a map from normalised ticker (`BF-B`) to 10-digit CIK.
 * Entries whose ticker is not a valid symbol are skipped; the first entry of a ticker wins.
 *
 * @throws {FundamentalsError} `parse_failed` when the document has another shape.
 */
export function parseCompanyTickers(json: unknown): Map<string, string> {
  const parsed = CompanyTickers.safeParse(json);
  if (!parsed.success) {
    throw new FundamentalsError('parse_failed', 'Not an SEC company_tickers.json document', {
      cause: parsed.error,
    });
  }
  const out = new Map<string, string>();
  for (const entry of Object.values(parsed.data)) {
    let ticker: string;
    try {
      ticker = normaliseSymbol(entry.ticker);
    } catch {
      continue;
    }
    if (!out.has(ticker)) out.set(ticker, padCik(entry.cik_str));
  }
  return out;
}

/** The fields of an SEC submissions document (`/submissions/CIK##########.json`) used here. */
const Submissions = z.looseObject({
  name: z.string().optional(),
  sic: z.union([z.string(), z.number()]).nullish(),
  sicDescription: z.string().nullish(),
  fiscalYearEnd: z.string().nullish(),
});

/**
 * Reads SIC code, SIC description and fiscal year end (`0926` → `09-26`) from an SEC submissions
 * document, as a partial {@link CompanyProfile} for `parseCompanyFacts`.
 *
 * @throws {FundamentalsError} `parse_failed` when the document has another shape.
 */
export function parseSubmissions(json: unknown): Partial<CompanyProfile> {
  const parsed = Submissions.safeParse(json);
  if (!parsed.success) {
    throw new FundamentalsError('parse_failed', 'Not an SEC submissions document', {
      cause: parsed.error,
    });
  }
  const { sic, sicDescription, fiscalYearEnd } = parsed.data;
  const profile: Partial<CompanyProfile> = {};
  const sicCode = sic === null || sic === undefined ? '' : String(sic).trim();
  if (/^\d{1,4}$/.test(sicCode)) profile.sicCode = sicCode.padStart(4, '0');
  if (sicDescription) profile.sicDescription = sicDescription.trim();
  if (fiscalYearEnd && /^\d{4}$/.test(fiscalYearEnd)) {
    profile.fiscalYearEnd = `${fiscalYearEnd.slice(0, 2)}-${fiscalYearEnd.slice(2)}`;
  }
  return profile;
}

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { FundamentalsError } from '../errors.js';
import { symbolOrNull } from './symbol-or-null.js';

/** Optional companies file of a SimFin bulk download (`Ticker;SimFinId;Company Name;IndustryId;…`). */
export const SIMFIN_COMPANIES_FILE = 'us-companies.csv';
/** Optional industries file of a SimFin bulk download (`IndustryId;Sector;Industry`). */
export const SIMFIN_INDUSTRIES_FILE = 'industries.csv';

/** What SimFin's companies and industries files say about one ticker. */
export interface SimfinCompanyInfo {
  readonly name: string | null;
  readonly sector: string | null;
  readonly industry: string | null;
}

/**
 * Reads `us-companies.csv` and `industries.csv` from `dir` when present: company name, and
 * sector/industry through the company's `IndustryId`. Without `industries.csv` the industry is
 * `SimFin industry <IndustryId>` and the sector null. Both files absent: an empty map.
 *
 * @throws {FundamentalsError} `upstream_unavailable` (a present file cannot be read),
 *   `parse_failed` (a present file is not `;`-separated CSV).
 */
export async function readSimfinCompanies(dir: string): Promise<Map<string, SimfinCompanyInfo>> {
  const companies = await readOptionalCsv(join(dir, SIMFIN_COMPANIES_FILE));
  if (!companies) return new Map();
  const industries = new Map<string, { sector: string | null; industry: string | null }>();
  for (const row of (await readOptionalCsv(join(dir, SIMFIN_INDUSTRIES_FILE))) ?? []) {
    const id = text(row.IndustryId);
    if (id) industries.set(id, { sector: text(row.Sector), industry: text(row.Industry) });
  }
  const byTicker = new Map<string, SimfinCompanyInfo>();
  for (const row of companies) {
    const ticker = symbolOrNull(text(row.Ticker));
    if (!ticker) continue;
    const industryId = text(row.IndustryId);
    const known = industryId ? industries.get(industryId) : undefined;
    byTicker.set(ticker, {
      name: text(row['Company Name']),
      sector: known?.sector ?? null,
      industry: known?.industry ?? (industryId ? `SimFin industry ${industryId}` : null),
    });
  }
  return byTicker;
}

type CsvRecord = Record<string, string | undefined>;

async function readOptionalCsv(path: string): Promise<CsvRecord[] | undefined> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new FundamentalsError('upstream_unavailable', `Cannot read ${path}`, { cause: error });
  }
  try {
    return parse(content, {
      delimiter: ';',
      columns: true,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
    }) as CsvRecord[];
  } catch (error) {
    throw new FundamentalsError('parse_failed', `${path} is not a SimFin CSV file`, {
      cause: error,
    });
  }
}

function text(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

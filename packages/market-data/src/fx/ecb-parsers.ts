import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { MarketDataError } from '../errors.js';
import type { EcbDay } from './rate-table.js';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * Parses the ECB CSV formats: the history file `eurofxref-hist.csv` (`Date,USD,JPY,…,` with ISO
 * dates, newest first, `N/A` for missing values, a trailing empty column) and the daily file
 * `eurofxref.csv` (`Date, USD, …, ` with `", "` separators and dates like `13 April 2026`).
 *
 * @throws {MarketDataError} `parse_failed` when the text is not such a CSV.
 */
export function parseEcbCsv(text: string): EcbDay[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new MarketDataError('parse_failed', 'malformed ECB CSV', { cause: error });
  }
  return records.map((record) => {
    const { Date: rawDate, ...columns } = record;
    const date = ecbDate(rawDate ?? '');
    const rates = new Map<string, number>();
    for (const [currency, value] of Object.entries(columns)) {
      const rate = Number(value);
      if (/^[A-Z]{3}$/.test(currency) && value !== '' && rate > 0) rates.set(currency, rate);
    }
    return { date, rates };
  });
}

function ecbDate(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const match = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(value);
  const month = match ? MONTHS.indexOf((match[2] as string).toLowerCase()) + 1 : 0;
  if (!match || month === 0) {
    throw new MarketDataError('parse_failed', `unrecognised ECB date ${JSON.stringify(value)}`);
  }
  return `${match[3]}-${String(month).padStart(2, '0')}-${(match[1] as string).padStart(2, '0')}`;
}

type Cube = { time?: string; currency?: string; rate?: string; Cube?: Cube[] };

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  isArray: (name) => name === 'Cube',
});

/**
 * Parses the ECB XML formats (`eurofxref-daily.xml`, `-hist-90d.xml`, `-hist.xml`):
 * `gesmes:Envelope/Cube/Cube[@time]/Cube[@currency,@rate]`.
 *
 * @throws {MarketDataError} `parse_failed` when the document has no dated cubes.
 */
export function parseEcbXml(text: string): EcbDay[] {
  let document: { Envelope?: { Cube?: Cube[] } };
  try {
    document = xmlParser.parse(text, true);
  } catch (error) {
    throw new MarketDataError('parse_failed', 'malformed ECB XML', { cause: error });
  }
  const dated = document.Envelope?.Cube?.[0]?.Cube ?? [];
  const days = dated
    .filter((cube) => typeof cube.time === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(cube.time))
    .map((cube) => ({
      date: cube.time as string,
      rates: new Map(
        (cube.Cube ?? [])
          .filter((c) => c.currency && Number(c.rate) > 0)
          .map((c) => [c.currency as string, Number(c.rate)] as const),
      ),
    }));
  if (days.length === 0) throw new MarketDataError('parse_failed', 'ECB XML has no dated rates');
  return days;
}

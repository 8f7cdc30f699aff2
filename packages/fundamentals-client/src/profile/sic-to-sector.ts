import { SEC_SPECIAL_CODES, SIC_DIVISIONS, SIC_MAJOR_GROUPS } from './sic-table.generated.js';

/** Sector and industry of a company from its SIC code. */
export interface SicClassification {
  /** Four-digit SIC code, zero-padded (`0100`, `3571`). */
  readonly sicCode: string;
  /** SIC division letter (`A`–`J`), or `null` for SEC-only codes (ADRs, non-operating). */
  readonly division: string | null;
  /** Sector name: the SIC division description (`Manufacturing`, `Retail Trade`). */
  readonly sector: string | null;
  /** Two-digit SIC major group (`35`). */
  readonly majorGroup: string;
  /** Major-group description (`Industrial and Commercial Machinery and Computer Equipment`). */
  readonly majorGroupName: string | null;
  /** Industry: the SEC description passed in (EDGAR `sicDescription`), else the major group. */
  readonly industry: string | null;
}

/**
 * Maps a SIC code to a sector (its SIC division) and an industry, from a table generated from the
 * OSHA SIC Manual and the SEC EDGAR SIC list (`scripts/generate-sic-table.mjs`). Pure.
 *
 * @param sic - SIC code as a string or number (`'3571'`, `100`); leading zeros optional.
 * @param sicDescription - EDGAR's description of the code (submissions `sicDescription`), used as
 *   the industry when given.
 * @returns `null` when `sic` is not a 1–4 digit code of a known major group.
 * @example
 * ```ts
 * sicToSector('3571', 'Electronic Computers')
 * // { sicCode: '3571', division: 'D', sector: 'Manufacturing', majorGroup: '35',
 * //   majorGroupName: 'Industrial and Commercial Machinery and Computer Equipment',
 * //   industry: 'Electronic Computers' }
 * ```
 */
export function sicToSector(
  sic: string | number,
  sicDescription?: string | null,
): SicClassification | null {
  const raw = String(sic).trim();
  if (!/^\d{1,4}$/.test(raw)) return null;
  const sicCode = raw.padStart(4, '0');
  const majorGroup = sicCode.slice(0, 2);
  const description = sicDescription?.trim() || null;
  const special = SEC_SPECIAL_CODES[sicCode];
  if (special !== undefined) {
    return {
      sicCode,
      division: null,
      sector: null,
      majorGroup,
      majorGroupName: null,
      industry: description ?? special,
    };
  }
  const group = SIC_MAJOR_GROUPS[majorGroup];
  if (group === undefined) return null;
  const [division, majorGroupName] = group;
  return {
    sicCode,
    division,
    sector: SIC_DIVISIONS[division] ?? null,
    majorGroup,
    majorGroupName,
    industry: description ?? majorGroupName,
  };
}

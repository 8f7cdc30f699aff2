import { z } from 'zod';
import { FundamentalsError } from '../errors.js';

/**
 * Outer shape of an SEC companyfacts document
 * (`https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json`). Only the envelope is
 * validated here; facts are checked one by one, and only for the concepts the parser reads, so
 * that a 4 MB document stays cheap to read.
 */
export const CompanyFactsDocument = z
  .looseObject({
    cik: z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,10}$/)]),
    entityName: z.string().min(1),
    facts: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .meta({ id: 'CompanyFactsDocument' });
export type CompanyFactsDocument = z.infer<typeof CompanyFactsDocument>;

const ConceptEntry = z.looseObject({
  units: z.record(z.string(), z.array(z.unknown())),
});

/** One XBRL fact as companyfacts lists it (see research notes §1). */
export interface RawFact {
  /** First day of a duration; absent for instants. */
  readonly start: string | undefined;
  readonly end: string;
  readonly val: number;
  readonly accn: string;
  readonly form: string;
  readonly filed: string;
  /** Unit key the fact was listed under (`USD`, `USD/shares`, `shares`, `pure`). */
  readonly unit: string;
}

/** All facts of one concept, by unit. */
export type ConceptFacts = Record<string, readonly unknown[]>;

/**
 * Validates the envelope of a companyfacts document.
 *
 * @throws {FundamentalsError} `parse_failed` with the zod issues as `cause`.
 */
export function readCompanyFactsDocument(json: unknown): CompanyFactsDocument {
  const parsed = CompanyFactsDocument.safeParse(json);
  if (!parsed.success) {
    throw new FundamentalsError(
      'parse_failed',
      `Not an SEC companyfacts document: ${z.prettifyError(parsed.error)}`,
      { cause: parsed.error },
    );
  }
  return parsed.data;
}

/**
 * Reads the units of one concept (`us-gaap:Revenues`) from a validated document.
 *
 * @returns `undefined` when the document does not carry the concept.
 * @throws {FundamentalsError} `parse_failed` when the concept entry has no `units` map of arrays.
 */
export function conceptUnits(doc: CompanyFactsDocument, qname: string): ConceptFacts | undefined {
  const [taxonomy = '', name = ''] = qname.split(':');
  const entry = doc.facts[taxonomy]?.[name];
  if (entry === undefined) return undefined;
  const parsed = ConceptEntry.safeParse(entry);
  if (!parsed.success) {
    throw new FundamentalsError('parse_failed', `Malformed concept ${qname} in companyfacts`, {
      cause: parsed.error,
    });
  }
  return parsed.data.units;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Checks one fact cheaply (a hand-written guard rather than zod: there are tens of thousands).
 *
 * @returns the fact, or `undefined` when it lacks a field the parser needs (such facts are
 *   skipped and counted).
 */
export function toRawFact(value: unknown, unit: string): RawFact | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const f = value as Record<string, unknown>;
  const { start, end, val, accn, form, filed } = f;
  if (typeof end !== 'string' || !DATE.test(end)) return undefined;
  if (start !== undefined && (typeof start !== 'string' || !DATE.test(start))) return undefined;
  if (typeof val !== 'number' || !Number.isFinite(val)) return undefined;
  if (typeof accn !== 'string' || typeof form !== 'string') return undefined;
  if (typeof filed !== 'string' || !DATE.test(filed)) return undefined;
  return { start, end, val, accn, form, filed, unit };
}

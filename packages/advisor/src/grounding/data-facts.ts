import { MoatEvaluation } from '@svc/schemas';
import { evaluationFacts } from './evaluation-facts.js';
import {
  emptyFacts,
  type Fact,
  type FactSet,
  type FactSource,
  type FactUnit,
  mergeFacts,
  signOf,
  subjectNames,
} from './facts.js';
import { type Metric, metricOfField } from './metrics.js';

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

function numeric(value: unknown): number | null | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && DECIMAL.test(value)) return Number(value);
  if (value === null) return null;
  return undefined;
}

/** Fields that are multiples: the evaluation's and the X-ray's P/E, forward P/E and PEG. */
const MULTIPLES = new Set(['peRatio', 'forwardPE', 'pegRatio', 'pe', 'forwardPe', 'peg']);

function unitOfField(
  field: string,
  row: Record<string, unknown>,
): { unit: FactUnit; currency?: string } {
  if (field === 'weight') return { unit: 'fraction' };
  if (field === 'quantity') return { unit: 'count' };
  if (field === 'totalScore' || field === 'maxScore') return { unit: 'points' };
  if (MULTIPLES.has(field)) return { unit: 'multiple' };
  if (field.endsWith('Eur')) return { unit: 'currency', currency: 'EUR' };
  const money = ['averageCost', 'lastPrice', 'marketValue', 'amount', 'price', 'fee'];
  if (money.includes(field) && typeof row.currency === 'string') {
    return { unit: 'currency', currency: row.currency.toUpperCase() };
  }
  return { unit: 'number' };
}

/**
 * Fields a user (or a model, through an accepted proposal) wrote: names, tags, notes. They are
 * never a source of facts — a tag "net margin 88 %" grounds nothing.
 */
export const USER_TEXT_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'portfolioName',
  'tags',
  'tag',
  'notes',
  'note',
  'description',
  'title',
  'label',
  'comment',
  'memo',
]);

/**
 * What the items of an array at `path` are, from its last name: `listPortfolios` → `portfolios`,
 * `listMoatReports.reports` → `reports`, `listTransactions` → `transactions` (so "2 portfolios"
 * is grounded by the length of the portfolio list, and "10 brands" by nothing).
 */
function nounOfPath(path: string): string | undefined {
  const last =
    path
      .split('.')
      .at(-1)
      ?.replace(/\[\d+\]$/, '') ?? '';
  const words = last
    .replace(/^(?:list|get|find|search|screen)(?=[A-Z])/, '')
    .split(/(?=[A-Z])|[_-]/)
    .filter(Boolean);
  const noun = words.at(-1)?.toLowerCase();
  return noun && noun.length > 2 ? noun : undefined;
}

/** Fields whose value is a change (a profit or loss): their sign is their direction. */
const CHANGE_FIELDS = new Set(['unrealizedPnlEur', 'realizedPnlEur', 'pnl', 'pnlEur']);

function rowFacts(
  row: Record<string, unknown>,
  path: string,
  subject: string,
  source: FactSource,
): Fact[] {
  const facts: Fact[] = [];
  for (const [field, raw] of Object.entries(row)) {
    if (USER_TEXT_FIELDS.has(field)) continue;
    const value = numeric(raw);
    if (value === undefined) continue;
    const metric = metricOfField(field);
    const { unit, currency } = unitOfField(field, row);
    facts.push({
      key: `${path}.${field}`,
      metrics: metric ? [metric] : [],
      subject,
      unit,
      ...(currency ? { currency } : {}),
      value: value === null ? null : Math.abs(value),
      ...signOf(value),
      ...(CHANGE_FIELDS.has(field) ? { aggregate: 'change' as const } : {}),
      halfUnit: 0,
      ...(field === 'maxScore' ? { role: 'total' as const } : {}),
      label: `${subject ? `${subject} ` : ''}${field} = ${value === null ? 'N/A' : value}`,
      ...(source === 'service' ? {} : { source }),
    });
  }
  return facts;
}

/** The portfolio's totals over holdings rows: market value, cost basis and P&L in EUR. */
function totals(rows: Record<string, unknown>[], path: string, source: FactSource): Fact[] {
  const sum = (field: string): number | null => {
    const values = rows.map((r) => numeric(r[field]));
    if (values.some((v) => v === null || v === undefined)) return null;
    return (values as number[]).reduce((a, b) => a + b, 0);
  };
  const fields: [string, Metric][] = [
    ['marketValueEur', 'market_value'],
    ['costBasisEur', 'cost_basis'],
    ['unrealizedPnlEur', 'pnl'],
  ];
  return fields
    .filter(([field]) => rows.some((r) => field in r))
    .map(([field, metric]) => {
      const value = sum(field);
      return {
        key: `${path}.total.${field}`,
        metrics: [metric],
        subject: 'portfolio',
        unit: 'currency' as const,
        currency: 'EUR',
        value: value === null ? null : Math.abs(value),
        ...signOf(value),
        ...(CHANGE_FIELDS.has(field) ? { aggregate: 'change' as const } : {}),
        halfUnit: 0,
        label: `portfolio total ${field} = ${value === null ? 'N/A' : value}`,
        ...(source === 'service' ? {} : { source }),
      };
    });
}

function walk(
  data: unknown,
  path: string,
  subject: string,
  into: FactSet,
  source: FactSource,
): void {
  if (Array.isArray(data)) {
    const rows = data.filter(
      (d): d is Record<string, unknown> => d !== null && typeof d === 'object',
    );
    const holdings = rows.length > 0 && rows.every((r) => typeof r.symbol === 'string');
    const noun = nounOfPath(path);
    into.facts.push({
      key: `${path}.length`,
      metrics: holdings ? ['holdings_count'] : [],
      subject: '',
      unit: 'count',
      value: data.length,
      halfUnit: 0,
      ...(noun ? { noun } : {}),
      label: `${path} has ${data.length} item(s)`,
    });
    if (holdings && rows.some((r) => 'marketValueEur' in r)) {
      into.facts.push(...totals(rows, path, source));
    }
    data.forEach((item, i) => {
      walk(item, `${path}[${i}]`, subject, into, source);
    });
    return;
  }
  // Free text in tool data is not the service's statement of a figure (names, tags, notes,
  // descriptions are the user's or a model's words): it grounds nothing.
  if (typeof data === 'string') return;
  if (data === null || typeof data !== 'object') return;
  const evaluation = MoatEvaluation.safeParse(data);
  if (evaluation.success && Array.isArray((data as { criteria?: unknown }).criteria)) {
    const facts = evaluationFacts(evaluation.data);
    if (source !== 'service') {
      facts.facts.splice(0, facts.facts.length, ...facts.facts.map((f) => ({ ...f, source })));
    }
    mergeFacts(into, facts);
    return;
  }
  const row = data as Record<string, unknown>;
  const own = typeof row.symbol === 'string' ? row.symbol.toUpperCase() : subject;
  if (typeof row.symbol === 'string') {
    const name = typeof row.name === 'string' ? row.name : (row.companyName as string | undefined);
    into.subjects.set(own, subjectNames(own, name));
  }
  into.facts.push(...rowFacts(row, path, own, source));
  for (const [field, value] of Object.entries(row)) {
    if (USER_TEXT_FIELDS.has(field)) continue;
    if (value !== null && typeof value === 'object') {
      walk(value, `${path}.${field}`, own, into, source);
    }
  }
}

/**
 * The typed facts of tool data (any JSON the advisor's tools return): a moat evaluation gives
 * {@link evaluationFacts}; a row with a `symbol` is that subject's (holdings, quotes, reports),
 * its known fields typed by {@link metricOfField} (`quantity` a count, `*Eur` amounts in EUR,
 * `averageCost`/`lastPrice`/`marketValue`/`amount` in the row's `currency`, `weight` a fraction
 * 0–1 that a percentage may state ×100), other numbers untyped; decimal strings are numbers; an
 * array of rows with symbols is also a count of holdings and, with EUR values, the portfolio's
 * totals. Text is never a source of facts: strings other than decimals are skipped, and so are
 * the fields a user or a model wrote ({@link USER_TEXT_FIELDS}: names, tags, notes…); a profit
 * or loss is a change whose sign is its direction.
 *
 * @param data - A tool result.
 * @param path - Key prefix, e.g. the tool's name.
 * @param source - Who wrote the data ({@link FactSource}): `client` data (a saved report: its
 *   `totalScore` and its evaluation were written by the client that saved it) gives the names of
 *   its companies but facts that ground nothing.
 */
export function dataFacts(
  data: unknown,
  path = 'data',
  source: Exclude<FactSource, 'user'> = 'service',
): FactSet {
  const set = emptyFacts();
  walk(data, path, '', set, source);
  return set;
}

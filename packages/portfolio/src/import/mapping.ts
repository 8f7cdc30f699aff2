import { z } from 'zod';
import type { NewTransaction } from '../transaction.js';
import { type DateOrder, readDateTime } from './dates.js';
import { type BrokerFormatSpec, type CsvRow, cashBySign, outcome, type RowOutcome } from './row.js';
import { abs, dividedBy, readOptionalNumber, sign, times } from './values.js';

/** Fields a column can be mapped to. */
export const MAPPED_FIELDS = [
  'date',
  'action',
  'symbol',
  'isin',
  'name',
  'quantity',
  'price',
  'currency',
  'fee',
  'amount',
] as const;
type MappedField = (typeof MAPPED_FIELDS)[number];

/** What an action value means. `interest` becomes a deposit noted interest. */
export const MAPPED_KINDS = [
  'buy',
  'sell',
  'dividend',
  'interest',
  'deposit',
  'withdrawal',
  'fee',
  'skip',
] as const;

/**
 * A column mapping for a broker without a module of its own: which header holds each field,
 * how its dates and numbers are written, and what each value of the action column means. Proposed
 * by {@link proposeMapping}, confirmed or corrected by the user, then passed back as the import's
 * `mapping`.
 */
export const ColumnMapping = z
  .object({
    delimiter: z.enum([',', ';', '\t', '|']).describe('Field separator'),
    columns: z
      .partialRecord(z.enum(MAPPED_FIELDS), z.string().min(1))
      .describe('Header name (as in the file) per field; date and quantity or amount needed'),
    dateOrder: z.enum(['dmy', 'mdy', 'ymd']).describe('Order of day, month and year'),
    decimal: z.enum(['.', ',']).describe('Decimal mark of the numbers'),
    actions: z
      .record(z.string(), z.enum(MAPPED_KINDS))
      .describe('Meaning of each value of the action column (case-insensitive)'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .describe('Currency of every row when the file has no currency column'),
  })
  .meta({ id: 'ColumnMapping' });
export type ColumnMapping = z.infer<typeof ColumnMapping>;

/** A proposed mapping with what the importer is unsure of. */
export interface MappingProposal {
  readonly mapping: ColumnMapping;
  /** Action values with no meaning found (mapped to `skip` until the user says otherwise). */
  readonly unmappedActions: string[];
  /** Fields no column was found for. */
  readonly missing: MappedField[];
}

/** Header names per field, normalised (lower case, letters and digits only); NL, DE, FR, ES, PT. */
const SYNONYMS: Record<MappedField, string[]> = {
  date: [
    'date',
    'datum',
    'tradedate',
    'fecha',
    'data',
    'time',
    'datetime',
    'transactiondate',
    'zeit',
  ],
  action: [
    'action',
    'type',
    'transactiontype',
    'transactietype',
    'typ',
    'buysell',
    'side',
    'omschrijving',
    'description',
    'art',
    'tipo',
    'operation',
  ],
  symbol: ['symbol', 'ticker', 'code', 'instrumentsymbol', 'tickersymbol'],
  isin: ['isin', 'instrumentisin'],
  name: [
    'name',
    'product',
    'instrument',
    'security',
    'wertpapier',
    'produkt',
    'naam',
    'nom',
    'nombre',
  ],
  quantity: [
    'quantity',
    'qty',
    'shares',
    'units',
    'aantal',
    'anzahl',
    'stuck',
    'stück',
    'quantite',
    'cantidad',
    'quantidade',
    'noofshares',
  ],
  price: [
    'price',
    'unitprice',
    'tradeprice',
    'koers',
    'kurs',
    'prix',
    'precio',
    'preco',
    'pricepershare',
  ],
  currency: [
    'currency',
    'ccy',
    'valuta',
    'wahrung',
    'devise',
    'moneda',
    'moeda',
    'currencyprimary',
  ],
  fee: [
    'fee',
    'fees',
    'commission',
    'kosten',
    'gebuhr',
    'gebuhren',
    'frais',
    'comision',
    'feescomm',
  ],
  amount: [
    'amount',
    'total',
    'value',
    'bedrag',
    'betrag',
    'montant',
    'importe',
    'valor',
    'netamount',
    'waarde',
    'totalamount',
  ],
};

/** Keywords of action values per kind (lower case, checked in this order). */
const ACTION_WORDS: [RegExp, (typeof MAPPED_KINDS)[number]][] = [
  [/dividend|divid|ausschüttung/, 'dividend'],
  [/interest|rente|zins|intérêt|interes/, 'interest'],
  [/fee|kosten|gebühr|frais|commission|tax|steuer|belasting/, 'fee'],
  [/withdraw|opname|auszahlung|retrait|onttrekking|retirada/, 'withdrawal'],
  [/deposit|storting|einzahlung|dépôt|ingreso|top-up/, 'deposit'],
  [/sell|verkoop|verkauf|vente|venta|venda/, 'sell'],
  [/buy|koop|kauf|achat|compra|purchase|reinvest/, 'buy'],
];

const normalise = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/**
 * Proposes a {@link ColumnMapping} from a file's header and values (the approach of research note
 * broker-import-anchors §3): the delimiter is the candidate found most often and equally often on
 * the first lines; each field takes the header whose normalised name is a known synonym (exact,
 * then prefix); a date or action column no header names is found from the values (the first free
 * column whose sampled cells all read as dates, or all name an action); the date order is the
 * one that reads every sampled date (day-first when nothing
 * tells); the decimal mark is the one a sample of number cells shows; every distinct action value
 * is given a kind by keywords, and those without one are listed. Never throws: `undefined` when
 * the text has no header row of at least three columns.
 */
export function proposeMapping(
  header: readonly string[],
  rows: readonly CsvRow[],
  delimiter: ColumnMapping['delimiter'],
): MappingProposal | undefined {
  if (header.length < 3) return undefined;
  const columns: ColumnMapping['columns'] = {};
  const used = new Set<string>();
  for (const pass of ['exact', 'prefix'] as const) {
    for (const field of MAPPED_FIELDS) {
      if (columns[field] !== undefined) continue;
      const found = header.find((h) => {
        const n = normalise(h);
        if (used.has(h) || n === '') return false;
        return pass === 'exact'
          ? SYNONYMS[field].includes(n)
          : SYNONYMS[field].some((s) => n.startsWith(s));
      });
      if (found !== undefined) {
        columns[field] = found;
        used.add(found);
      }
    }
  }
  const sample = rows.slice(0, 50);
  // From the values where no header name told: the first free column whose every sampled value
  // reads as a date (any order), then the first whose every value names an action.
  const free = (test: (value: string) => boolean) =>
    header.find((h) => {
      if (used.has(h)) return false;
      const cells = sample.map((r) => r.get(h)).filter(Boolean);
      return cells.length > 0 && cells.every(test);
    });
  if (columns.date === undefined) {
    const found = free((v) => (['ymd', 'dmy', 'mdy'] as const).some((o) => readDateTime(v, o).ok));
    if (found !== undefined) {
      columns.date = found;
      used.add(found);
    }
  }
  if (columns.action === undefined) {
    const found = free((v) => ACTION_WORDS.some(([re]) => re.test(v.toLowerCase())));
    if (found !== undefined) {
      columns.action = found;
      used.add(found);
    }
  }
  const values = (field: MappedField) =>
    columns[field] === undefined
      ? []
      : sample.map((r) => r.get(columns[field] ?? '')).filter(Boolean);
  const dates = values('date');
  const orders: DateOrder[] = ['dmy', 'ymd', 'mdy'];
  const dateOrder =
    orders.find((o) => dates.length > 0 && dates.every((d) => readDateTime(d, o).ok)) ?? 'dmy';
  const numbers = [...values('quantity'), ...values('price'), ...values('amount')];
  const decimal = numbers.some((v) => /\d,\d{1,2}$|\d,\d{4,}$|\.\d{3},/.test(v)) ? ',' : '.';
  const actions: Record<string, (typeof MAPPED_KINDS)[number]> = {};
  const unmappedActions: string[] = [];
  for (const value of new Set(rows.map((r) => r.get(columns.action ?? '')).filter(Boolean))) {
    const kind = ACTION_WORDS.find(([re]) => re.test(value.toLowerCase()))?.[1];
    actions[value] = kind ?? 'skip';
    if (kind === undefined) unmappedActions.push(value);
  }
  const missing = MAPPED_FIELDS.filter((f) => columns[f] === undefined);
  return {
    mapping: { delimiter, columns, dateOrder, decimal, actions },
    unmappedActions,
    missing,
  };
}

/**
 * The import format a confirmed {@link ColumnMapping} describes. Per row: the action's kind;
 * buy/sell need quantity and price (or amount ÷ quantity), with fee; dividend, interest,
 * deposit, withdrawal and fee take |amount| (or quantity × price); the instrument is the symbol,
 * else the ISIN; the currency is the column's, else `mapping.currency`.
 */
export function mappedFormat(mapping: ColumnMapping): BrokerFormatSpec {
  const lookup = new Map(Object.entries(mapping.actions).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    id: 'mapped',
    label: 'mapped columns',
    delimiter: mapping.delimiter,
    matches: () => true,
    mapRow: (row) => mapRow(row, mapping, lookup),
  };
}

function mapRow(
  row: CsvRow,
  mapping: ColumnMapping,
  lookup: ReadonlyMap<string, (typeof MAPPED_KINDS)[number]>,
): RowOutcome {
  const get = (field: MappedField) => {
    const column = mapping.columns[field];
    return column === undefined ? '' : row.get(column);
  };
  const actionText = get('action');
  const kind = mapping.columns.action === undefined ? 'buy' : lookup.get(actionText.toLowerCase());
  if (kind === undefined)
    return outcome.error(`action "${actionText}" has no meaning in the mapping`);
  if (kind === 'skip') return outcome.skip(`action "${actionText}" is mapped to skip`);
  const date = readDateTime(get('date'), mapping.dateOrder);
  if (!date.ok) return outcome.error(date.message);
  const style = { decimal: mapping.decimal };
  const quantity = readOptionalNumber(get('quantity'), 'quantity', style);
  const price = readOptionalNumber(get('price'), 'price', style);
  const amount = readOptionalNumber(get('amount'), 'amount', style);
  const fee = readOptionalNumber(get('fee'), 'fee', style);
  for (const n of [quantity, price, amount, fee]) if (!n.ok) return outcome.error(n.message);
  const q = quantity.ok ? quantity.value : undefined;
  const p = price.ok ? price.value : undefined;
  const a = amount.ok ? amount.value : undefined;
  const f = fee.ok && fee.value !== undefined ? abs(fee.value) : undefined;
  const currency = (get('currency') || mapping.currency || '').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return outcome.error('no currency (map a column or set one)');
  const symbol = get('symbol') || get('isin');
  const base = { currency, executedAt: date.value };
  const meta = { name: get('name') || undefined };
  if (kind === 'buy' || kind === 'sell') {
    if (q === undefined || sign(q) === 0) return outcome.error(`${kind} without a quantity`);
    const priceValue = p ?? (a === undefined ? undefined : dividedBy(abs(a), abs(q)));
    if (priceValue === undefined) return outcome.error(`${kind} without a price or an amount`);
    if (!symbol) return outcome.error(`${kind} without a symbol or ISIN`);
    const tx: NewTransaction = {
      type: kind,
      symbol,
      quantity: abs(q),
      price: abs(priceValue),
      ...base,
      ...(f !== undefined && sign(f) > 0 ? { fee: f } : {}),
    };
    return outcome.with(meta, tx);
  }
  const value = a ?? (q !== undefined && p !== undefined ? times(q, p) : undefined);
  if (value === undefined || sign(value) === 0)
    return outcome.skip(`${actionText} without an amount`);
  if (kind === 'dividend') {
    if (!symbol) return outcome.error('dividend without a symbol or ISIN');
    return outcome.with(meta, { type: 'dividend', symbol, amount: abs(value), ...base });
  }
  if (kind === 'fee')
    return outcome.with(meta, { type: 'fee', amount: abs(value), ...base, note: actionText });
  const signed =
    kind === 'withdrawal'
      ? `-${abs(value)}`
      : kind === 'deposit' || kind === 'interest'
        ? abs(value)
        : value;
  const tx = cashBySign(signed, { ...base, note: kind === 'interest' ? 'interest' : actionText });
  return tx ? outcome.with(meta, tx) : outcome.skip(`${actionText} of 0`);
}

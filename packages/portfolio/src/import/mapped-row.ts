import { Dec } from '../decimal.js';
import type { NewTransaction } from '../transaction.js';
import {
  currencyInCell,
  isCurrencyCode,
  isIsin,
  isinIn,
  readCell,
  readDate,
} from './generic/cells.js';
import { readTradePattern } from './generic/trade-pattern.js';
import { readTradeText, type TradeText } from './generic/trade-text.js';
import type { ColumnMapping, MappedField, MappedKind } from './mapping.js';
import {
  type BrokerFormatSpec,
  type CsvRow,
  cashBySign,
  type LineOutcome,
  outcome,
  type RowContext,
  type RowMeta,
  type RowOutcome,
} from './row.js';
import { ownFee, withConversion, withOwnFees } from './row-options.js';
import { readPaired, realign, type TableReader } from './table-options.js';
import { abs, dividedBy, minus, negate, plus, sign, times } from './values.js';

type NumberField = 'quantity' | 'price' | 'fee' | 'amount' | 'tax';
type Numbers = Partial<Record<NumberField, string>>;
type Base = { currency: string; executedAt: string };
/** Which fee a trade without a fee column takes from its amount (see `impliedFee`). */
type ImpliedFees = 'bounded' | 'whole' | 'none';

/** The number columns each kind reads (a split row's other cells may hold anything). */
const READS: Record<Exclude<MappedKind, 'skip'>, readonly NumberField[]> = {
  buy: ['quantity', 'price', 'fee', 'amount'],
  sell: ['quantity', 'price', 'fee', 'amount'],
  trade: ['quantity', 'price', 'fee', 'amount'],
  shares: ['quantity'],
  dividend: ['amount', 'quantity', 'price'],
  interest: ['amount', 'quantity', 'price'],
  deposit: ['amount', 'quantity', 'price'],
  withdrawal: ['amount', 'quantity', 'price'],
  fee: ['amount', 'quantity', 'price'],
  cash: ['amount', 'quantity', 'price'],
  tax: ['amount', 'quantity', 'price'],
  charge: ['amount', 'quantity', 'price'],
  conversion: ['quantity', 'amount', 'price', 'fee'],
};

/**
 * The meaning of an action value under a mapping: its exact value (case-insensitive) in `actions`,
 * else the first of `actionPatterns` it matches whose sign condition (`when`) the row's amount
 * meets (`amount`: the amount cell as read, `undefined` when the row has none), else `undefined`.
 * Without an action column every row is a `trade`.
 */
export function actionResolver(
  mapping: ColumnMapping,
): (action: string, amount?: string) => MappedKind | undefined {
  const rule = actionRuleResolver(mapping);
  return (action, amount) => rule(action, amount)?.kind;
}

/**
 * As {@link actionResolver}, with the `tag` of the pattern that gave the kind (see
 * {@link ColumnMapping} `idTemplate`'s `{tag}`); an exact value of `actions` has no tag.
 */
export function actionRuleResolver(
  mapping: ColumnMapping,
): (action: string, amount?: string) => { kind: MappedKind; tag?: string } | undefined {
  if (mapping.columns.action === undefined) return () => ({ kind: 'trade' });
  const lookup = new Map(Object.entries(mapping.actions).map(([k, v]) => [k.toLowerCase(), v]));
  const patterns = (mapping.actionPatterns ?? []).flatMap((p) => {
    const regex = safeRegex(p.pattern);
    return regex ? [{ ...p, regex }] : [];
  });
  return (action, amount) => {
    const exact = lookup.get(action.toLowerCase());
    if (exact !== undefined) return { kind: exact };
    const signed = amount === undefined ? 0 : sign(amount);
    const found = patterns.find(
      (p) =>
        p.regex.test(action) &&
        (p.when === undefined || (p.when === 'negative' ? signed < 0 : signed > 0)),
    );
    if (found === undefined) return undefined;
    return { kind: found.kind, ...(found.tag !== undefined ? { tag: found.tag } : {}) };
  };
}

/** A case-insensitive regular expression, or `undefined` when the pattern does not compile. */
export function safeRegex(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'iu');
  } catch {
    return undefined;
  }
}

/**
 * The cell a column reference names: a header name, or `#n` (0-based position); `A|B` (columns
 * a definition lists as alternatives, as resolved against the file) the first of them not empty.
 */
export function cellOf(row: CsvRow, column: string | undefined): string {
  if (column === undefined) return '';
  const position = /^#(\d+)$/.exec(column);
  if (position) return row.cell(Number(position[1]));
  if (!column.includes('|') || row.has(column)) return row.get(column);
  for (const name of column.split('|')) {
    const cell = cellOf(row, name);
    if (cell !== '') return cell;
  }
  return '';
}

/** A field of a row under a mapping: its column's cell, or the part `extract` takes of it. */
export function fieldOf(row: CsvRow, mapping: ColumnMapping, field: MappedField): string {
  return extracted(mapping, field, cellOf(row, mapping.columns[field]));
}

/** The first of `mapping.skipRows` whose every condition the row meets, if any. */
export function skipRuleOf(
  row: CsvRow,
  mapping: ColumnMapping,
): NonNullable<ColumnMapping['skipRows']>[number] | undefined {
  return mapping.skipRows?.find((rule) =>
    [{ column: rule.column, pattern: rule.pattern }, ...(rule.and ?? [])].every((c) =>
      safeRegex(c.pattern)?.test(cellOf(row, c.column)),
    ),
  );
}

/** The part of a cell `mapping.extract` says holds the field (the first group), else the cell. */
function extracted(mapping: ColumnMapping, field: MappedField, cell: string): string {
  const pattern = mapping.extract?.[field];
  if (pattern === undefined) return cell;
  return safeRegex(pattern)?.exec(cell)?.[1]?.trim() ?? '';
}

/**
 * Reads one row with a confirmed mapping. Per row: the action's kind (no action column: `trade`);
 * buy/sell need a quantity (column, or the trade text of `details`) and a price (column; the
 * text's price when it names its currency or there is no amount; else |amount| ÷ quantity), with
 * |fee|; a trade without an instrument is skipped (a currency trade: its cash is not modelled);
 * `shares` is a buy at price 0 of a positive quantity; dividend, interest, deposit, withdrawal,
 * fee and cash take the amount (or quantity × price). Numbers may carry currency codes or
 * symbols. The instrument is the ISIN (found inside the cell when the column is a name column),
 * else the symbol (`NKE/USD`, `VWRL:xams` read as NKE, VWRL); the currency is the currency
 * column's, else one named in a number cell, the trade text or the symbol's pair, else
 * `mapping.currency`. With an `id` column the row's id (with its action) is its broker id.
 */
export function mapRow(
  row: CsvRow,
  mapping: ColumnMapping,
  kindOf: (action: string, amount?: string) => { kind: MappedKind; tag?: string } | undefined,
  sides: ReadonlyMap<string, 'buy' | 'sell'>,
  context: RowContext = {},
): RowOutcome {
  const get = (field: MappedField) => fieldOf(row, mapping, field);
  const rule = skipRuleOf(row, mapping);
  if (rule !== undefined) return outcome.skip(rule.reason);
  const actionText = get('action');
  const resolved = kindOf(actionText, amountOf(get('amount'), mapping));
  const kind = resolved?.kind;
  if (kind === undefined) {
    return outcome.error(
      `column "${mapping.columns.action}": action "${actionText}" has no meaning in the mapping`,
    );
  }
  if (kind === 'skip') return outcome.skip(`action "${actionText}" is mapped to skip`);
  const assetClass = get('assetClass');
  if (
    assetClass &&
    mapping.skipClasses?.some((c) => c.toLowerCase() === assetClass.toLowerCase())
  ) {
    return outcome.skip(
      `asset class "${assetClass}" is skipped (a contract, not an owned instrument)`,
    );
  }
  const dateCell = [get('date'), get('time')].filter(Boolean).join(' ');
  const executedAt =
    readDate(
      mapping.shortYears ? widenYear(dateCell, mapping.dateOrder) : dateCell,
      mapping.dateOrder,
    ) ??
    (mapping.yearFirst && /^\d{4}[-/.]/.test(dateCell) ? readDate(dateCell, 'ymd') : undefined);
  if (executedAt === undefined) {
    return outcome.error(
      `column "${mapping.columns.date}": "${dateCell}" is not a date in the order ${mapping.dateOrder}`,
    );
  }
  const numbers: Numbers = {};
  const fields: NumberField[] =
    mapping.columns.tax === undefined ? [...READS[kind]] : [...READS[kind], 'tax'];
  for (const field of fields) {
    const cell = get(field);
    if (cell === '' || cell === '-' || /^n\/a$/i.test(cell)) continue;
    const mark = field === 'tax' ? undefined : mapping.decimals?.[field];
    const value = readCell(cell, mark ?? mapping.decimal);
    if (value === undefined) {
      return outcome.error(`column "${mapping.columns[field]}": "${cell}" is not a number`);
    }
    numbers[field] = value;
  }
  const q = numbers.quantity;
  if (mapping.quantitySign === 'positive' && (kind === 'buy' || kind === 'sell') && q) {
    if (sign(q) < 0) return outcome.error(`${kind} of a negative quantity (${q})`);
  }
  const details = get('details');
  const mark = mapping.decimals?.details ?? mapping.decimal;
  const text =
    details === ''
      ? undefined
      : mapping.detailsPattern !== undefined
        ? readTradePattern(details, mapping.detailsPattern, mark, sides)
        : readTradeText(details, mark);
  const currency =
    mapping.currencySource === 'mapping'
      ? mapping.currency
      : mapping.currencySource === 'account'
        ? (context.accountCurrency ?? mapping.currency)
        : currencyOf(get, mapping, text);
  if (currency === undefined) {
    return outcome.error("no currency (map a currency column or set the mapping's currency)");
  }
  // a trade priced in another currency than the cash side's (see `priceCurrency`)
  const priced =
    mapping.priceCurrency !== undefined && ['buy', 'sell', 'trade', 'shares'].includes(kind)
      ? cellOf(row, mapping.priceCurrency).toUpperCase()
      : '';
  const dealt = /^[A-Z]{3}$/.test(priced) ? priced : currency;
  const pence = dealt === 'GBX' || get('currency') === 'GBp';
  const base = { currency: pence ? 'GBP' : dealt, executedAt };
  if (pence && numbers.price !== undefined) numbers.price = dividedBy(numbers.price, '100');
  const ids = identifiersOf(get('symbol'), get('isin'));
  const symbol =
    mapping.instrument === 'isin' ? (ids.isin ?? ids.ticker ?? '') : (ids.ticker ?? ids.isin ?? '');
  const id = get('id');
  const externalId =
    id === '' || id === '-'
      ? undefined
      : idOf(mapping.idTemplate, id, actionText, executedAt, resolved?.tag);
  const named = get('name') !== '' && (symbol !== '' || mapping.names !== 'instrument-rows');
  const unlisted =
    mapping.unlisted !== undefined &&
    safeRegex(mapping.unlisted.pattern)?.test(cellOf(row, mapping.unlisted.column)) === true;
  const meta: RowMeta = {
    ...(named ? { name: get('name') } : {}),
    ...(externalId !== undefined ? { externalId } : {}),
    ...(unlisted ? {} : ids),
  };
  const note = noteOf(mapping, row, actionText, numbers.amount);
  let besideFees: NewTransaction[] = [];
  if (mapping.ownFee) {
    const feeCell = get('fee');
    const fee =
      feeCell === '' ? undefined : readCell(feeCell, mapping.decimals?.fee ?? mapping.decimal);
    if (feeCell !== '' && fee === undefined) {
      return outcome.error(`column "${mapping.columns.fee}": "${feeCell}" is not a number`);
    }
    const own = ownFee({ kind, quantity: q, fee, symbol, unlisted, note, base, meta });
    if ('answer' in own) return own.answer;
    besideFees = own.beside;
  }
  const taxes = taxOf(numbers, symbol, base, kind);
  const feeCurrency = get('feeCurrency').toUpperCase();
  const conversion = () =>
    noted(
      convert(numbers, get('symbol'), get('price'), feeCurrency, base, mapping, {
        ...(meta.externalId !== undefined ? { externalId: meta.externalId } : {}),
      }),
      note,
    );
  if (kind === 'conversion') return conversion();
  if (kind === 'buy' || kind === 'sell' || kind === 'trade') {
    if (!symbol && mapping.noInstrument === 'conversion') return conversion();
    const side = kind === 'trade' ? sideOf(get('side'), sides, text, numbers, mapping) : kind;
    if (side === undefined) return outcome.error(`trade "${actionText}" without a side`);
    if (!symbol && mapping.noInstrument === 'error') {
      return outcome.error(`${side} without an instrument`);
    }
    if (!symbol) return outcome.skip(`${side} without an instrument (a currency trade?)`);
    const apart = feeApart(numbers, feeCurrency, symbol, base, mapping);
    if (apart.length > 0) numbers.fee = undefined;
    const gross = mapping.tradeAmount === 'gross';
    const costs = mapping.tradeAmount === 'net-of-fee' ? { ...numbers, tax: undefined } : numbers;
    const rate = get('fxRate');
    const implied: ImpliedFees =
      mapping.impliedFee === false
        ? 'none'
        : mapping.impliedFee === 'at-rate-1'
          ? rate === '' || (readCell(rate, mapping.decimal) ?? '') === '1'
            ? 'whole'
            : 'none'
          : 'bounded';
    const read = trade(side, costs, text, symbol, base, meta, gross, implied);
    const converted = mapping.priceCurrency
      ? withConversion(noted(read, note), {
          // the cash side's currency: the currency column's, or the mapping's when it has none
          currency: currency.toUpperCase(),
          amount: numbers.amount,
        })
      : noted(read, note);
    return withTaxes(withTaxes(converted, apart), taxes);
  }
  if (kind === 'shares') return noted(shares(numbers, text, symbol, base, meta, actionText), note);
  if (kind === 'dividend' && numbers.amount !== undefined && sign(numbers.amount) < 0) {
    if (mapping.negativeDividend === 'skip') {
      return outcome.skip(`${actionText} of ${numbers.amount}: a reversal, not modelled`);
    }
    if (mapping.negativeDividend === 'withdrawal') {
      const reversal = note ?? actionText;
      const tx = cashBySign(numbers.amount, { ...base, ...(reversal ? { note: reversal } : {}) });
      return tx ? outcome.with(meta, tx) : outcome.skip(`${actionText} of 0`);
    }
  }
  if (kind === 'dividend' && taxes.length > 0 && mapping.dividendAmount !== 'gross') {
    const { amount } = numbers;
    if (amount !== undefined && numbers.tax !== undefined) {
      numbers.amount = plus(abs(amount), abs(numbers.tax));
    }
  }
  const read = withTaxes(noted(cash(kind, numbers, symbol, base, meta, actionText), note), taxes);
  return withOwnFees(read, besideFees, meta);
}

/**
 * The row's broker id written with `template` (see {@link ColumnMapping} `idTemplate`); none when
 * the template has `{tag}` and the row's kind came without a tag.
 */
function idOf(
  template: string | undefined,
  id: string,
  action: string,
  executedAt: string,
  tag: string | undefined,
): string | undefined {
  if (template === undefined) return `${id}|${action}`;
  if (template.includes('{tag}') && tag === undefined) return undefined;
  return template.replace(/\{(id|action|actionLower|executedAt|tag)\}/g, (_, name: string) =>
    name === 'id'
      ? id
      : name === 'action'
        ? action
        : name === 'actionLower'
          ? action.toLowerCase()
          : name === 'tag'
            ? (tag ?? '')
            : executedAt,
  );
}

/** The amount cell as a number (for a pattern's sign condition), `undefined` when it is none. */
function amountOf(cell: string, mapping: ColumnMapping): string | undefined {
  if (cell === '' || cell === '-') return undefined;
  return readCell(cell, mapping.decimals?.amount ?? mapping.decimal);
}

/**
 * The note of the first `notes` rule whose pattern the action matches and whose sign condition
 * the amount meets (`undefined`: none), its placeholders filled.
 */
function noteOf(
  mapping: ColumnMapping,
  row: CsvRow,
  action: string,
  amount: string | undefined,
): string | undefined {
  const signed = amount === undefined ? 0 : sign(amount);
  const rule = mapping.notes?.find(
    (n) =>
      safeRegex(n.pattern)?.test(action) &&
      (n.when === undefined || (n.when === 'negative' ? signed < 0 : signed > 0)) &&
      (n.filled === undefined || cellOf(row, n.filled) !== ''),
  );
  return rule?.note.replace(/\{([^{}]+)\}/g, (_, names: string) => {
    for (const name of names.split('|')) {
      const value = name === 'action' ? action : cellOf(row, name);
      if (value !== '') return value;
    }
    return '';
  });
}

/** The transactions of `result` with `note` (none when empty), when a note rule applies. */
function noted(result: RowOutcome, note: string | undefined): RowOutcome {
  if (note === undefined || result.kind !== 'transactions') return result;
  const transactions = result.transactions.map((tx) => {
    const { note: _, ...rest } = tx;
    return (note === '' ? rest : { ...rest, note }) as NewTransaction;
  });
  return { ...result, transactions };
}

/** A trade's fee in another currency than the trade's, as a fee transaction of its own. */
function feeApart(
  numbers: Numbers,
  feeCurrency: string,
  symbol: string,
  base: Base,
  mapping: ColumnMapping,
): NewTransaction[] {
  const { fee } = numbers;
  if (fee === undefined || sign(fee) === 0 || feeCurrency === '' || feeCurrency === base.currency) {
    return [];
  }
  const note = mapping.feeNote ?? 'fee';
  return [{ type: 'fee', symbol, amount: abs(fee), ...base, currency: feeCurrency, note }];
}

/**
 * A currency conversion (see {@link MAPPED_KINDS} `conversion`): the base currency's leg by the
 * sign of the quantity, the quote currency's by the opposite sign of the amount, and the fee.
 */
function convert(
  numbers: Numbers,
  symbolCell: string,
  priceCell: string,
  feeCurrency: string,
  base: Base,
  mapping: ColumnMapping,
  meta: RowMeta,
): RowOutcome {
  const quote = base.currency;
  const pair = /^([A-Z]{3})\.([A-Z]{3})$/.exec(symbolCell.toUpperCase());
  const sold = pair?.[1] ?? (feeCurrency && feeCurrency !== quote ? feeCurrency : '');
  if (sold === '') {
    return outcome.error('currency conversion whose sold currency cannot be told (no symbol pair)');
  }
  const { quantity, amount, fee } = numbers;
  if (quantity === undefined) return outcome.error('currency conversion without a quantity');
  if (amount === undefined) return outcome.error('currency conversion without an amount');
  const executedAt = base.executedAt;
  const note = `currency conversion ${sold}/${quote} at ${priceCell}`;
  const legs = [
    cashBySign(quantity, { currency: sold, executedAt, note }),
    cashBySign(negate(amount), { currency: quote, executedAt, note }),
  ].filter((tx): tx is NewTransaction => tx !== undefined);
  const charged: NewTransaction[] =
    fee !== undefined && sign(fee) !== 0
      ? [
          {
            type: 'fee',
            amount: abs(fee),
            currency: feeCurrency || quote,
            executedAt,
            note: mapping.feeNote ?? 'fee',
          },
        ]
      : [];
  return outcome.with(meta, ...legs, ...charged);
}

/** A date whose two-digit year (last field of `dmy`/`mdy`) is written as 20yy. */
function widenYear(cell: string, order: ColumnMapping['dateOrder']): string {
  if (order === 'ymd') return cell.replace(/^(\d{2})([-/.])/, '20$1$2');
  return cell.replace(/^(\d{1,2}[-/.]\d{1,2}[-/.])(\d{2})(?!\d)/, '$120$2');
}

/** A tax column's amount as a fee noted tax (withholding tax beside a dividend). */
function taxOf(numbers: Numbers, symbol: string, base: Base, kind: MappedKind): NewTransaction[] {
  const tax = numbers.tax;
  if (tax === undefined || sign(tax) === 0 || kind === 'tax' || kind === 'fee') return [];
  const note = kind === 'dividend' ? 'withholding tax' : 'tax';
  return [{ type: 'fee', amount: abs(tax), ...(symbol ? { symbol } : {}), ...base, note }];
}

function withTaxes(result: RowOutcome, taxes: NewTransaction[]): RowOutcome {
  if (result.kind !== 'transactions' || taxes.length === 0) return result;
  return { ...result, transactions: [...result.transactions, ...taxes] };
}

function cash(
  kind: 'dividend' | 'interest' | 'deposit' | 'withdrawal' | 'fee' | 'cash' | 'tax' | 'charge',
  numbers: Numbers,
  symbol: string,
  base: Base,
  meta: RowMeta,
  actionText: string,
): RowOutcome {
  const { amount, quantity, price } = numbers;
  const value = amount ?? (quantity && price ? times(quantity, price) : undefined);
  if (value === undefined || sign(value) === 0) {
    return outcome.skip(`${actionText || kind} without an amount`);
  }
  if (kind === 'dividend' && !symbol) {
    const tx = cashBySign(abs(value), { ...base, note: actionText || 'dividend' });
    return tx ? outcome.with(meta, tx) : outcome.skip(`${actionText} of 0`);
  }
  if (kind === 'dividend') {
    return outcome.with(meta, { type: 'dividend', symbol, amount: abs(value), ...base });
  }
  if (kind === 'charge') {
    const tx =
      sign(value) < 0
        ? { type: 'fee' as const, amount: abs(value), ...base, note: actionText }
        : cashBySign(value, { ...base, note: actionText });
    return tx ? outcome.with(meta, tx) : outcome.skip(`${actionText} of 0`);
  }
  if (kind === 'fee' || (kind === 'tax' && sign(value) < 0)) {
    const forSymbol = symbol ? { symbol } : {};
    const note = kind === 'tax' ? `tax: ${actionText}` : actionText;
    return outcome.with(meta, { type: 'fee', amount: abs(value), ...forSymbol, ...base, note });
  }
  if (kind === 'interest' && sign(value) < 0) {
    // interest with a negative amount is interest paid (Nordnet's DEBITRENTE, a margin loan's
    // interest): a cost, never money received
    const note = actionText ? `interest paid: ${actionText}` : 'interest paid';
    return outcome.with(meta, { type: 'fee', amount: abs(value), ...base, note });
  }
  if (kind === 'tax') {
    const tx = cashBySign(value, { ...base, note: `tax refund: ${actionText}` });
    return tx ? outcome.with(meta, tx) : outcome.skip(`${actionText} of 0`);
  }
  const signed = kind === 'withdrawal' ? `-${abs(value)}` : kind === 'cash' ? value : abs(value);
  const note = kind === 'interest' ? 'interest' : actionText;
  const tx = cashBySign(signed, { ...base, ...(note ? { note } : {}) });
  return tx ? outcome.with(meta, tx) : outcome.skip(`${actionText} of 0`);
}

function shares(
  numbers: Numbers,
  text: TradeText | undefined,
  symbol: string,
  base: Base,
  meta: RowMeta,
  actionText: string,
): RowOutcome {
  const q = numbers.quantity ?? text?.quantity;
  if (q === undefined || sign(q) <= 0 || !symbol) {
    return outcome.skip(`${actionText}: no units received (record a reverse split by hand)`);
  }
  return outcome.with(meta, { type: 'buy', symbol, quantity: q, price: '0', ...base });
}

function trade(
  side: 'buy' | 'sell',
  numbers: Numbers,
  text: TradeText | undefined,
  symbol: string,
  base: Base,
  meta: RowMeta,
  grossAmount = false,
  impliedFees: ImpliedFees = 'bounded',
): RowOutcome {
  const q = numbers.quantity ?? text?.quantity;
  if (q === undefined || sign(q) === 0) return outcome.error(`${side} without a quantity`);
  const fromText =
    text !== undefined && (text.currency !== undefined || numbers.amount === undefined);
  const given = numbers.price ?? (fromText ? text?.price : undefined);
  const fee = numbers.fee === undefined ? undefined : abs(numbers.fee);
  // a tax column is booked as its own fee: the price from a net amount leaves it out too
  const costs = numbers.tax === undefined ? fee : plus(fee ?? '0', abs(numbers.tax));
  const price = given ?? priceFromAmount(side, numbers.amount, grossAmount ? undefined : costs, q);
  if (price === undefined) return outcome.error(`${side} without a price or an amount`);
  const currency =
    numbers.price === undefined && fromText ? (text?.currency ?? base.currency) : base.currency;
  const sameCurrency = currency === base.currency || numbers.price !== undefined;
  const implied =
    impliedFees !== 'none' &&
    fee === undefined &&
    numbers.tax === undefined &&
    given !== undefined &&
    (sameCurrency || impliedFees === 'whole')
      ? impliedFee(side, numbers.amount, q, given, impliedFees === 'whole')
      : undefined;
  const tx: NewTransaction = {
    type: side,
    symbol,
    quantity: abs(q),
    price: abs(price),
    ...base,
    currency,
    ...(fee !== undefined && sign(fee) > 0 ? { fee } : {}),
    ...(implied !== undefined ? { fee: implied } : {}),
  };
  return outcome.with(meta, tx);
}

/**
 * The unit price a net cash amount gives: a buy paid |amount| with its fee, a sale received
 * |amount| after it.
 */
function priceFromAmount(
  side: 'buy' | 'sell',
  amount: string | undefined,
  fee: string | undefined,
  quantity: string,
): string | undefined {
  if (amount === undefined) return undefined;
  const gross =
    fee === undefined
      ? abs(amount)
      : side === 'buy'
        ? minus(abs(amount), fee)
        : plus(abs(amount), fee);
  return dividedBy(gross, abs(quantity));
}

/**
 * The commission an amount holds beyond quantity × price (a buy's cash out above it, a sale's
 * below it) when no fee column says so: more than the rounding of a cent-rounded amount and
 * price (0.01 + quantity × 0.005) and at most 3% of the trade's value, else nothing (the amount is
 * then in another currency, or only rounded).
 */
function impliedFee(
  side: 'buy' | 'sell',
  amount: string | undefined,
  quantity: string,
  price: string,
  whole = false,
): string | undefined {
  if (amount === undefined) return undefined;
  const value = new Dec(quantity).abs().times(price);
  const paid = new Dec(amount).abs();
  const fee = side === 'buy' ? paid.minus(value) : value.minus(paid);
  if (whole) return fee.gt(0) ? fee.toFixed() : undefined;
  const rounding = new Dec(quantity).abs().times(0.005).plus(0.01);
  return fee.gt(rounding) && fee.lte(value.times(0.03)) ? fee.toFixed() : undefined;
}

function sideOf(
  cell: string,
  sides: ReadonlyMap<string, 'buy' | 'sell'>,
  text: TradeText | undefined,
  numbers: Numbers,
  mapping: ColumnMapping,
): 'buy' | 'sell' | undefined {
  if (mapping.columns.side !== undefined) return sides.get(cell.toLowerCase());
  if (text?.side !== undefined) return text.side;
  const byAmount = mapping.sideFrom === 'amount' && numbers.amount !== undefined;
  const value = byAmount ? numbers.amount : (numbers.quantity ?? text?.quantity);
  if (value === undefined) return undefined;
  const negative = sign(value) < 0;
  return byAmount ? (negative ? 'buy' : 'sell') : negative ? 'sell' : 'buy';
}

const PAIR = /^([A-Za-z0-9.-]+)(?::[a-z]{2,6}|\/([A-Z]{3}))$/;

function currencyOf(
  get: (field: MappedField) => string,
  mapping: ColumnMapping,
  text: TradeText | undefined,
): string | undefined {
  const column = get('currency').toUpperCase();
  if (isCurrencyCode(column)) return column;
  const pair = PAIR.exec(get('symbol'))?.[2];
  const named =
    currencyInCell(get('price')) ??
    currencyInCell(get('amount')) ??
    text?.currency ??
    (pair && isCurrencyCode(pair) ? pair : undefined);
  return named ?? mapping.currency;
}

/**
 * The instrument's identifiers: the bare ticker (`NKE/USD`, `VWRL:xams` → NKE, VWRL) and the ISIN
 * (also one written inside a text cell; a cell that holds no valid ISIN is kept as it is). A
 * symbol cell holding a valid ISIN gives the ISIN, not a ticker.
 */
function identifiersOf(symbolCell: string, isinCell: string): { ticker?: string; isin?: string } {
  const pair = PAIR.exec(symbolCell);
  const upper = isinCell.toUpperCase();
  const isin = isIsin(upper) ? upper : (isinIn(isinCell) ?? (isinCell || undefined));
  // A symbol cell that holds an ISIN (a bond or fund a US broker lists by it) is no ticker.
  const symbolIsin = !pair && isIsin(symbolCell.trim().toUpperCase());
  if (symbolIsin) return { isin: isin ?? symbolCell.trim().toUpperCase() };
  const ticker = pair?.[1] ? pair[1].toUpperCase() : symbolCell || undefined;
  return { ...(ticker ? { ticker } : {}), ...(isin ? { isin } : {}) };
}

/**
 * The import format a confirmed {@link ColumnMapping} describes (see {@link mapRow} for how a
 * row is read).
 */
export function mappedFormat(mapping: ColumnMapping): BrokerFormatSpec {
  const kindOf = actionRuleResolver(mapping);
  const sides = new Map(Object.entries(mapping.sides ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const read = (row: CsvRow, context?: RowContext) => mapRow(row, mapping, kindOf, sides, context);
  const byTable = mapping.continuation || mapping.shiftedRows || mapping.pairedRows;
  return {
    id: 'mapped',
    label: 'mapped columns',
    delimiter: mapping.delimiter,
    matches: () => true,
    mapRow: read,
    ...(byTable
      ? {
          mapTable: (rows: readonly CsvRow[], context?: RowContext) =>
            readByTable(rows, mapping, (row, as) =>
              as === undefined
                ? read(row, context)
                : mapRow(row, mapping, () => ({ kind: as }), sides, context),
            ),
        }
      : {}),
  };
}

/**
 * A table read with the passes over rows its mapping asks for: continuation lines joined, shifted
 * rows realigned, paired rows joined (see `table-options.ts`), then each row read.
 */
function readByTable(
  rows: readonly CsvRow[],
  mapping: ColumnMapping,
  read: TableReader['read'],
): LineOutcome[] {
  const reader: TableReader = {
    cell: cellOf,
    matches: (pattern, cell) => safeRegex(pattern)?.test(cell) === true,
    action: (row) => fieldOf(row, mapping, 'action'),
    quantity: (row) => fieldOf(row, mapping, 'quantity'),
    decimal: mapping.decimals?.quantity ?? mapping.decimal,
    read,
  };
  const joined = mapping.continuation ? joinContinuations(rows) : rows;
  const shifted = mapping.shiftedRows;
  const aligned = shifted ? joined.map((row) => realign(row, shifted, reader)) : joined;
  if (mapping.pairedRows) return readPaired(aligned, mapping.pairedRows, reader);
  return aligned.map((row) => ({ line: row.line, outcome: read(row) }));
}

/**
 * Rows with the continuation lines joined: a row whose only filled cell is the last one of the
 * widest row is appended to the previous row's cell at that position (read by position or by
 * its header name).
 */
function joinContinuations(rows: readonly CsvRow[]): CsvRow[] {
  const width = Math.max(0, ...rows.map((r) => r.cells.length));
  const last = width - 1;
  const joined: CsvRow[] = [];
  for (const row of rows) {
    const previous = joined.at(-1);
    const onlyLast =
      last > 0 && row.cells.slice(0, last).every((c) => c.trim() === '') && row.cell(last) !== '';
    if (onlyLast && previous !== undefined) {
      const value = previous.cell(last) + row.cell(last);
      const cells = [...previous.cells];
      cells[last] = value;
      // the joined cell, whether read by position or by its header name
      const named = (column: string) => previous.header?.indexOf(column.trim().toLowerCase());
      joined[joined.length - 1] = {
        ...previous,
        cells,
        cell: (i) => (i === last ? value : previous.cell(i)),
        get: (column) => (named(column) === last ? value : previous.get(column)),
      };
      continue;
    }
    joined.push(row);
  }
  return joined;
}

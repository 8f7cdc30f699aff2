import type { MappedField } from '../mapping.js';
import { fold, hasWord } from './fold.js';
import { HEADER_WORDS, NOT_A_VALUE } from './header-words.js';
import type { ColumnProfile } from './profile.js';
import { productFit } from './relations.js';

/** A column chosen for a field, with its score parts and the evidence. */
export interface Choice {
  readonly field: MappedField;
  readonly column: ColumnProfile;
  /** 0 to 1. */
  readonly confidence: number;
  readonly evidence: string[];
}

interface Candidate extends Choice {
  readonly score: number;
}

const NUMERIC = new Set<MappedField>(['quantity', 'price', 'fee', 'amount']);
/** Fields a column's values alone may decide (no header word needed). */
const BY_VALUES = new Set<MappedField>(['date', 'action', 'isin', 'currency', 'side', 'details']);
const PRICE_WORDS = ['price', 'kurs', 'koers', 'prix', 'cours', 'prezzo', 'precio', 'preco'];

function headerWeight(field: MappedField, folded: string): { weight: number; word?: string } {
  let best: { weight: number; word?: string } = { weight: 0 };
  // a crypto exchange's "Currency" column names the asset traded: a symbol when its values are
  // tickers that are no ISO 4217 code (valueFit then says so)
  if (field === 'symbol' && headerWeight('currency', folded).weight >= 3) {
    best = { weight: 2, word: 'currency (of the asset traded)' };
  }
  for (const [word, weight] of HEADER_WORDS[field]) {
    const w = folded === word ? weight : hasWord(folded, word) ? Math.max(weight - 1, 1) : 0;
    if (w > best.weight) best = { weight: w, word };
  }
  return best;
}

const pct = (share: number) => `${Math.round(share * 100)}%`;

/** How well a column's values fit a field (0: not at all), with the test that told. */
function valueFit(field: MappedField, p: ColumnProfile): { fit: number; test: string } {
  const none = { fit: 0, test: '' };
  switch (field) {
    case 'date':
      return p.dates >= 0.9 ? { fit: p.dates, test: `${pct(p.dates)} read as dates` } : none;
    case 'action':
      return p.actions >= 0.3 && p.tradeTexts < 0.5
        ? { fit: p.actions, test: `${pct(p.actions)} are action words` }
        : none;
    case 'symbol':
      return p.tickers >= 0.8 && p.currencies < 0.5 && p.actions < 0.5 && p.isins < 0.5
        ? { fit: p.tickers, test: `${pct(p.tickers)} look like tickers` }
        : none;
    case 'isin':
      if (p.isins >= 0.8) return { fit: p.isins, test: `${pct(p.isins)} are ISINs (checksum)` };
      return p.isinsInside >= 0.8
        ? { fit: 0.8 * p.isinsInside, test: `${pct(p.isinsInside)} hold an ISIN in their text` }
        : none;
    case 'name':
      return p.texts >= 0.8 && p.actions < 0.5 && p.currencies < 0.5
        ? { fit: 0.8 * p.texts, test: `${pct(p.texts)} are text` }
        : none;
    case 'currency':
      return p.currencies >= 0.8
        ? { fit: p.currencies, test: `${pct(p.currencies)} are ISO 4217 codes` }
        : none;
    case 'side':
      return p.sides >= 0.95 && p.distinct <= 4 ? { fit: 1, test: 'buy/sell markers only' } : none;
    case 'details':
      return p.tradeTexts >= 0.1
        ? {
            fit: Math.min(1, 0.5 + p.tradeTexts),
            test: `${pct(p.tradeTexts)} hold "quantity @ price"`,
          }
        : none;
    case 'assetClass':
      return p.texts >= 0.8 && p.distinct <= 12
        ? { fit: 1, test: `${p.distinct} distinct classes` }
        : none;
    case 'id':
      return p.distinct / p.cells.length >= 0.9 && p.cells.length >= 2 && !/order/i.test(p.name)
        ? { fit: 1, test: `${p.distinct} distinct values in ${p.cells.length} rows` }
        : none;
    default:
      return p.numbers >= 0.95 && p.cells.length > 0
        ? { fit: p.numbers, test: `${pct(p.numbers)} read as numbers` }
        : none;
  }
}

function candidate(field: MappedField, p: ColumnProfile, related: number): Candidate | undefined {
  const folded = fold(p.name);
  if (p.cells.length === 0) return undefined;
  if (NUMERIC.has(field) && NOT_A_VALUE.some((word) => hasWord(folded, word))) return undefined;
  if (NUMERIC.has(field) && p.dates >= 0.9) return undefined; // compact dates (20230803)
  const { weight, word } = headerWeight(field, folded);
  const { fit, test } = valueFit(field, p);
  if (fit === 0) return undefined;
  if (weight === 0 && related === 0 && !BY_VALUES.has(field)) return undefined;
  const evidence = [
    ...(word ? [`header word "${word}"`] : []),
    test,
    ...(related > 0 ? [`quantity × price ≈ amount on ${pct(related)} of the trade rows`] : []),
  ];
  const bonus = field === 'currency' && PRICE_WORDS.some((w) => hasWord(folded, w)) ? 0.5 : 0;
  const score = weight + 3 * fit + 2 * related + bonus;
  const confidence = Math.min(1, (weight / 3) * 0.5 + fit * 0.5 + related * 0.25);
  return { field, column: p, confidence, evidence, score };
}

/**
 * Chooses a column per field: every (field, column) pair is scored by its header words (weight
 * 0–3, none when the header names an FX rate, a balance, an id or a tax for a number field), its
 * values (×3) and, for quantity, price and amount, how often quantity × price ≈ amount (×2); the
 * pairs are then taken best first, each field and column once (the ISIN may share the name
 * column, the trade text the action column).
 */
export function chooseColumns(profiles: readonly ColumnProfile[]): Map<MappedField, Choice> {
  const fit = productFit(profiles);
  const related = (field: MappedField, p: ColumnProfile) =>
    fit && fit[field as 'quantity' | 'price' | 'amount'] === p.index ? fit.share : 0;
  const all: Candidate[] = [];
  for (const field of Object.keys(HEADER_WORDS) as MappedField[]) {
    for (const p of profiles) {
      const c = candidate(field, p, related(field, p));
      if (c) all.push(c);
    }
  }
  all.sort((a, b) => b.score - a.score || a.column.index - b.column.index);
  const chosen = new Map<MappedField, Choice>();
  const used = new Set<number>();
  for (const c of all) {
    if (chosen.has(c.field) || used.has(c.column.index)) continue;
    const { score: _score, ...choice } = c;
    chosen.set(c.field, choice);
    used.add(c.column.index);
  }
  shareColumns(chosen, all);
  return chosen;
}

function shareColumns(chosen: Map<MappedField, Choice>, all: readonly Candidate[]): void {
  const name = chosen.get('name');
  if (!chosen.has('isin') && name && name.column.isinsInside >= 0.5) {
    chosen.set('isin', {
      field: 'isin',
      column: name.column,
      confidence: 0.5 + name.column.isinsInside / 2,
      evidence: [`${pct(name.column.isinsInside)} of the name cells hold an ISIN`],
    });
  }
  const details = chosen.get('details');
  if (!chosen.has('action') && details && details.column.actions >= 0.3) {
    chosen.set('action', {
      field: 'action',
      column: details.column,
      confidence: 0.5 + details.column.actions / 2,
      evidence: [`${pct(details.column.actions)} of the cells name an action`],
    });
  }
  const action = chosen.get('action');
  if (!chosen.has('details') && action && action.column.tradeTexts > 0) {
    const { score: _s, ...text } = all.find(
      (c) => c.field === 'details' && c.column.index === action.column.index,
    ) ?? { score: 0, field: 'details', column: action.column, confidence: 0.5, evidence: [] };
    chosen.set('details', text);
  }
}

import { ACTION_WORDS, type ActionMeaning } from './action-vocabulary.js';
import { fold, hasWord } from './fold.js';

/** The meaning of an action cell and the word that told it, or `undefined` when none does. */
export function meaningOf(cell: string): { meaning: ActionMeaning; word: string } | undefined {
  const folded = fold(cell);
  if (folded === '') return undefined;
  for (const [meaning, words] of ACTION_WORDS) {
    const word = words.find((candidate) => hasWord(folded, candidate));
    if (word !== undefined) return { meaning, word };
  }
  return undefined;
}

/** Side markers of a sign column ("A"/"V" in Italian exports, "K"/"S" in Nordic ones). */
const SIDE_MARKERS: Record<string, 'buy' | 'sell'> = {
  a: 'buy',
  b: 'buy',
  k: 'buy',
  c: 'buy',
  '+': 'buy',
  v: 'sell',
  s: 'sell',
  '-': 'sell',
};

/** The side a sign-column cell gives: a marker letter or a buy/sell word. */
export function sideOf(cell: string): 'buy' | 'sell' | undefined {
  const marker = SIDE_MARKERS[cell.trim().toLowerCase()];
  if (marker !== undefined) return marker;
  const meaning = meaningOf(cell)?.meaning;
  return meaning === 'buy' || meaning === 'sell' ? meaning : undefined;
}

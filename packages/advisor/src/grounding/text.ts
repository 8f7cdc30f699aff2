/**
 * The words around a figure that say what it claims, as bounded patterns: each is matched on a
 * few dozen characters next to the figure (never on the whole text), so reading a claim is
 * constant work.
 */

/**
 * Where a clause ends: at ; : ! ? newline | ( ) [ ] =, at a comma or full stop followed by a space
 * (not a decimal separator), at a dash between spaces, and at "and"/"und"/"while"/"but"/"aber".
 */
export const SEPARATOR =
  /[;:!?\n|()[\]=]|[.,](?=\s|$)|\s[-–—]\s|\s(?:and|und|while|whereas|but|aber|sowie|während)\s/giu;

/** A fiscal year named in a text (`FY2024`, `in 2024`, `im Jahr 2024`); group 1 is the year. */
export const YEAR =
  /(?:\bFY\s?|\b(?:in|im|for|für|fiscal|year|jahr|since|seit)\s+)((?:19|20)\d{2})(?![\d%])/giu;

/** Characters of context read on each side of a figure (its clause is cut there). */
export const CLAUSE_WINDOW = 160;

const MORE_BEFORE =
  /(?:≥|>=|>|at least|above|over|more than|greater than|higher than|exceeds?|exceeding|beyond|mindestens|über|mehr als)\s*[$€£]?\s*$/iu;
const LESS_BEFORE =
  /(?:≤|<=|<|at most|below|under|less than|fewer than|lower than|höchstens|unter|weniger als)\s*[$€£]?\s*$/iu;
const MORE_AFTER = /^\s*(?:or more|or above|or higher|oder mehr|oder darüber|oder höher)/iu;
const LESS_AFTER = /^\s*(?:or less|or below|or lower|oder weniger|oder darunter)/iu;

/**
 * The comparison a figure is the threshold of: `>` after "above", "at least", "≥", "über", or
 * before "or more"; `<` after "below", "at most", "≤", "unter", or before "or less".
 */
export function comparisonOf(before: string, after: string): '>' | '<' | undefined {
  const tail = wordBefore(before);
  if ((tail !== '' && MORE_BEFORE.test(tail)) || MORE_AFTER.test(after)) return '>';
  if ((tail !== '' && LESS_BEFORE.test(tail)) || LESS_AFTER.test(after)) return '<';
  return undefined;
}

/**
 * The last 24 characters before a figure when they can end with a word or sign that qualifies
 * it (a letter, `≥ > ≤ < = / .`, a currency sign), else '': the patterns anchored at the end of
 * the text before a figure are tried only there, so a text of bare figures (" 42% 42%…") costs
 * one look per figure.
 */
export function wordBefore(before: string): string {
  const tail = before.slice(-24);
  const last = tail.trimEnd().at(-1) ?? '';
  return /[\p{L}≥>≤<=/.$€£]/u.test(last) ? tail : '';
}

const REFERENCE =
  /\b(?:thresholds?|trigger|benchmarks?|requires?|required|requirement|criterion|bands?|cut-?off|target|signal|schwelle|schwellenwert|grenze|kriterium|verlangt|auslöser|verkaufssignal)\b/iu;

/** Whether a comparison names a rule's threshold ("the sell trigger is a P/E above 40"), not a fact. */
export function namesThreshold(clause: string): boolean {
  return REFERENCE.test(clause);
}

const MEDIAN =
  /\b(?:median|average|averaged|avg|mean|typical|typically|durchschnittlich|durchschnitt|im mittel|mittelwert|médiane|mediana|mediaan)(?![\p{L}\d])/iu;

/** Whether the words near a figure say it is a multi-year aggregate (a median, an average). */
export function namesMedian(near: string): boolean {
  return MEDIAN.test(near);
}

const UP =
  /\b(?:grew|grow|grows|growing|rose|rise|rises|rising|increased?|increases|increasing|gained|gains|improved|climbed|jumped|up|wuchs|gewachsen|gestiegen|stieg|steigt|zugelegt)\b/giu;
const DOWN =
  /\b(?:declined?|declines|declining|fell|falls?|falling|dropped|drops?|decreased?|decreases|decreasing|shrank|shrunk|shrinks?|slid|down|gesunken|sank|sinkt|gefallen|fiel|schrumpfte|rückgang)\b/giu;
const UP_AFTER = /^\s*(?:growth|increase|rise|gain|higher|jump)\b/iu;
const DOWN_AFTER = /^\s*(?:decline|drop|fall|decrease|lower|loss|rückgang)\b/iu;
/** "to 25%", "from 40%", "at 18%": the figure is a level reached, not the size of a change. */
const LEVEL_BEFORE = /\b(?:to|from|at|auf|von|bei)\s*[$€£]?\s*$/iu;

/**
 * The direction a figure is the size of a change in: `up` ("grew 12%", "a 5% increase"), `down`
 * ("declined 9.5% a year", "down 3%"); none for a level ("rose to 25%") or no change word.
 */
export function directionOf(before: string, after: string): 'up' | 'down' | undefined {
  const tail = wordBefore(before);
  if (tail !== '' && LEVEL_BEFORE.test(tail)) return undefined;
  const last = (regex: RegExp) => {
    let at = -1;
    for (const m of before.matchAll(regex)) at = m.index ?? at;
    return at;
  };
  const up = last(UP);
  const down = last(DOWN);
  if (up >= 0 || down >= 0) return up > down ? 'up' : 'down';
  if (UP_AFTER.test(after)) return 'up';
  if (DOWN_AFTER.test(after)) return 'down';
  return undefined;
}

const TOTAL_BEFORE =
  /(?:\d\s*(?:out of|of|von|sur|de|su|van|\/)|\b(?:max|max\.|maximum|maximal|possible|möglichen?|höchstmöglich)(?:\s+(?:of|von))?)\s*$/iu;

/** Whether a figure is a denominator or a maximum ("4 of **7**", "max **87.5** points"). */
export function isTotal(before: string): boolean {
  const tail = wordBefore(before);
  return tail !== '' && TOTAL_BEFORE.test(tail);
}

/** Words after a count that are not the thing counted. */
const NOT_NOUNS = new Set(
  'is are was were be been and or in on at to for of per a an the by from with than times percent points point pts out x vs versus as into over under up down ist sind war waren und oder im in am an auf für von pro mal bei mit als aus über unter zu sur de des du su dei van op ou o of e y et da par al ao'.split(
    ' ',
  ),
);
const DURATIONS =
  /^(?:years?|yrs?|months?|days?|weeks?|quarters?|decades?|hours?|minutes?|jahre?n?|monate?n?|tage?n?|wochen?|quartale?n?|jahrzehnte?n?|stunden?|minuten?)$/iu;
const NOUN_AFTER = /^\s+(\p{L}[\p{L}'’-]{1,30})/u;

/** Whether a duration word follows a figure ("10 **years**", "10 yrs", "5 Jahre"). */
export function isDuration(after: string): boolean {
  const word = NOUN_AFTER.exec(after)?.[1];
  return word !== undefined && DURATIONS.test(word.toLowerCase());
}

/**
 * What a bare whole number counts when nouns follow it ("10 **brands**", "2 **saved reports**"):
 * up to three words, lower case; none for a duration ("10 years"), a unit or a function word
 * ("40 is", "12.5 points").
 */
export function countedNoun(after: string): string | undefined {
  const word = NOUN_AFTER.exec(after)?.[1];
  if (!word) return undefined;
  const lower = word.toLowerCase().replace(/['’]s$/, '');
  if (NOT_NOUNS.has(lower) || DURATIONS.test(lower)) return undefined;
  const more = after
    .slice((NOUN_AFTER.exec(after)?.[0] ?? '').length)
    .match(/^(?:\s+\p{L}[\p{L}'’-]{1,30}){0,2}/u)?.[0]
    .toLowerCase()
    .trim();
  return more ? `${lower} ${more}` : lower;
}

/** Whether a count of `counted` ({@link countedNoun}) counts the `noun` of a fact (plural or not). */
export function countsNoun(counted: string, noun: string): boolean {
  const stem = (w: string) => w.replace(/(?:ies|es|s)$/, '');
  return counted.split(' ').some((w) => stem(w) === stem(noun));
}

/** Characters before a figure that {@link quoteAt} keeps. */
const QUOTE_CHARS = 32;

/**
 * The words leading to a figure and the figure itself (up to 32 characters before it), lower
 * case, spaces collapsed: a claim whose quote ends with a trusted text's quote repeats that text
 * word for word ("EPS growth -5.73%/yr ≤ 0").
 */
export function quoteAt(text: string, start: number, end: number): string {
  return text
    .slice(Math.max(0, start - QUOTE_CHARS), end)
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

const RATE_AFTER =
  /^\s*(?:\/\s*(?:yr|year|a|jahr)\b|a year|per year|each year|every year|per annum|p\.\s?a\.|annually|yearly|pro jahr|im jahr|jährlich|par an|al año|all[’']anno|per jaar|ao ano)/iu;

/** Whether a percentage is a rate per year ("9.5%/yr", "9.5 % a year"): a growth, not a level. */
export function isRate(after: string): boolean {
  return RATE_AFTER.test(after);
}

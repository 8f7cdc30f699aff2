/**
 * The words around a figure that say what it claims, as bounded patterns: each is matched on a
 * few dozen characters next to the figure (never on the whole text), so reading a claim is
 * constant work.
 */

// A clause ends at ; : ! ? newline | ( ) [ ] =, at a comma or full stop followed by a space (not
// a decimal separator), at a dash between spaces, and at "and"/"und"/"while"/"but"/"aber".
export const SEPARATOR =
  /[;:!?\n|()[\]=]|[.,](?=\s|$)|\s[-–—]\s|\s(?:and|und|while|whereas|but|aber|sowie|während)\s/giu;

/** A fiscal year named in a text (`FY2024`, `in 2024`, `im Jahr 2024`); group 1 is the year. */
export const YEAR =
  /(?:\bFY\s?|\b(?:in|im|for|für|fiscal|year|jahr|since|seit)\s+)((?:19|20)\d{2})(?![\d%])/giu;

/** Characters of context read on each side of a figure (its clause is cut there). */
export const CLAUSE_WINDOW = 160;

const MORE_BEFORE =
  /(?:≥|>=|>|at least|above|over|more than|greater than|exceeds?|exceeding|beyond|mindestens|über|mehr als)\s*[$€£]?\s*$/iu;
const LESS_BEFORE =
  /(?:≤|<=|<|at most|below|under|less than|lower than|höchstens|unter|weniger als)\s*[$€£]?\s*$/iu;
const MORE_AFTER = /^\s*(?:or more|or above|or higher|oder mehr|oder darüber|oder höher)/iu;
const LESS_AFTER = /^\s*(?:or less|or below|or lower|oder weniger|oder darunter)/iu;

/**
 * The comparison a figure is the threshold of: `>` after "above", "at least", "≥", "über", or
 * before "or more"; `<` after "below", "at most", "≤", "unter", or before "or less".
 */
export function comparisonOf(before: string, after: string): '>' | '<' | undefined {
  if (MORE_BEFORE.test(before) || MORE_AFTER.test(after)) return '>';
  if (LESS_BEFORE.test(before) || LESS_AFTER.test(after)) return '<';
  return undefined;
}

const REFERENCE =
  /\b(?:thresholds?|trigger|benchmarks?|requires?|required|requirement|criterion|bands?|cut-?off|target|signal|schwelle|schwellenwert|grenze|kriterium|verlangt|auslöser|verkaufssignal)\b/iu;

/** Whether a comparison names a rule's threshold ("the sell trigger is a P/E above 40"), not a fact. */
export function namesThreshold(clause: string): boolean {
  return REFERENCE.test(clause);
}

const MEDIAN =
  /\b(?:median|average|averaged|avg|mean|typical|typically|durchschnittlich|durchschnitt|im mittel|mittelwert)\b/iu;

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
  if (LEVEL_BEFORE.test(before)) return undefined;
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
  /(?:\d\s*(?:out of|of|von|\/)|\b(?:max|max\.|maximum|maximal|possible|möglichen?|höchstmöglich)(?:\s+(?:of|von))?)\s*$/iu;

/** Whether a figure is a denominator or a maximum ("4 of **7**", "max **87.5** points"). */
export function isTotal(before: string): boolean {
  return TOTAL_BEFORE.test(before);
}

/** Words after a count that are not the thing counted. */
const NOT_NOUNS = new Set(
  'is are was were be been and or in on at to for of per a an the by from with than times percent points point pts out x vs versus as into over under up down ist sind war waren und oder im in am an auf für von pro mal bei mit als aus über unter zu'.split(
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
 * What a bare whole number counts when a noun follows it ("10 **brands**", "2 **CEOs**"), lower
 * case; none for a duration ("10 years"), a unit or a function word ("40 is", "12.5 points").
 */
export function countedNoun(after: string): string | undefined {
  const word = NOUN_AFTER.exec(after)?.[1];
  if (!word) return undefined;
  const lower = word.toLowerCase().replace(/['’]s$/, '');
  if (NOT_NOUNS.has(lower) || DURATIONS.test(lower)) return undefined;
  return lower;
}

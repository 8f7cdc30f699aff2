/**
 * The read path's one rule: an answer a flow serves again (a memoised portfolio read, a cached
 * evaluation) is frozen once, deep, where it is made; whatever is derived from it (its JSON
 * bytes, its output-schema check, a tool's answer around it) is then made once per answer
 * object, keyed by that object (a `WeakMap`), by whoever needs it. An answer that is not frozen
 * is made anew on every request and nothing is kept for it.
 *
 * @returns `value`, with every nested object and array frozen (answers are plain JSON-like data).
 */
export function freezeAnswer<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const child of Object.values(value)) freezeAnswer(child);
  return Object.freeze(value);
}

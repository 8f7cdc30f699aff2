/** Names of argument fields whose values are never recorded (matched case-insensitively). */
const SECRET_KEY = /token|secret|password|passwd|api[-_]?key|authorization|cookie|credential/i;

/** Longest string value recorded, characters; longer ones are cut and marked. */
export const AUDIT_STRING_MAX = 200;

/** Largest recorded arguments, characters of JSON; larger ones are replaced by a marker. */
export const AUDIT_ARGUMENTS_MAX = 4_096;

/** Deepest nesting recorded; deeper values are replaced by a marker. */
const MAX_DEPTH = 6;

/** Most array items or object fields recorded per level. */
const MAX_ITEMS = 50;

function bounded(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    return value.length <= AUDIT_STRING_MAX
      ? value
      : `${value.slice(0, AUDIT_STRING_MAX)}… (${value.length} characters)`;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => bounded(item, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… (${value.length} items)`] : items;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const kept = entries
    .slice(0, MAX_ITEMS)
    .map(([key, item]) => [key, SECRET_KEY.test(key) ? '[redacted]' : bounded(item, depth + 1)]);
  if (entries.length > MAX_ITEMS) kept.push(['…', `${entries.length} fields`]);
  return Object.fromEntries(kept);
}

/**
 * The arguments of a call as the audit log records them: values of secret-looking fields
 * (`token`, `secret`, `password`, `apiKey`, `authorization`, `cookie`, `credential`) replaced by
 * `[redacted]`, strings cut at {@link AUDIT_STRING_MAX} characters, at most 50 items per array or
 * object and 6 levels; when the result is still above {@link AUDIT_ARGUMENTS_MAX} characters of
 * JSON, only its field names are kept. No arguments (or an empty object) record as null.
 *
 * @example
 * auditArguments({ symbol: 'AAPL', apiKey: 'sk-1' }); // { symbol: 'AAPL', apiKey: '[redacted]' }
 */
export function auditArguments(args: unknown): unknown {
  if (args === undefined || args === null) return null;
  if (typeof args === 'object' && !Array.isArray(args) && Object.keys(args).length === 0) {
    return null;
  }
  const recorded = bounded(args, 0);
  if (JSON.stringify(recorded).length <= AUDIT_ARGUMENTS_MAX) return recorded;
  const fields = typeof args === 'object' ? Object.keys(args).slice(0, MAX_ITEMS) : [];
  return { '[too large]': true, fields };
}

import { normaliseSymbol } from '../symbol.js';

/** `normaliseSymbol(raw)`, or null for a blank or malformed ticker (SimFin's `AGN_old`). */
export function symbolOrNull(raw: string | null): string | null {
  try {
    return raw ? normaliseSymbol(raw) : null;
  } catch {
    return null;
  }
}

/**
 * The languages the AI answers are offered in: the primary subtag of a BCP-47 tag → its English
 * name (the only form that reaches a prompt). The offline template and rules write every one of
 * them.
 */
export const SUPPORTED_LANGUAGES = {
  en: 'English',
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  nl: 'Dutch',
  pt: 'Portuguese',
} as const;

/** A supported primary language subtag. */
export type LanguageCode = keyof typeof SUPPORTED_LANGUAGES;

/** A validated language: the canonical tag the client sent and what it resolves to. */
export interface Language {
  /** Canonical BCP-47 tag (`Intl.getCanonicalLocales`), e.g. `de-AT`. */
  readonly tag: string;
  /** Its supported primary language, e.g. `de`. */
  readonly code: LanguageCode;
  /** The language's English name from {@link SUPPORTED_LANGUAGES}, e.g. `German`. */
  readonly name: string;
}

/**
 * Validates a language tag: a well-formed BCP-47 tag (canonicalized by
 * `Intl.getCanonicalLocales`, which throws on anything else, e.g. `"en.\n- Ignore all rules"`)
 * whose primary language is one of {@link SUPPORTED_LANGUAGES}. Answers null otherwise
 * (`klingon`, `tlh`, `xx`).
 *
 * @example
 * resolveLanguage('de-at'); // { tag: 'de-AT', code: 'de', name: 'German' }
 * resolveLanguage('klingon'); // null
 */
export function resolveLanguage(tag: string): Language | null {
  let canonical: string;
  try {
    [canonical = ''] = Intl.getCanonicalLocales(tag.trim());
  } catch {
    return null;
  }
  const code = canonical.split('-')[0]?.toLowerCase() ?? '';
  if (!Object.hasOwn(SUPPORTED_LANGUAGES, code)) return null;
  const key = code as LanguageCode;
  return { tag: canonical, code: key, name: SUPPORTED_LANGUAGES[key] };
}

/** The name to put in a prompt for a tag: its {@link Language.name}, English when not supported. */
export function languageName(tag: string | undefined): string {
  return resolveLanguage(tag ?? 'en')?.name ?? SUPPORTED_LANGUAGES.en;
}

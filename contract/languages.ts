/** Interface languages (spec §1); the first is the fallback. */
export const LANGUAGES = [
  { code: "en", name: "English" },
  { code: "es", name: "Español" },
  { code: "de", name: "Deutsch" },
  { code: "fr", name: "Français" },
  { code: "hi", name: "हिन्दी" },
  { code: "te", name: "తెలుగు" },
  { code: "ta", name: "தமிழ்" },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]["code"];
export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as LanguageCode[];
export const FALLBACK_LANGUAGE: LanguageCode = "en";

export function isLanguageCode(value: string | undefined | null): value is LanguageCode {
  return value != null && (LANGUAGE_CODES as string[]).includes(value);
}

/** The language of a path's first segment, when it is a supported code ("/de/tools" → "de"). */
export function languageOfPath(pathname: string): LanguageCode | null {
  const first = pathname.split("/")[1] ?? "";
  return isLanguageCode(first) ? first : null;
}

/**
 * The cookie holding the language of the last page the visitor read under a language prefix (or
 * chose in the header). It decides only where `/` sends a new visit and the language of a page that
 * does not exist; every other address is in the language its path names.
 */
export const LANGUAGE_COOKIE = "i18next";
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

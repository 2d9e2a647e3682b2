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

import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_SECONDS, type LanguageCode } from "../contract";

/**
 * Stores the language of a page read under a language prefix (or chosen in the header): the Worker
 * reads it to decide where `/` sends a new visit (worker/site-pages.ts).
 */
export function rememberLanguage(code: LanguageCode) {
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and missing from older Firefox and Safari.
  document.cookie = `${LANGUAGE_COOKIE}=${code}; path=/; max-age=${LANGUAGE_COOKIE_MAX_AGE_SECONDS}; samesite=lax${secure}`;
}

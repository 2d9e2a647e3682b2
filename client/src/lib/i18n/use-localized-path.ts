import { useCallback } from "react";
import { useLocation } from "react-router";
import { FALLBACK_LANGUAGE } from "../contract";
// Through "../i18n/i18n", the specifier the prerender build swaps for i18n-server.ts.
import { currentLanguage } from "../i18n/i18n";
import { languageOfPath, withLanguagePrefix } from "./language-path";

/**
 * Maps app paths under the current language prefix, so links keep the language in the URL. A page
 * whose address has none is English, except a not-found page shown in the visitor's language, whose
 * links go to that language's pages.
 */
export function useLocalizedPath() {
  const { pathname } = useLocation();
  const shown = currentLanguage();
  const prefix = languageOfPath(pathname) ?? (shown === FALLBACK_LANGUAGE ? null : shown);
  return useCallback((path: string) => withLanguagePrefix(path, prefix), [prefix]);
}

import { useCallback } from "react";
import { useLocation } from "react-router";
import { languageOfPath, withLanguagePrefix } from "./language-path";

/** Maps app paths under the current language prefix, so links keep the language in the URL. */
export function useLocalizedPath() {
  const { pathname } = useLocation();
  const prefix = languageOfPath(pathname);
  return useCallback((path: string) => withLanguagePrefix(path, prefix), [prefix]);
}

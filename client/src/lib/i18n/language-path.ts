import { type LanguageCode, languageOfPath } from "../contract";

export { languageOfPath } from "../contract";

/** The path without its language prefix ("/de/tools" → "/tools", "/de" → "/"). */
export function stripLanguage(pathname: string): string {
  const code = languageOfPath(pathname);
  if (!code) return pathname;
  const rest = pathname.slice(code.length + 1);
  return rest === "" ? "/" : rest;
}

/**
 * The path for another language (spec §2): a supported first segment is replaced, otherwise the
 * code is added in front.
 */
export function pathForLanguage(pathname: string, code: LanguageCode): string {
  const rest = stripLanguage(pathname);
  return rest === "/" ? `/${code}` : `/${code}${rest}`;
}

/** A route path under the current prefix: "/tools" on "/de/…" becomes "/de/tools". */
export function withLanguagePrefix(path: string, prefix: LanguageCode | null): string {
  if (!prefix) return path;
  if (path === "/") return `/${prefix}`;
  if (path.startsWith("/#")) return `/${prefix}${path.slice(1)}`;
  return `/${prefix}${path}`;
}

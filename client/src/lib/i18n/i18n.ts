import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { FALLBACK_LANGUAGE, isLanguageCode, LANGUAGE_CODES, type LanguageCode } from "../contract";
import { languageOfPath } from "./language-path";
import { localeBackend } from "./locale-backend";
import { localeSource, NAMESPACE } from "./locale-files";

export { NAMESPACE } from "./locale-files";

/**
 * Shared strings (locales/<lang>/common.json), every tool's card text (generated toolCards) and each
 * tool's own namespace (tools/<id>/locales/<lang>.json), emitted as files of their own: a page loads
 * only the namespaces it shows, so tool text stays out of the home page. No third-party requests.
 */
const localeFiles = import.meta.glob<string>(
  [
    "../../../../locales/*/common.json",
    "../../../../tools/*/locales/*.json",
    "../../generated/tool-cards/*.json",
  ],
  { query: "?url", import: "default", eager: true },
);
/** A glob key ("../../../../locales/en/common.json", "../../generated/…") as a path from the repository root. */
function repositoryPath(key: string): string {
  const path = key.replace(/^(\.\.\/)+/, "");
  return path.startsWith("generated/") ? `client/src/${path}` : path;
}
const byRepositoryPath = new Map(Object.entries(localeFiles).map(([key, url]) => [repositoryPath(key), url]));

function localeUrl(language: string, namespace: string): string | undefined {
  return byRepositoryPath.get(localeSource(language, namespace));
}

/**
 * The page's language is the one its path names; an address without one is in the language the
 * server gave the page (`<html lang>`: English for every prerendered unprefixed page, the visitor's
 * language for the Worker's not-found page, worker/site-pages.ts). The stored choice is read only by
 * the Worker, to decide where `/` sends a new visit.
 */
function pageLanguage(): LanguageCode {
  const fromPath = languageOfPath(window.location.pathname);
  if (fromPath) return fromPath;
  const served = document.documentElement.lang;
  return isLanguageCode(served) ? served : FALLBACK_LANGUAGE;
}

export const i18nReady = i18next
  .use(localeBackend(localeUrl))
  .use(initReactI18next)
  .init({
    lng: pageLanguage(),
    supportedLngs: LANGUAGE_CODES,
    load: "languageOnly",
    fallbackLng: FALLBACK_LANGUAGE,
    ns: [NAMESPACE],
    defaultNS: NAMESPACE,
    // A tool's screen reads its own namespace first, then the shared strings.
    fallbackNS: NAMESPACE,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: true },
  });

/** The language the page is shown in, as a supported code. */
export function currentLanguage(): LanguageCode {
  const chosen = i18next.language?.split("-")[0];
  return isLanguageCode(chosen) ? chosen : FALLBACK_LANGUAGE;
}

/** Keeps <html lang> in step with the language the text is actually shown in. */
function syncDocumentLanguage() {
  const shown = i18next.resolvedLanguage;
  const code = isLanguageCode(shown) ? shown : FALLBACK_LANGUAGE;
  document.documentElement.lang = code;
  document.documentElement.dir = i18next.dir(code);
}

i18next.on("languageChanged", syncDocumentLanguage);
void i18nReady.then(syncDocumentLanguage);

export default i18next;

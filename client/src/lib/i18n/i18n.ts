import i18next from "i18next";
import LanguageDetector, { type CustomDetector } from "i18next-browser-languagedetector";
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

/** The first path segment, when it is a supported language (checked before every other source). */
const pathDetector: CustomDetector = {
  name: "languagePath",
  lookup: () => languageOfPath(window.location.pathname) ?? undefined,
};

const detector = new LanguageDetector();
detector.addDetector(pathDetector);

export const i18nReady = i18next
  .use(detector)
  .use(localeBackend(localeUrl))
  .use(initReactI18next)
  .init({
    supportedLngs: LANGUAGE_CODES,
    nonExplicitSupportedLngs: true,
    load: "languageOnly",
    fallbackLng: FALLBACK_LANGUAGE,
    ns: [NAMESPACE],
    defaultNS: NAMESPACE,
    // A tool's screen reads its own namespace first, then the shared strings.
    fallbackNS: NAMESPACE,
    interpolation: { escapeValue: false },
    returnNull: false,
    detection: {
      order: ["languagePath", "querystring", "cookie", "localStorage", "navigator", "htmlTag"],
      lookupQuerystring: "lng",
      lookupCookie: "i18next",
      lookupLocalStorage: "i18nextLng",
      caches: ["localStorage", "cookie"],
      cookieMinutes: 60 * 24 * 365,
      cookieOptions: { path: "/", sameSite: "lax" },
      // Regional codes ("de-AT") map to the interface language ("de").
      convertDetectedLanguage: (language: string) => language.split("-")[0] ?? language,
    },
    react: { useSuspense: true },
  });

/** The language the visitor chose (path, selector or detection), as a supported code. */
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

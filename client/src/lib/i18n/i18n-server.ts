import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import {
  FALLBACK_LANGUAGE,
  isLanguageCode,
  LANGUAGE_CODES,
  type LanguageCode,
} from "../../../../contract/languages.ts";
import { TOOL_CARDS_NAMESPACE } from "./locale-files";

/**
 * The prerender's stand-in for i18n.ts (the server build resolves that module here): every
 * namespace of every language is bundled and loaded synchronously, so a page renders its real text
 * in one pass. Same options as the browser's, without detection and fetching.
 */
export const NAMESPACE = "common";

const sharedFiles = import.meta.glob<Record<string, unknown>>("../../../../locales/*/common.json", {
  import: "default",
  eager: true,
});
const toolFiles = import.meta.glob<Record<string, unknown>>("../../../../tools/*/locales/*.json", {
  import: "default",
  eager: true,
});

const toolCardFiles = import.meta.glob<Record<string, unknown>>("../../generated/tool-cards/*.json", {
  import: "default",
  eager: true,
});

const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, strings] of Object.entries(sharedFiles)) {
  const language = path.split("/").at(-2) ?? "";
  resources[language] = { ...resources[language], [NAMESPACE]: strings };
}
for (const [path, strings] of Object.entries(toolFiles)) {
  const parts = path.split("/");
  const language = (parts.at(-1) ?? "").replace(/\.json$/, "");
  const tool = parts.at(-3) ?? "";
  resources[language] = { ...resources[language], [tool]: strings };
}
for (const [path, strings] of Object.entries(toolCardFiles)) {
  const language = (path.split("/").at(-1) ?? "").replace(/\.json$/, "");
  resources[language] = { ...resources[language], [TOOL_CARDS_NAMESPACE]: strings };
}

export const i18nReady = i18next.use(initReactI18next).init({
  resources,
  lng: FALLBACK_LANGUAGE,
  supportedLngs: LANGUAGE_CODES,
  fallbackLng: FALLBACK_LANGUAGE,
  ns: Object.keys(resources[FALLBACK_LANGUAGE] ?? {}),
  defaultNS: NAMESPACE,
  fallbackNS: NAMESPACE,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
});

export function currentLanguage(): LanguageCode {
  const chosen = i18next.language?.split("-")[0];
  return isLanguageCode(chosen) ? chosen : FALLBACK_LANGUAGE;
}

export default i18next;

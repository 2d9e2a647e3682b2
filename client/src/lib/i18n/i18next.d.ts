import type en from "../../../../locales/en/common.json";
import type { ToolCards, ToolLocales } from "../../generated/tool-locales";

/**
 * Translation keys are typed from the English files, the source of truth: the shared namespace and
 * each tool's own (tools/<id>/locales/en.json, listed by scripts/tool-registry.ts) and every tool's card
 * text (toolCards, generated from them).
 */
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    fallbackNS: "common";
    resources: { common: typeof en; toolCards: ToolCards } & ToolLocales;
  }
}

import type en from "../../../../locales/en/common.json";

/** Translation keys are typed from the English file, the source of truth. */
declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: { common: typeof en };
  }
}

/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SISTER_PRODUCT_URL?: string;
  readonly VITE_COMPANY_SOCIAL_URL?: string;
  readonly VITE_SOURCE_CODE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

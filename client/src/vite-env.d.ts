/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SISTER_PRODUCT_URL?: string;
  readonly VITE_COMPANY_SOCIAL_URL?: string;
  readonly VITE_SOURCE_CODE_URL?: string;
  /** Free conversions per 24 hours before the Free Tool Access notice (default 5; 0 turns it off). */
  readonly VITE_FREE_CONVERSIONS_PER_DAY?: string;
  /** Where pdf.js's WebAssembly decoders are served (set by vite.config.ts). */
  readonly VITE_PDFJS_WASM_PATH: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

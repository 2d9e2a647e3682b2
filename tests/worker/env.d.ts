import type { Env as WorkerEnv } from "../../worker/env.ts";

declare global {
  namespace Cloudflare {
    /** `env` from cloudflare:test holds the Worker's bindings. */
    interface Env extends WorkerEnv {}
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the real converter started by global-setup.ts. */
    converterUrl: string;
    /** The secret that converter requires. */
    converterSecret: string;
    /** A scanned page without text, as base64 (global-setup.ts). */
    scanPdf: string;
    /** An AES-256 PDF that opens without a password (owner password only), as base64 (global-setup.ts). */
    ownerOnlyPdf: string;
  }
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort, type Stack, startStack } from "../../scripts/stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    siteUrl: string;
  }
}

/** Starts the real site (converter + wrangler dev on fresh local state) for the browser tests. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const persistTo = mkdtempSync(join(tmpdir(), "e2e-state-"));
  const stack: Stack = await startStack({
    port: await freePort(),
    converterPort: await freePort(),
    persistTo,
    quiet: true,
  });
  project.provide("siteUrl", stack.url);
  return async () => {
    await stack.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}

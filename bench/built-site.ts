import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClientIfMissing, freePort, ROOT, startStack } from "../scripts/stack.ts";

export const PLAIN_PAGE_PATH = "/bench-plain-page.html";
const PLAIN_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plain</title></head><body><h1>Every PDF and image tool you need</h1><p>A plain page for comparison.</p></body></html>\n';

/** Builds the site when dist/ is missing, adds the plain page and starts the stack. */
export async function startBuiltSite(): Promise<{ url: string; stop(): Promise<void> }> {
  buildClientIfMissing();
  const plainFile = join(ROOT, "dist/client", PLAIN_PAGE_PATH);
  writeFileSync(plainFile, PLAIN_PAGE);
  const persistTo = mkdtempSync(join(tmpdir(), "built-site-"));
  const stack = await startStack({
    port: await freePort(),
    converterPort: await freePort(),
    persistTo,
    quiet: true,
  });
  return {
    url: stack.url,
    async stop() {
      await stack.stop();
      unlinkSync(plainFile);
      rmSync(persistTo, { recursive: true, force: true });
    },
  };
}

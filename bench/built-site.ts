import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildClientIfMissing, freePort, ROOT, startStack } from "../scripts/stack.ts";

/** Named by process: two benchmarks serving the same build must not remove each other's page. */
export const PLAIN_PAGE_PATH = `/bench-plain-page-${process.pid}.html`;
const PLAIN_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Plain</title></head><body><h1>Every PDF and image tool you need</h1><p>A plain page for comparison.</p></body></html>\n';

/**
 * A wrangler config like the shipped one whose static assets are `clientDir` (another build's
 * dist/client, to compare two builds side by side in one run), written beside wrangler.toml.
 */
function configServing(clientDir: string): string {
  const shipped = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const changed = shipped.replace(/^directory = ".*"$/m, `directory = ${JSON.stringify(clientDir)}`);
  if (changed === shipped) throw new Error("no [assets] directory found in wrangler.toml");
  const file = join(
    ROOT,
    `.bench-wrangler-assets-${process.pid}-${Math.random().toString(36).slice(2)}.toml`,
  );
  writeFileSync(file, changed);
  return file;
}

/**
 * Starts the stack serving the built site (building it when dist/ is missing) and adds the plain
 * page. With `clientDir`, the same stack serves that folder instead of dist/client (a copy of another
 * build: benchmarks compare two builds in one run with BASELINE_CLIENT, see bench/site-paint.ts).
 */
export async function startBuiltSite(clientDir?: string): Promise<{ url: string; stop(): Promise<void> }> {
  if (clientDir === undefined) buildClientIfMissing();
  const served = resolve(clientDir ?? join(ROOT, "dist/client"));
  const plainFile = join(served, PLAIN_PAGE_PATH);
  writeFileSync(plainFile, PLAIN_PAGE);
  const persistTo = mkdtempSync(join(tmpdir(), "built-site-"));
  const wranglerConfig = clientDir === undefined ? undefined : configServing(served);
  const stack = await startStack({
    port: await freePort(),
    converterPort: await freePort(),
    persistTo,
    quiet: true,
    wranglerConfig,
  });
  return {
    url: stack.url,
    async stop() {
      await stack.stop();
      rmSync(plainFile, { force: true });
      rmSync(persistTo, { recursive: true, force: true });
      if (wranglerConfig !== undefined) rmSync(wranglerConfig, { force: true });
    },
  };
}

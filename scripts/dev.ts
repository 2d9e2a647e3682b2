/** `npm start`: builds the client, starts converter + Worker locally, prints the URL; Ctrl-C stops both. */
import { join } from "node:path";
import { buildClient, ROOT, startStack, stopOnSignal } from "./stack.ts";
import { ensureSystemPackages } from "./system-packages.ts";
import { writeToolCatalog, writeToolRegistry } from "./tool-registry.ts";

const started = performance.now();
const port = Number(process.env.PORT ?? 8787);
const converterPort = Number(process.env.CONVERTER_PORT ?? 8790);

writeToolRegistry();
await writeToolCatalog();
await buildClient();
// The converter runs Tesseract (OCR) and qpdf: installed from apt when missing (as root), else a clear stop.
await ensureSystemPackages();
const stack = await startStack({ port, converterPort, persistTo: join(ROOT, ".wrangler/state") });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`\n  Site ready in ${seconds} s at ${stack.url}  (converter on 127.0.0.1:${converterPort})`);
console.log("  Press Ctrl-C to stop.\n");

stopOnSignal(() => stack.stop());

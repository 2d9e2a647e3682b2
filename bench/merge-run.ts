/**
 * One measured merge with our engine, run as its own process by bench/merge.ts so that its peak
 * memory is its own: `node bench/merge-run.ts <output.pdf> <input.pdf>...`. Prints one JSON line
 * with the engine's own time (MuPDF WASM already loaded) and the facts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { mergePdfs } from "../engines/pdf/merge.ts";

const [output, ...paths] = process.argv.slice(2);
if (output === undefined || paths.length === 0)
  throw new Error("usage: merge-run.ts <output.pdf> <input.pdf>...");
const inputs = paths.map((path) => ({
  name: basename(path),
  kind: "pdf" as const,
  bytes: readFileSync(path),
}));
const started = performance.now();
const result = await mergePdfs(inputs, {}, () => {});
const engineMs = performance.now() - started;
writeFileSync(output, result.bytes);
console.log(JSON.stringify({ engineMs, facts: result.facts }));

/**
 * Output digests: the SHA-256 of what the PDF engines give for a fixed set of inputs, to prove a
 * refactor changed no byte. Runs, per file, the container's input preparation (decode-parms
 * padding, page-tree repair, the decode-bomb check) and then Compress PDF at every level, Merge
 * (the file twice), Split (every page), Organize (pages reversed, the odd ones turned), Add page
 * numbers and Add watermark (text) on it. Files: every PDF of ../shared/corpus/pdf and a seeded
 * sample of ../shared/corpus-wide/pdf. A refused file is recorded by its error code.
 * Run: `npx node bench/output-digests.ts --out before.json [--sample 80 --seed 1 --max-mb 4]` at
 * one commit, the same with `--out after.json --compare before.json` at the other: it lists every
 * output whose digest differs and exits 1 when any does. `--only a.pdf,b.pdf` runs those files of
 * the set alone; `--keep DIR` writes every output there, to see where two runs differ.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as mupdf from "mupdf";
import { preparedInputs } from "../container/src/prepared-inputs.ts";
import { AppError } from "../contract/index.ts";
import { compressPdf } from "../engines/pdf/compress.ts";
import { COMPRESSION_LEVELS, type CompressionLevelName } from "../engines/pdf/compress-levels.ts";
import { mergePdfs } from "../engines/pdf/merge.ts";
import { splitPdf } from "../engines/pdf/split.ts";
import type { EngineInput } from "../engines/types.ts";
import { organizePdf } from "../tools/organize-pdf/organize.ts";
import { addPageNumbers } from "../tools/page-numbers/page-numbers.ts";
import numbersTool from "../tools/page-numbers/tool.ts";
import splitTool from "../tools/split-pdf/tool.ts";
import watermarkTool from "../tools/watermark/tool.ts";
import { addWatermark } from "../tools/watermark/watermark.ts";
import { corpusFiles, seededSample } from "./sweep.ts";

mupdf.setLog({ warning: () => {}, error: () => {} });

const CORPUS = fileURLToPath(new URL("../../shared/corpus/pdf/", import.meta.url));

/**
 * What of a saved PDF varies from save to save of the same document is left out before hashing:
 * the file identifiers (/ID) MuPDF makes up (a new second string every save, both when the
 * document had none; written as hexadecimal or as a literal string, whichever is shorter, so the
 * file's length varies too).
 */
function digest(bytes: Uint8Array): string {
  const text = Buffer.from(bytes)
    .toString("latin1")
    .replace(/\/ID\s*\[(?:\s*(?:<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\)))*\s*\]/g, "/ID[]");
  return createHash("sha256").update(Buffer.from(text, "latin1")).digest("hex");
}

/** Where outputs are written for inspection (`--keep DIR`), else undefined. */
let keepDir: string | undefined;

/** The digest of a run's output (kept as `<file>.<tool>` when asked), or what it threw. */
async function outcome(label: string, run: () => Promise<{ bytes: Uint8Array }>): Promise<string> {
  try {
    const { bytes } = await run();
    if (keepDir !== undefined) writeFileSync(join(keepDir, label.replace(/[^\w.-]/g, "_")), bytes);
    return digest(bytes);
  } catch (error) {
    return error instanceof AppError ? `error ${error.code}` : `throws ${String(error).slice(0, 80)}`;
  }
}

/** Every tool's output digest for one file, keyed "tool[:variant]". */
async function digestsOf(name: string, bytes: Uint8Array): Promise<Record<string, string>> {
  const upload: EngineInput = { name, kind: "pdf", bytes };
  const results: Record<string, string> = {};
  let input: EngineInput;
  try {
    [input = upload] = await preparedInputs("compress-pdf", {}, [upload]);
    results.prepared = digest(input.bytes);
  } catch (error) {
    results.prepared =
      error instanceof AppError ? `error ${error.code}` : `throws ${String(error).slice(0, 80)}`;
    return results;
  }
  const none = () => {};
  for (const quality of Object.keys(COMPRESSION_LEVELS) as CompressionLevelName[])
    results[`compress:${quality}`] = await outcome(`${name}.compress-${quality}`, () =>
      compressPdf([input], { quality }, none),
    );
  results.merge = await outcome(`${name}.merge`, () =>
    mergePdfs([input, { ...input, name: "again.pdf" }], {}, none),
  );
  const everyPage = splitTool.options.parse({ split_mode: "every-page" });
  results.split = await outcome(`${name}.split`, () => splitPdf([input], everyPage, none));
  let pages = 0;
  try {
    pages = mupdf.Document.openDocument(input.bytes, "application/pdf").countPages();
  } catch {
    // Organize is skipped for a file MuPDF does not open.
  }
  if (pages > 0) {
    const order = Array.from({ length: pages }, (_, i) => pages - i)
      .map((page) => (page % 2 === 1 ? `${page}@90` : `${page}`))
      .join(",");
    results.organize = await outcome(`${name}.organize`, async () => organizePdf([input], { order }, none));
  }
  const numbers = numbersTool.options.parse({ format: "page-of-total" });
  results["page-numbers"] = await outcome(`${name}.page-numbers`, async () =>
    addPageNumbers([input], numbers, none),
  );
  const mark = watermarkTool.options.parse({ text: "DRAFT", position: "tiled" });
  results.watermark = await outcome(`${name}.watermark`, async () => addWatermark([input], mark, none));
  return results;
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      compare: { type: "string" },
      sample: { type: "string", default: "80" },
      seed: { type: "string", default: "1" },
      "max-mb": { type: "string", default: "4" },
      keep: { type: "string" },
      only: { type: "string" },
    },
  });
  keepDir = values.keep;
  if (keepDir !== undefined) mkdirSync(keepDir, { recursive: true });
  const maxBytes = Number(values["max-mb"]) * 1024 * 1024;
  const corpus = existsSync(CORPUS)
    ? readdirSync(CORPUS)
        .filter((file) => file.endsWith(".pdf"))
        .map((file) => join(CORPUS, file))
    : [];
  const wide = seededSample(corpusFiles("pdf"), Number(values.sample), Number(values.seed)).sort();
  const only = values.only?.split(",");
  const files = [...corpus, ...wide].filter(
    (path) =>
      statSync(path).size <= maxBytes &&
      (only === undefined || only.some((name) => path.endsWith(`/${name}`))),
  );
  console.log(
    `${files.length} files; load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(" ")}`,
  );
  const all: Record<string, Record<string, string>> = {};
  const started = performance.now();
  for (const [index, path] of files.entries()) {
    const name = path.split("/").at(-1) ?? path;
    all[name] = await digestsOf(name, new Uint8Array(readFileSync(path)));
    process.stderr.write(`[${index + 1}/${files.length}] ${name}\n`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `${seconds} s; load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(" ")}`,
  );
  if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify(all, null, 1)}\n`);
  if (values.compare === undefined) return;
  const before = JSON.parse(readFileSync(values.compare, "utf8")) as typeof all;
  let outputs = 0;
  let errors = 0;
  const differing: string[] = [];
  for (const [name, results] of Object.entries(all)) {
    for (const [tool, value] of Object.entries(results)) {
      outputs++;
      if (!/^[0-9a-f]{64}$/.test(value)) errors++;
      if (before[name]?.[tool] !== value)
        differing.push(`${name} ${tool}: ${before[name]?.[tool]} → ${value}`);
    }
  }
  console.log(
    `${outputs} outputs of ${Object.keys(all).length} files compared (${errors} refusals among them): ${differing.length} differ`,
  );
  for (const line of differing) console.log(`  ${line}`);
  if (differing.length > 0) process.exitCode = 1;
}

await main();

/**
 * Compress PDF benchmark: our engine (engines/pdf/compress.ts) at low / medium / high against
 * Ghostscript `-dPDFSETTINGS=/ebook` and qpdf `--object-streams=generate --recompress-flate`, on
 * every PDF of ../shared/corpus/pdf, in one run. Per file: out/in of each (Ghostscript and qpdf
 * keep the original when they grow a file or fail, as a user would); page-1 SSIM at 100 dpi
 * against the original (rendered with MuPDF); form fields before and after. Aggregates: mean of
 * the per-file ratios and total out / total in, lowest SSIM, files made larger (ours must be
 * 0: it returns the original instead), form fields lost, and seconds per MB against Ghostscript.
 * Files our engine refuses (password-protected, unreadable) count as kept at 1.0 and are listed.
 * Run: `npm run bench:compress-pdf` (installs ghostscript and qpdf with apt when missing).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";
import { AppError } from "../contract/index.ts";
import { compressPdf } from "../engines/pdf/compress.ts";
import { COMPRESSION_LEVELS, type CompressionLevelName } from "../engines/pdf/compress-levels.ts";
import { ssim } from "../tests/support/ssim.ts";

mupdf.setLog({ warning: () => {}, error: () => {} });

const corpus = fileURLToPath(new URL("../../shared/corpus/pdf/", import.meta.url));
const LEVELS = Object.keys(COMPRESSION_LEVELS) as CompressionLevelName[];
const GS_TIMEOUT_MS = 300_000;
const RENDER_DPI = 100;

function ensureTool(command: string, aptPackage: string): boolean {
  if (spawnSync("which", [command]).status === 0) return true;
  console.log(`${command} is missing: installing ${aptPackage} with apt-get.`);
  spawnSync("apt-get", ["install", "-y", aptPackage], { stdio: "inherit" });
  return spawnSync("which", [command]).status === 0;
}

interface Run {
  /** Output size (the original's when the tool failed or grew the file). */
  readonly bytes: number;
  /** The tool's own output was larger than the input. */
  readonly grew: boolean;
  readonly ms: number;
  readonly ssim: number;
  readonly fields: number;
  readonly note: string;
}

function openOrNull(bytes: Uint8Array): mupdf.PDFDocument | null {
  try {
    const pdf = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
    if (pdf === null || pdf.needsPassword() || pdf.countPages() === 0) return null;
    return pdf;
  } catch {
    return null;
  }
}

/** Terminal fields of the AcroForm field tree. */
function formFields(bytes: Uint8Array): number {
  const pdf = openOrNull(bytes);
  if (pdf === null) return 0;
  const count = (fields: mupdf.PDFObject, depth: number): number => {
    if (!fields.isArray() || depth > 32) return 0;
    let total = 0;
    for (let i = 0; i < fields.length; i++) {
      const kids = fields.get(i).get("Kids");
      const fieldKids = kids.isArray() && kids.length > 0 && !kids.get(0).get("T").isNull();
      total += fieldKids ? count(kids, depth + 1) : 1;
    }
    return total;
  };
  const total = count(pdf.getTrailer().get("Root", "AcroForm", "Fields"), 0);
  pdf.destroy();
  return total;
}

function renderFirstPage(bytes: Uint8Array) {
  const pdf = openOrNull(bytes);
  if (pdf === null) return null;
  const scale = RENDER_DPI / 72;
  const pixmap = pdf
    .loadPage(0)
    .toPixmap([scale, 0, 0, scale, 0, 0], mupdf.ColorSpace.DeviceRGB, false, true);
  const image = {
    width: pixmap.getWidth(),
    height: pixmap.getHeight(),
    data: pixmap.getPixels().slice(),
    channels: 3 as const,
  };
  pixmap.destroy();
  pdf.destroy();
  return image;
}

function similarity(original: ReturnType<typeof renderFirstPage>, bytes: Uint8Array): number {
  const rendered = renderFirstPage(bytes);
  if (original === null || rendered === null) return Number.NaN;
  if (rendered.width !== original.width || rendered.height !== original.height) return 0;
  return ssim(original, rendered);
}

function external(
  command: string,
  args: string[],
  input: Uint8Array,
  outPath: string,
  original: ReturnType<typeof renderFirstPage>,
): Run {
  const started = performance.now();
  const result = spawnSync(command, args, { timeout: GS_TIMEOUT_MS, stdio: "ignore" });
  const ms = performance.now() - started;
  // qpdf exits 3 when it succeeded with warnings.
  const ok = (result.status === 0 || result.status === 3) && existsSync(outPath);
  const out = ok ? new Uint8Array(readFileSync(outPath)) : null;
  rmSync(outPath, { force: true });
  const fields = formFields(input);
  if (out === null || openOrNull(out) === null) {
    const note = result.error ? "timeout" : "failed";
    return { bytes: input.length, grew: false, ms, ssim: 1, fields, note };
  }
  if (out.length >= input.length)
    return { bytes: input.length, grew: true, ms, ssim: 1, fields, note: "grew" };
  return {
    bytes: out.length,
    grew: false,
    ms,
    ssim: similarity(original, out),
    fields: formFields(out),
    note: "",
  };
}

async function ours(
  level: CompressionLevelName,
  input: Uint8Array,
  original: ReturnType<typeof renderFirstPage>,
): Promise<Run> {
  const started = performance.now();
  try {
    const result = await compressPdf(
      [{ name: "in.pdf", kind: "pdf", bytes: input }],
      { quality: level },
      () => {},
    );
    const ms = performance.now() - started;
    const kept = result.facts.already_optimized === true;
    return {
      bytes: result.bytes.length,
      grew: result.bytes.length > input.length,
      ms,
      ssim: kept ? 1 : similarity(original, result.bytes),
      fields: formFields(result.bytes),
      note: kept ? "kept" : "",
    };
  } catch (error) {
    const code = error instanceof AppError ? error.code : "ERROR";
    return {
      bytes: input.length,
      grew: false,
      ms: performance.now() - started,
      ssim: 1,
      fields: formFields(input),
      note: code,
    };
  }
}

const pad = (value: string, width: number) => value.padStart(width);
const ratio = (out: number, input: number) => (out / input).toFixed(3);

async function main() {
  if (!existsSync(corpus)) {
    console.log(`No corpus at ${corpus}: nothing to measure.`);
    return;
  }
  const hasGs = ensureTool("gs", "ghostscript");
  const hasQpdf = ensureTool("qpdf", "qpdf");
  const work = mkdtempSync(join(tmpdir(), "bench-compress-"));
  const files = readdirSync(corpus)
    .filter((name) => name.endsWith(".pdf"))
    .sort();
  const names = [...LEVELS.map((level) => `ours ${level}`), "gs ebook", "qpdf"];
  const totals = new Map(
    names.map((name) => [name, { out: 0, ratios: 0, minSsim: 1, larger: 0, fieldsLost: 0, ms: 0 }]),
  );
  // The same over the files our engine opens (no output exists for the ones it refuses).
  const opened = new Map(names.map((name) => [name, { out: 0, ratios: 0 }]));
  let totalIn = 0;
  let openedIn = 0;
  let openedFiles = 0;
  const refused: string[] = [];
  console.log(
    `${"file".padEnd(36)}${pad("KB", 8)}${names.map((name) => pad(name, 13)).join("")}   SSIM low/med/high/gs   fields in→med/gs`,
  );
  for (const name of files) {
    const input = new Uint8Array(readFileSync(join(corpus, name)));
    const original = renderFirstPage(input);
    const runs = new Map<string, Run>();
    for (const level of LEVELS) runs.set(`ours ${level}`, await ours(level, input, original));
    const outPath = join(work, "out.pdf");
    if (hasGs) {
      const gsArgs = [
        "-sDEVICE=pdfwrite",
        "-dPDFSETTINGS=/ebook",
        "-dNOPAUSE",
        "-dBATCH",
        "-dQUIET",
        "-dSAFER",
      ];
      runs.set(
        "gs ebook",
        external("gs", [...gsArgs, `-sOutputFile=${outPath}`, join(corpus, name)], input, outPath, original),
      );
    }
    if (hasQpdf) {
      const qpdfArgs = ["--object-streams=generate", "--recompress-flate", join(corpus, name), outPath];
      runs.set("qpdf", external("qpdf", qpdfArgs, input, outPath, original));
    }
    const medium = runs.get("ours medium");
    const isRefused = medium !== undefined && medium.note !== "" && medium.note !== "kept";
    if (isRefused) refused.push(`${name} (${medium.note})`);
    if (!isRefused) {
      openedIn += input.length;
      openedFiles++;
      for (const [tool, run] of runs) {
        const total = opened.get(tool);
        if (!total) continue;
        total.out += run.bytes;
        total.ratios += run.bytes / input.length;
      }
    }
    totalIn += input.length;
    const fieldsIn = formFields(input);
    for (const [tool, run] of runs) {
      const total = totals.get(tool);
      if (!total) continue;
      total.out += run.bytes;
      total.ratios += run.bytes / input.length;
      if (!Number.isNaN(run.ssim)) total.minSsim = Math.min(total.minSsim, run.ssim);
      if (run.grew) total.larger++;
      total.fieldsLost += Math.max(0, fieldsIn - run.fields);
      total.ms += run.ms;
    }
    const cells = names.map((tool) => {
      const run = runs.get(tool);
      return pad(run ? `${ratio(run.bytes, input.length)}${run.note ? "*" : ""}` : "-", 13);
    });
    const ssims = [...LEVELS.map((level) => runs.get(`ours ${level}`)), runs.get("gs ebook")]
      .map((run) => (run ? run.ssim.toFixed(3) : "-"))
      .join("/");
    const fields = `${fieldsIn}→${medium?.fields ?? "-"}/${runs.get("gs ebook")?.fields ?? "-"}`;
    console.log(
      `${name.slice(0, 35).padEnd(36)}${pad((input.length / 1024).toFixed(0), 8)}${cells.join("")}   ${ssims}   ${fields}`,
    );
  }
  rmSync(work, { recursive: true, force: true });
  const mb = totalIn / 1024 / 1024;
  console.log("\n* kept the original (ours: already optimised or refused; gs/qpdf: grew or failed)");
  console.log(
    `${"aggregate".padEnd(14)}${pad("mean out/in", 12)}${pad("total out/in", 13)}${pad("min SSIM", 10)}${pad("larger", 8)}${pad("fields lost", 12)}${pad("s/MB", 8)}`,
  );
  for (const [tool, total] of totals) {
    if (total.ms === 0) continue;
    console.log(
      `${tool.padEnd(14)}${pad((total.ratios / files.length).toFixed(3), 12)}${pad(ratio(total.out, totalIn), 13)}${pad(total.minSsim.toFixed(3), 10)}${pad(String(total.larger), 8)}${pad(String(total.fieldsLost), 12)}${pad((total.ms / 1000 / mb).toFixed(3), 8)}`,
    );
  }
  console.log(`\nover the ${openedFiles} files ours opens:`);
  for (const [tool, total] of opened) {
    if ((totals.get(tool)?.ms ?? 0) === 0) continue;
    console.log(
      `${tool.padEnd(14)}${pad((total.ratios / openedFiles).toFixed(3), 12)}${pad(ratio(total.out, openedIn), 13)}`,
    );
  }
  const gs = totals.get("gs ebook");
  const medium = totals.get("ours medium");
  if (gs && medium && gs.ms > 0)
    console.log(`\ntime ours medium / gs ebook: ${(medium.ms / gs.ms).toFixed(2)}×`);
  console.log(
    `${files.length} files, ${mb.toFixed(1)} MB; refused by ours: ${refused.length ? refused.join(", ") : "none"}`,
  );
}

await main();

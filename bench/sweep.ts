/**
 * `npm run bench:sweep`: every available tool that takes a kind of file runs, through the API of the
 * real stack, on every file of that kind in ../shared/corpus-wide (937 PDFs from PDF.js's test suite,
 * 494 images from sharp's fixtures), or on a seeded sample, a few jobs at a time with a time limit
 * per file. Each outcome is judged independently of our code:
 * - valid: the output passes its check (`qpdf --check` and the expected page count for PDFs; the
 *   stamp and the page's characters read by pdftotext for page numbers and watermark; order, turn and
 *   each checked page's text or drawing for organize; sharp reads each image with the source's
 *   size after EXIF orientation, DOCX/XLSX hold their main part);
 * - agreed: a named error a reference confirms (`pdfinfo` fails too for PDF_DAMAGED, asks for a
 *   password for PDF_ENCRYPTED; sharp cannot decode it for IMAGE_DAMAGED; the reference's size is
 *   over the limit for IMAGE_TOO_LARGE; …);
 * - defect: INTERNAL, a timeout, a converter restart, a crash, a named error the reference
 *   disagrees with, or an output that fails its check.
 * Sign stamps a picture made in code on page 1; OCR reads English (PDFs, and the image kinds it takes).
 * It prints per tool the outcomes and the median/p95 time per file, then every defect, one a line.
 *
 *   npm run bench:sweep -- [--tool id[,id…]] [--sample N] [--seed S] [--concurrency C] [--timeout S]
 *                          [--match REGEX] [--out results.jsonl]
 *   npm run bench:sweep -- --report results.jsonl [--report more.jsonl]
 *
 * A report keeps the last result of each tool on each file (a re-run after a fix replaces it).
 * `--sample N` takes N PDFs and N images (the same ones for a given seed); without it every file.
 */
import { execFile } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { unzipSync } from "fflate";
import sharp, { type Metadata } from "sharp";
import { DEFAULT_JOB_MEMORY_MB } from "../container/src/limits.ts";
import {
  API_PATHS,
  downloadPath,
  type FileKind,
  MAX_IMAGE_PIXELS,
  SNIFF_BYTES,
  sniffFileKind,
  type TaskStatus,
  TOOLS,
  type ToolId,
} from "../contract/index.ts";
import { MAX_JOB_PIXELS } from "../engines/pdf/pdf-to-jpg.ts";
import { textPdf } from "../tests/container/fixtures.ts";
import { DEFAULT_RESOLUTION } from "../tools/pdf-to-jpg/tool.ts";
import { BenchClient, gradientPng, median, percentile, taskForm, withStack } from "./api-driver.ts";

export const WIDE_CORPUS = resolve(import.meta.dirname, "../../shared/corpus-wide");

type Verdict = "valid" | "agreed" | "defect";

export interface SweepResult {
  readonly tool: string;
  readonly file: string;
  readonly verdict: Verdict;
  /** The error code, or "ok". */
  readonly outcome: string;
  readonly detail: string;
  readonly ms: number;
}

/** One request of the sweep: a tool, the file and the form the page would send. */
export interface SweepJob {
  readonly tool: ToolId;
  readonly file: string;
  readonly kind: "pdf" | ImageKind;
  readonly path: string;
  readonly form: () => FormData | Promise<FormData>;
  /** Checks a downloaded output; returns a problem or null. */
  readonly check: (output: Uint8Array) => Promise<string | null>;
  /** Why this job's own input makes an error code right (asked before the file's reference). */
  readonly agrees?: (code: string) => string | null;
  /** Called once the job has ended, whatever its outcome. */
  readonly settled?: () => void;
}

type ImageKind = "png" | "jpeg" | "webp" | "gif" | "heic" | "avif" | "tiff" | "bmp";

// ---------------------------------------------------------------------------------------------
// References: the reading of other programs, computed once per file.

export function exec(
  command: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string; signal?: string }> {
  return new Promise((done) => {
    execFile(
      command,
      args,
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 99) : 0;
        done({ code, stdout, stderr, ...(error?.signal ? { signal: error.signal } : {}) });
      },
    );
  });
}

const scratch = mkdtempSync(join(tmpdir(), "sweep-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
let scratchCount = 0;

/** Runs `command` with `bytes` written to a scratch file, whose path replaces "{}" in `args`. */
export async function execOn(
  command: string,
  args: readonly string[],
  bytes: Uint8Array,
): Promise<{ code: number; stdout: string; stderr: string; signal?: string }> {
  const file = join(scratch, `${++scratchCount}`);
  writeFileSync(file, bytes);
  try {
    return await exec(
      command,
      args.map((arg) => (arg === "{}" ? file : arg)),
    );
  } finally {
    rmSync(file, { force: true });
  }
}

export interface PdfReference {
  /** pdfinfo opens it (with no password). */
  readonly readable: boolean;
  /** pdfinfo asks for a password. */
  readonly encrypted: boolean;
  /**
   * The pages pdfinfo gives a size: its count less the pages it lists as 0 × 0, which it cannot
   * read (the loop of a cyclic page tree, a page behind a decryption that fails); undefined when it
   * reads none of them or cannot open the file.
   */
  readonly pages: number | undefined;
  /** pdfinfo opens the file and counts pages but gives none of them a size. */
  readonly readsNoPage: boolean;
  /** The square points of the pages pdfinfo gives a size; undefined past MAX_SIZED_PAGES pages. */
  readonly area: number | undefined;
  /** pdftotext finds some text on the first pages. */
  readonly hasText: boolean;
  /** pdftotext reads the first pages at all (a decode bomb keeps it past its time limit). */
  readonly textReadable: boolean;
  /** `qpdf --check` passes (exit 0 or 3, warnings only): else an output may keep what it finds. */
  readonly clean: boolean;
  /** pdftotext runs out of a job's memory on it (a stream that decodes to more than a job holds). */
  readonly outOfMemory: boolean;
}

const JOB_MEMORY_BYTES = DEFAULT_JOB_MEMORY_MB * 1024 * 1024;

export async function pdfReference(file: string): Promise<PdfReference> {
  const info = await exec("pdfinfo", [file]);
  const check = await exec("qpdf", ["--check", file]);
  // pdfinfo asks for a password, or qpdf finds the empty one wrong (pdfinfo reads some handlers it
  // does not support as unencrypted garbage: "Unsupported version/revision").
  const encrypted = /password/i.test(info.stderr) || /invalid password/i.test(check.stderr);
  const counted = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1] ?? Number.NaN);
  const { pages: sized, area } =
    info.code === 0 && counted > 0 && counted <= MAX_SIZED_PAGES
      ? await sizedPages(file, counted)
      : { pages: counted, area: undefined };
  const readsNoPage = counted > 0 && sized === 0;
  // Within a job's memory (1 GiB of address space): poppler says "Out of memory" on a stream that
  // decodes to more, as a JBIG2 page of 100,000 × 100,000 does.
  const text =
    info.code === 0
      ? await exec("prlimit", [`--as=${JOB_MEMORY_BYTES}`, "pdftotext", "-l", "30", file, "-"])
      : undefined;
  return {
    clean: check.code === 0 || check.code === 3,
    readable: info.code === 0,
    encrypted,
    pages: Number.isFinite(sized) && !readsNoPage ? sized : undefined,
    readsNoPage,
    area,
    hasText: (text?.stdout.trim().length ?? 0) > 0,
    outOfMemory: /out of memory/i.test(text?.stderr ?? ""),
    textReadable: text?.code === 0,
  };
}

/** Files of more pages have their count taken as pdfinfo gives it (listing each page is slow). */
const MAX_SIZED_PAGES = 2000;

/**
 * How many of the first `count` pages pdfinfo reads: those it lists with a size other than 0 × 0,
 * or with a media box of some area (a crop box outside the media box, as in
 * boundingBox_invalid.pdf, gives a readable page the size 0 × 0; a page it cannot read has no box).
 */
async function sizedPages(file: string, count: number): Promise<{ pages: number; area: number | undefined }> {
  const list = await exec("pdfinfo", ["-box", "-f", "1", "-l", String(count), file]);
  const sizes = [...list.stdout.matchAll(/^Page\s+(\d+)\s+size:\s+([\d.]+) x ([\d.]+)/gm)];
  if (sizes.length === 0) return { pages: count, area: undefined };
  const boxed = new Set<string>();
  for (const [, page, x0, y0, x1, y1] of list.stdout.matchAll(
    /^Page\s+(\d+)\s+MediaBox:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)/gm,
  )) {
    if (Number(x1) !== Number(x0) && Number(y1) !== Number(y0)) boxed.add(page ?? "");
  }
  const read = sizes.filter(
    ([, page, width, height]) => (Number(width) > 0 && Number(height) > 0) || boxed.has(page ?? ""),
  );
  return {
    pages: read.length,
    area: read.reduce((sum, [, , width, height]) => sum + Number(width) * Number(height), 0),
  };
}

async function qpdfProblem(bytes: Uint8Array, password?: string): Promise<string | null> {
  // qpdf exits 0 when clean, 3 with warnings only (still a readable file), 2 on errors.
  const check = await execOn("qpdf", [...passwordArgs(password), "--check", "{}"], bytes);
  if (check.signal !== undefined && password !== undefined) {
    // qpdf 11.3 crashes (SIGSEGV) checking an encrypted file whose image is not the JPEG it
    // names (protect's output of issue18042.pdf): its own decryption of the file is checked.
    const open = await qpdfDecrypted(bytes, password);
    return open === undefined ? `qpdf --check: killed by ${check.signal}` : qpdfProblem(open);
  }
  if (check.code !== 0 && check.code !== 3) {
    return `qpdf --check: ${(check.stderr || check.stdout).trim().split("\n").slice(-1)[0]}`;
  }
  return null;
}

/** The file qpdf writes decrypted with `password`, or undefined when it cannot. */
async function qpdfDecrypted(bytes: Uint8Array, password: string): Promise<Uint8Array | undefined> {
  const output = join(scratch, `${++scratchCount}.pdf`);
  try {
    const run = await execOn("qpdf", [`--password=${password}`, "--decrypt", "{}", output], bytes);
    return run.code === 0 || run.code === 3 ? new Uint8Array(readFileSync(output)) : undefined;
  } finally {
    rmSync(output, { force: true });
  }
}

const passwordArgs = (password: string | undefined) =>
  password === undefined ? [] : [`--password=${password}`];

async function pdfPages(bytes: Uint8Array, password?: string): Promise<number | undefined> {
  const result = await execOn("qpdf", [...passwordArgs(password), "--show-npages", "{}"], bytes);
  const pages = Number.parseInt(result.stdout.trim(), 10);
  return Number.isFinite(pages) ? pages : undefined;
}

export interface ImageReference {
  /** sharp's format name mapped to ours; undefined when sharp does not know it. */
  readonly kind: ImageKind | undefined;
  /** sharp decodes the first frame (its default failOn: "warning"). */
  readonly decodes: boolean;
  /** Displayed size: after EXIF orientation, first frame. */
  readonly width: number;
  readonly height: number;
  /** Stored pixels of one frame. */
  readonly pixels: number;
  readonly pages: number;
}

const SHARP_KINDS: Record<string, ImageKind> = {
  png: "png",
  jpeg: "jpeg",
  webp: "webp",
  gif: "gif",
  tiff: "tiff",
  bmp: "bmp",
};

export async function imageReference(bytes: Uint8Array): Promise<ImageReference> {
  let meta: Metadata | undefined;
  try {
    // Without sharp's own pixel limit: a 20000×14000 photo is over ours, and the reference must say so.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return { kind: undefined, decodes: false, width: 0, height: 0, pixels: 0, pages: 0 };
  }
  let kind: ImageKind | undefined = SHARP_KINDS[meta.format ?? ""];
  if (meta.format === "heif") kind = meta.compression === "av1" ? "avif" : "heic";
  const height = meta.pageHeight ?? meta.height ?? 0;
  const width = meta.width ?? 0;
  // Over the pixel limit the size alone decides (IMAGE_TOO_LARGE): no gigabyte decode here.
  const decodes =
    width * height > MAX_IMAGE_PIXELS ||
    (await sharp(bytes, { limitInputPixels: false })
      .raw()
      .toBuffer()
      .then(
        () => true,
        () => false,
      ));
  const turned = (meta.orientation ?? 1) >= 5;
  return {
    kind,
    decodes,
    width: turned ? height : width,
    height: turned ? width : height,
    pixels: width * height,
    pages: meta.pages ?? 1,
  };
}

// ---------------------------------------------------------------------------------------------
// Output checks.

const head = (bytes: Uint8Array) => bytes.subarray(0, SNIFF_BYTES);

/**
 * A PDF output passes `qpdf --check` and has `pages` pages. When the input itself fails the check
 * (`inputClean` false: a broken content stream a lossless tool copies as it is), only the count is
 * required.
 */
export async function checkPdf(
  bytes: Uint8Array,
  pages: number | undefined,
  inputClean = true,
  password?: string,
): Promise<string | null> {
  if (sniffFileKind(head(bytes)) !== "pdf") return "output is not a PDF";
  const problem = await qpdfProblem(bytes, password);
  if (problem && inputClean) return problem;
  if (pages === undefined) return null;
  const actual = await pdfPages(bytes, password);
  return actual === pages ? null : `${actual} pages, expected ${pages}`;
}

async function checkImage(bytes: Uint8Array, width: number, height: number): Promise<string | null> {
  try {
    const meta = await sharp(bytes).metadata();
    await sharp(bytes).raw().toBuffer();
    const turned = (meta.orientation ?? 1) >= 5;
    const shown = turned ? [meta.height, meta.width] : [meta.width, meta.pageHeight ?? meta.height];
    if (shown[0] !== width || shown[1] !== height)
      return `${shown[0]}×${shown[1]}, expected ${width}×${height}`;
    return null;
  } catch (error) {
    return `sharp cannot read the output: ${(error as Error).message}`;
  }
}

/** The entries of a ZIP, or of a single file given as such. */
export function entriesOf(bytes: Uint8Array): Uint8Array[] {
  // By signature at byte 0: a ZIP of stored PDFs has "%PDF-" in its first 1024 bytes, which the
  // sniffer (like PDF readers) takes for a PDF.
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  if (!zip) return [bytes];
  return Object.values(unzipSync(bytes));
}

/** The text `pdftotext` reads on one page (1-based), spaces collapsed. */
async function pageText(bytes: Uint8Array, page: number): Promise<string> {
  const result = await execOn(
    "pdftotext",
    ["-f", `${page}`, "-l", `${page}`, "-enc", "UTF-8", "{}", "-"],
    bytes,
  );
  return result.stdout.replace(/\s+/g, " ").trim();
}

/** The rotation `pdfinfo` reports for one page (1-based). */
async function pageRotation(bytes: Uint8Array, page: number): Promise<number | undefined> {
  const result = await execOn("pdfinfo", ["-f", `${page}`, "-l", `${page}`, "{}"], bytes);
  const rotation = /^Page\s+\d+\s+rot:\s+(\d+)/m.exec(result.stdout)?.[1];
  return rotation === undefined ? undefined : Number(rotation);
}

/**
 * Organize's order for `pages` pages: all of them reversed, the first of the new order (the last
 * page) turned by 90°; past the API's 4 KB field, the last and first pages swapped around a run.
 */
export function sweepOrder(pages: number): string {
  if (pages === 1) return "1@90";
  const reversed = Array.from({ length: pages }, (_, i) => `${pages - i}`);
  reversed[0] = `${pages}@90`;
  const order = reversed.join(",");
  if (order.length <= 4000) return order;
  return `${pages}@90,2-${pages - 1},1`;
}

/** One page (1-based) as pdftoppm draws it in grey at 9 dpi: a page's look when it has no text. */
async function pageDrawing(bytes: Uint8Array, page: number): Promise<string> {
  const image = join(scratch, `${++scratchCount}`);
  const args = ["-f", `${page}`, "-l", `${page}`, "-r", "9", "-gray", "-singlefile", "{}", image];
  try {
    const result = await execOn("pdftoppm", args, bytes);
    if (result.code !== 0) return `pdftoppm failed: ${result.stderr.trim()}`;
    return readFileSync(`${image}.pgm`).toString("base64");
  } finally {
    rmSync(`${image}.pgm`, { force: true });
  }
}

/** null when page `at` of `out` is page `from` of `input`: the same text, or without text the same drawing. */
async function samePage(
  out: Uint8Array,
  at: number,
  input: Uint8Array,
  from: number,
): Promise<string | null> {
  const [source, moved] = [await pageText(input, from), await pageText(out, at)];
  if (source !== moved)
    return `page ${at} reads "${moved.slice(0, 60)}", source page ${from} "${source.slice(0, 60)}"`;
  if (source !== "") return null;
  return (await pageDrawing(input, from)) === (await pageDrawing(out, at))
    ? null
    : `page ${at} (no text) is drawn unlike source page ${from}`;
}

/**
 * Organize's output of sweepOrder: the first page turned by 90° more than the source's last; the
 * last page the source's first, and the second the one the order puts there (the source's
 * second-to-last, or past the API's field its second): by text, or by drawing for a page without.
 */
async function checkOrganized(out: Uint8Array, input: Uint8Array, pages: number): Promise<string | null> {
  const [before, after] = [await pageRotation(input, pages), await pageRotation(out, 1)];
  if (before === undefined || after !== (before + 90) % 360)
    return `page 1 turned ${after}°, expected ${before === undefined ? "?" : (before + 90) % 360}°`;
  if (pages === 1) return null;
  const moved = await samePage(out, pages, input, 1);
  if (moved !== null || pages === 2) return moved;
  const second = sweepOrder(pages).split(",")[1] === `2-${pages - 1}` ? 2 : pages - 1;
  return samePage(out, 2, input, second);
}

/**
 * A stamped output (page numbers, watermark): on its first and last pages pdftotext reads the
 * stamp, and every character it read there before, as many times (nothing of the page's text
 * lost). Characters, not words: text added across a page (the watermark's) makes pdftotext's
 * layout split some lines differently ("er" beside the mark read as "e", then "r" further on).
 */
async function checkStamped(
  out: Uint8Array,
  input: Uint8Array,
  pages: number,
  stamp: (page: number) => string,
): Promise<string | null> {
  for (const page of new Set([1, pages])) {
    const text = await pageText(out, page);
    if (!text.includes(stamp(page))) return `pdftotext finds no ${stamp(page)} on page ${page}`;
    const lost = missingCharacters(await pageText(input, page), text);
    if (lost !== "") return `pdftotext no longer finds "${lost.slice(0, 40)}" on page ${page}`;
  }
  return null;
}

/** The characters of `before` (white space aside) that `after` holds fewer times, in order. */
export function missingCharacters(before: string, after: string): string {
  const counts = new Map<string, number>();
  for (const character of after) counts.set(character, (counts.get(character) ?? 0) + 1);
  let missing = "";
  for (const character of before.replace(/\s/g, "")) {
    const left = counts.get(character) ?? 0;
    if (left === 0) missing += character;
    else counts.set(character, left - 1);
  }
  return missing;
}

/** The sweep's Hindi watermark, and the first number page numbers writes. */
export const SWEEP_WATERMARK = "गोपनीय";
export const SWEEP_FIRST_NUMBER = 9301;
export const SWEEP_PASSWORD = "sweep-पासवर्ड";

/** null when `qpdf --requires-password` exits `expected` (0: a password is needed, 2: not encrypted). */
async function passwordProblem(out: Uint8Array, expected: 0 | 2): Promise<string | null> {
  const requires = await execOn("qpdf", ["--requires-password", "{}"], out);
  return requires.code === expected
    ? null
    : `qpdf --requires-password exits ${requires.code}, expected ${expected}`;
}

/** A protected output: qpdf needs a password to open it, sees AES-256 (R 6), and opens it with ours. */
async function checkProtected(out: Uint8Array, pages: number | undefined, clean: boolean) {
  const needed = await passwordProblem(out, 0);
  if (needed) return needed;
  const encryption = await execOn("qpdf", [...passwordArgs(SWEEP_PASSWORD), "--show-encryption", "{}"], out);
  if (!/^R = 6$/m.test(encryption.stdout))
    return `qpdf --show-encryption: ${(encryption.stderr || encryption.stdout).trim().split("\n")[0]}`;
  return checkPdf(out, pages, clean, SWEEP_PASSWORD);
}

/** An unlocked output: qpdf sees no encryption; its pages as before. */
async function checkUnlocked(out: Uint8Array, pages: number | undefined, clean: boolean) {
  return (await passwordProblem(out, 2)) ?? checkPdf(out, pages, clean);
}

/** The outputs of protect in this run, by file, for unlock to open. */
const protectedOutputs = new Map<string, Promise<Uint8Array | undefined>>();

function checkOfficeZip(bytes: Uint8Array, part: string): string | null {
  try {
    const names = Object.keys(unzipSync(bytes));
    return names.includes(part) ? null : `no ${part} in the output`;
  } catch (error) {
    return `output is not a ZIP: ${(error as Error).message}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Jobs.

const PDF_TOOLS = [
  "merge-pdf",
  "split-pdf",
  "compress-pdf",
  "pdf-to-word",
  "pdf-to-excel",
  "pdf-to-jpg",
  "organize-pdf",
  "page-numbers",
  "watermark",
  "protect",
  "unlock",
  "sign",
  "ocr",
] as const;
const EXTENSION: Record<ImageKind, string> = {
  png: "png",
  jpeg: "jpg",
  webp: "webp",
  gif: "gif",
  heic: "heic",
  avif: "avif",
  tiff: "tiff",
  bmp: "bmp",
};
const partner = textPdf("Sweep partner", 1);
/** The signature Sign stamps: a 300 × 100 picture made once. */
let signature: Promise<Uint8Array> | undefined;
const signatureImage = () => {
  signature ??= gradientPng(300, 100);
  return signature;
};
/**
 * Where Sign places it: page 1's top left, a tenth of the page wide (its height, a thirtieth of the
 * page's width, fits any page less than 28 times as wide as it is high).
 */
const SWEEP_PLACEMENT = JSON.stringify([{ page: 1, x: 0.05, y: 0.05, width: 0.1 }]);

function pdfJobs(file: string, reference: PdfReference): SweepJob[] {
  const bytes = () => new Uint8Array(readFileSync(file));
  const name = file.split("/").at(-1) ?? "file.pdf";
  const pdf = (data: Uint8Array, n = name) => ({ name: n, bytes: data, type: "application/pdf" });
  const pages = reference.pages;
  // protect hands its output to unlock (same file, later in the job list); unlock alone, or after
  // a protect that failed, sends the file as it is.
  let protectedOutput: ((bytes: Uint8Array | undefined) => void) | undefined;
  let unlockSentOriginal = false;
  let originalEncrypted = false;
  const jobs: Partial<Record<ToolId, Omit<SweepJob, "tool" | "file" | "kind">>> = {
    "merge-pdf": {
      path: TOOLS["merge-pdf"].endpoint.path,
      form: () => taskForm("files", [pdf(bytes()), pdf(partner, "partner.pdf")]),
      check: (out) => checkPdf(out, pages === undefined ? undefined : pages + 1, reference.clean),
    },
    "split-pdf": {
      path: TOOLS["split-pdf"].endpoint.path,
      form: () => taskForm("file", [pdf(bytes())], { split_mode: "every-page" }),
      check: async (out) => {
        const parts = entriesOf(out);
        let total = 0;
        for (const part of parts) {
          const problem = await checkPdf(part, 1, reference.clean);
          if (problem) return `part: ${problem}`;
          total += 1;
        }
        return pages === undefined || total === pages ? null : `${total} parts, expected ${pages}`;
      },
    },
    "compress-pdf": {
      path: TOOLS["compress-pdf"].endpoint.path,
      form: () => taskForm("file", [pdf(bytes())], { quality: "medium" }),
      check: async (out) => {
        const input = bytes();
        if (out.length > input.length) return `output ${out.length} B larger than input ${input.length} B`;
        // The upload back as it was (nothing smaller found): the user's own file, whatever it holds.
        if (Buffer.compare(out, input) === 0) return null;
        return checkPdf(out, pages, reference.clean);
      },
    },
    "pdf-to-word": {
      path: TOOLS["pdf-to-word"].endpoint.path,
      form: () => taskForm("file", [pdf(bytes())], { output_format: "docx" }),
      check: async (out) => checkOfficeZip(out, "word/document.xml"),
    },
    "pdf-to-excel": {
      path: TOOLS["pdf-to-excel"].endpoint.path,
      form: () => taskForm("file", [pdf(bytes())], { output_format: "xlsx" }),
      check: async (out) => checkOfficeZip(out, "xl/workbook.xml"),
    },
    "pdf-to-jpg": {
      path: TOOLS["pdf-to-jpg"].endpoint.path,
      form: () => taskForm("file", [pdf(bytes())], { output_format: "jpg" }),
      check: async (out) => {
        const images = entriesOf(out);
        for (const image of images) {
          const meta = await sharp(image)
            .metadata()
            .catch(() => undefined);
          if (meta?.format !== "jpeg") return "an output image is not a JPEG sharp reads";
        }
        return pages === undefined || images.length === pages
          ? null
          : `${images.length} images, expected ${pages}`;
      },
    },
    "organize-pdf": {
      path: TOOLS["organize-pdf"].endpoint.path,
      form: () => taskForm("file", [pdf(bytes())], { order: sweepOrder(pages ?? 1) }),
      // Turns and order are compared with pdfinfo's reading of the input: none when it cannot read it.
      check: async (out) =>
        (await checkPdf(out, pages, reference.clean)) ??
        (pages === undefined ? null : checkOrganized(out, bytes(), pages)),
    },
    "page-numbers": {
      path: TOOLS["page-numbers"].endpoint.path,
      form: () =>
        taskForm("file", [pdf(bytes())], { start: `${SWEEP_FIRST_NUMBER}`, position: "bottom-right" }),
      check: async (out) =>
        (await checkPdf(out, pages, reference.clean)) ??
        (pages === undefined || !reference.textReadable
          ? null
          : checkStamped(out, bytes(), pages, (page) => `${SWEEP_FIRST_NUMBER + page - 1}`)),
    },
    watermark: {
      path: TOOLS.watermark.endpoint.path,
      form: () => taskForm("file", [pdf(bytes())], { text: SWEEP_WATERMARK }),
      check: async (out) =>
        (await checkPdf(out, pages, reference.clean)) ??
        (pages === undefined || !reference.textReadable
          ? null
          : checkStamped(out, bytes(), pages, () => SWEEP_WATERMARK)),
    },
    protect: {
      path: TOOLS.protect.endpoint.path,
      form: () => {
        protectedOutputs.set(
          file,
          new Promise((done) => {
            protectedOutput = done;
          }),
        );
        return taskForm("file", [pdf(bytes())], { password: SWEEP_PASSWORD });
      },
      check: async (out) => {
        const problem = await checkProtected(out, pages, reference.clean);
        protectedOutput?.(problem ? undefined : out);
        return problem;
      },
      settled: () => protectedOutput?.(undefined),
    },
    unlock: {
      path: TOOLS.unlock.endpoint.path,
      form: async () => {
        const protectedBytes = await protectedOutputs.get(file);
        protectedOutputs.delete(file);
        // The file as it is: encrypted or not in qpdf's eyes (an empty user password included).
        originalEncrypted =
          protectedBytes === undefined && (await exec("qpdf", ["--is-encrypted", file])).code === 0;
        unlockSentOriginal = protectedBytes === undefined;
        return taskForm("file", [pdf(protectedBytes ?? bytes())], { password: SWEEP_PASSWORD });
      },
      check: (out) => checkUnlocked(out, pages, reference.clean),
      agrees: (code) => {
        if (!unlockSentOriginal) return null;
        if (code === "PDF_NOT_ENCRYPTED")
          return originalEncrypted ? null : "qpdf --is-encrypted: not encrypted";
        if (code === "PDF_WRONG_PASSWORD")
          return originalEncrypted ? "qpdf --is-encrypted: encrypted, not with our password" : null;
        return null;
      },
    },
    sign: {
      path: TOOLS.sign.endpoint.path,
      form: async () => {
        const form = taskForm("file", [pdf(bytes())], { placements: SWEEP_PLACEMENT });
        const image = new Uint8Array(await signatureImage());
        form.append("signature", new Blob([image], { type: "image/png" }), "signature.png");
        return form;
      },
      check: (out) => checkPdf(out, pages, reference.clean),
    },
    ocr: {
      path: TOOLS.ocr.endpoint.path,
      form: () => taskForm("file", [pdf(bytes())], { languages: "en" }),
      check: (out) => checkPdf(out, pages, reference.clean),
    },
  };
  return PDF_TOOLS.map((tool) => {
    const job = jobs[tool];
    if (job === undefined) throw new Error(`bench/sweep.ts has no job for ${tool}: add one to pdfJobs`);
    return { tool, file, kind: "pdf", ...job };
  });
}

export function imageJobs(file: string, kind: ImageKind, reference: ImageReference): SweepJob[] {
  const name = file.split("/").at(-1) ?? "image";
  const upload = () => ({
    name,
    bytes: new Uint8Array(readFileSync(file)),
    type: "application/octet-stream",
  });
  const sameSize = (out: Uint8Array) => checkImage(out, reference.width, reference.height);
  const jobs: SweepJob[] = [];
  const convert = (tool: ToolId, target: string) =>
    jobs.push({
      tool,
      file,
      kind,
      path: API_PATHS.imageConvert,
      form: () => taskForm("file", [upload()], { target_format: target, quality: "medium" }),
      check: sameSize,
    });
  if (kind === "png") convert("png-to-jpg", "jpg");
  if (kind === "jpeg") convert("jpg-to-png", "png");
  if (kind === "webp") convert("webp-to-jpg", "jpg");
  if (["heic", "avif", "tiff", "bmp"].includes(kind)) {
    convert("heic-to-jpg", "jpg");
    convert("jpg-to-png", "png");
  }
  jobs.push({
    tool: "compress-image",
    file,
    kind,
    path: API_PATHS.imageConvert,
    form: () => taskForm("file", [upload()], { target_format: EXTENSION[kind], quality: "70" }),
    check: sameSize,
  });
  if ((TOOLS.ocr.input.kinds as readonly FileKind[]).includes(kind as FileKind))
    jobs.push({
      tool: "ocr",
      file,
      kind,
      path: TOOLS.ocr.endpoint.path,
      form: () => taskForm("file", [upload()], { languages: "en" }),
      check: (out) => checkPdf(out, kind === "tiff" ? reference.pages : 1),
    });
  jobs.push({
    tool: "images-to-pdf",
    file,
    kind,
    path: TOOLS["images-to-pdf"].endpoint.path,
    form: () => taskForm("images", [upload()]),
    check: (out) => checkPdf(out, kind === "tiff" ? reference.pages : 1),
  });
  return jobs;
}

// ---------------------------------------------------------------------------------------------
// Judging a failure against the reference.

const NEVER_NAMED = new Set([
  "INTERNAL",
  "JOB_TIMEOUT",
  "JOB_INTERRUPTED",
  "JOB_OUT_OF_MEMORY",
  "CONVERTER_UNAVAILABLE",
  "CONVERTER_BUSY",
]);

/** Why the reference agrees with an error code, or null when it does not. */
export function agreement(
  code: string,
  kind: "pdf" | ImageKind,
  tool: ToolId,
  pdf: PdfReference | undefined,
  image: ImageReference | undefined,
): string | null {
  if (NEVER_NAMED.has(code)) return null;
  if (pdf) {
    if (code === "PDF_ENCRYPTED") return pdf.encrypted ? "pdfinfo asks for a password" : null;
    if (code === "PDF_DAMAGED" || code === "UNSUPPORTED_FILE_TYPE") {
      if (pdf.readsNoPage) return "pdfinfo reads none of its pages (each 0 × 0)";
      return !pdf.readable && !pdf.encrypted ? "pdfinfo cannot read it either" : null;
    }
    if (code === "PDF_NO_PAGES")
      return pdf.pages === 0 || !pdf.readable || pdf.readsNoPage ? "pdfinfo finds no pages" : null;
    if (code === "PDF_NO_TEXT") return !pdf.hasText ? "pdftotext finds no text" : null;
    if (code === "IMAGE_TOO_LARGE")
      return pdf.outOfMemory ? "pdftotext runs out of a job's memory on it too" : null;
    if (code === "TOO_MANY_PAGES") {
      const limit = TOOLS[tool].input.maxPages;
      if (limit !== undefined && pdf.pages !== undefined && pdf.pages > limit)
        return `pdfinfo counts ${pdf.pages} pages, over the tool's ${limit}`;
      // PDF to JPG's limit is the pixels of the pages at the resolution asked for (the sweep's: the default).
      const pixels = (pdf.area ?? 0) * (DEFAULT_RESOLUTION / 72) ** 2;
      return tool === "pdf-to-jpg" && pixels > MAX_JOB_PIXELS
        ? `pdfinfo's pages make ${(pixels / 1e9).toFixed(2)} billion pixels at ${DEFAULT_RESOLUTION} dpi, over ${MAX_JOB_PIXELS / 1e9} billion`
        : null;
    }
    return null;
  }
  if (image) {
    if (code === "IMAGE_DAMAGED") return image.decodes ? null : "sharp cannot decode it either";
    if (code === "UNSUPPORTED_FILE_TYPE")
      return image.kind === undefined ||
        !(TOOLS[tool].input.kinds as readonly FileKind[]).includes(image.kind as FileKind)
        ? "sharp does not read it as a kind the tool takes"
        : null;
    if (code === "TOO_MANY_PAGES") {
      const limit = TOOLS[tool].input.maxPages;
      return limit !== undefined && image.pages > limit
        ? `sharp counts ${image.pages} pages, over the tool's ${limit}`
        : null;
    }
    if (code === "IMAGE_TOO_LARGE") {
      const side = tool === "webp-to-jpg" || kind === "webp" ? 16_383 : 65_535;
      return image.pixels > MAX_IMAGE_PIXELS || Math.max(image.width, image.height) > side
        ? "over the pixel or side limit"
        : null;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Running.

/** A seeded shuffle (mulberry32), so `--seed` gives the same sample every time. */
export function seededSample<T>(items: readonly T[], count: number, seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy.slice(0, count);
}

export function corpusFiles(folder: "pdf" | "img"): string[] {
  const dir = join(WIDE_CORPUS, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => !name.startsWith("."))
    .sort()
    .map((name) => join(dir, name));
}

export const EXTENSION_KINDS: Record<string, ImageKind> = {
  png: "png",
  jpg: "jpeg",
  jpeg: "jpeg",
  webp: "webp",
  gif: "gif",
  heic: "heic",
  heif: "heic",
  avif: "avif",
  tif: "tiff",
  tiff: "tiff",
  bmp: "bmp",
};

/** Every job for the chosen files, with each file's reference. */
export async function sweepJobs(
  pdfFiles: readonly string[],
  imageFiles: readonly string[],
): Promise<{ jobs: SweepJob[]; pdfs: Map<string, PdfReference>; images: Map<string, ImageReference> }> {
  const pdfs = new Map<string, PdfReference>();
  const images = new Map<string, ImageReference>();
  const jobs: SweepJob[] = [];
  for (const file of pdfFiles) {
    const reference = await pdfReference(file);
    pdfs.set(file, reference);
    jobs.push(...pdfJobs(file, reference));
  }
  for (const file of imageFiles) {
    const reference = await imageReference(new Uint8Array(readFileSync(file)));
    images.set(file, reference);
    // The reference's kind; a file sharp cannot read goes by its extension (a truncated JPEG is still sent).
    const kind = reference.kind ?? EXTENSION_KINDS[file.split(".").at(-1)?.toLowerCase() ?? ""];
    if (kind !== undefined) jobs.push(...imageJobs(file, kind, reference));
  }
  return { jobs, pdfs, images };
}

/** Runs one job: upload, wait for the end (at most `timeoutMs`), download and check. */
export async function runJob(
  client: BenchClient,
  job: SweepJob,
  timeoutMs: number,
  references: { pdfs: Map<string, PdfReference>; images: Map<string, ImageReference> },
): Promise<SweepResult> {
  try {
    return await judgeJob(client, job, timeoutMs, references);
  } finally {
    job.settled?.();
  }
}

async function judgeJob(
  client: BenchClient,
  job: SweepJob,
  timeoutMs: number,
  references: { pdfs: Map<string, PdfReference>; images: Map<string, ImageReference> },
): Promise<SweepResult> {
  const form = await job.form();
  const started = performance.now();
  const base = { tool: job.tool as string, file: job.file.split("/").slice(-2).join("/") };
  const took = () => performance.now() - started;
  let status: Pick<TaskStatus, "state" | "tool" | "task_id" | "error" | "error_code">;
  try {
    const run = client.run(job.path, job.path.startsWith("/api/image") ? "image" : "pdf", form);
    const timer = new Promise<never>((_, fail) =>
      setTimeout(() => fail(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs).unref(),
    );
    status = (await Promise.race([run, timer])).status;
  } catch (error) {
    const message = (error as Error).message;
    // A refusal of the upload itself (4xx with a named code) is judged like a failed task.
    const code = /"code":"([A-Z_]+)"/.exec(message)?.[1] as TaskStatus["error_code"] | undefined;
    if (code === undefined)
      return { ...base, verdict: "defect", outcome: "crash", detail: message, ms: took() };
    status = { state: "FAILURE", tool: job.tool, task_id: "", error: message, error_code: code };
  }
  const tool = status.tool;
  if (status.state === "SUCCESS") {
    const type = job.path.startsWith("/api/image") ? "image" : "pdf";
    const download = await fetch(new URL(downloadPath(type, status.task_id), client.base));
    if (!download.ok) {
      return {
        ...base,
        tool,
        verdict: "defect",
        outcome: "download",
        detail: `${download.status}`,
        ms: took(),
      };
    }
    const output = new Uint8Array(await download.arrayBuffer());
    const problem = await job.check(output).catch((error: Error) => `check failed: ${error.message}`);
    return problem
      ? { ...base, tool, verdict: "defect", outcome: "bad output", detail: problem, ms: took() }
      : { ...base, tool, verdict: "valid", outcome: "ok", detail: "", ms: took() };
  }
  const code = status.error_code ?? "INTERNAL";
  const why =
    (NEVER_NAMED.has(code) ? null : job.agrees?.(code)) ??
    agreement(code, job.kind, job.tool, references.pdfs.get(job.file), references.images.get(job.file));
  return why
    ? { ...base, tool, verdict: "agreed", outcome: code, detail: why, ms: took() }
    : {
        ...base,
        tool,
        verdict: "defect",
        outcome: code,
        detail: `reference disagrees (${status.error ?? ""})`,
        ms: took(),
      };
}

/** Runs `jobs` with at most `concurrency` at once, reporting each result as it comes. */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
  done?: (result: R, finished: number) => void,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let finished = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) {
        const result = await work(items[i] as T);
        results[i] = result;
        done?.(result, ++finished);
      }
    }),
  );
  return results;
}

/** The last result of each tool on each file: a re-run (`--match`) after a fix replaces the earlier one. */
export function lastResults(results: readonly SweepResult[]): SweepResult[] {
  const last = new Map<string, SweepResult>();
  for (const result of results) {
    const key = `${result.tool}\u0000${result.file}`;
    last.delete(key);
    last.set(key, result);
  }
  return [...last.values()];
}

export function printTable(results: readonly SweepResult[]): void {
  const tools = [...new Set(results.map((r) => r.tool))].sort();
  const rows = tools.map((tool) => {
    const mine = results.filter((r) => r.tool === tool);
    const count = (verdict: Verdict) => mine.filter((r) => r.verdict === verdict).length;
    const codes = new Map<string, number>();
    for (const r of mine.filter((r) => r.verdict === "agreed"))
      codes.set(r.outcome, (codes.get(r.outcome) ?? 0) + 1);
    const times = mine.map((r) => r.ms / 1000);
    return [
      tool,
      String(mine.length),
      String(count("valid")),
      String(count("agreed")),
      String(count("defect")),
      median(times).toFixed(1),
      percentile(times, 0.95).toFixed(1),
      [...codes].map(([code, n]) => `${code} ${n}`).join(", "),
    ];
  });
  const header = ["tool", "files", "valid", "agreed error", "defects", "median s", "p95 s", "agreed errors"];
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)));
  for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  "));
  const defects = results.filter((r) => r.verdict === "defect");
  console.log(`\n${defects.length} defects`);
  for (const d of defects) console.log(`DEFECT ${d.tool} ${d.file}: ${d.outcome} — ${d.detail}`);
}

/**
 * Runs `jobs` through the API of a stack started for the run, `concurrency` at a time: each result as
 * runJob judges it, except that a converter restart during a job makes it a defect. Progress and
 * defects go to stderr; `out` gets each result as a JSON line as it comes.
 */
export async function runSweep(
  jobs: readonly SweepJob[],
  references: { pdfs: Map<string, PdfReference>; images: Map<string, ImageReference> },
  options: { concurrency: number; timeoutMs: number; out?: string | undefined },
): Promise<SweepResult[]> {
  const restarts: string[] = [];
  const log = console.error;
  console.error = (...args: unknown[]) => {
    const line = args.map(String).join(" ");
    if (line.includes("converter exited")) restarts.push(line);
    log(...args);
  };
  try {
    return await withStack({ raiseLimits: true }, async (url) => {
      const client = new BenchClient(url);
      return runPool(
        jobs,
        options.concurrency,
        async (job) => {
          const before = restarts.length;
          const result = await runJob(client, job, options.timeoutMs, references);
          // A converter that exited during the job is a defect whatever the task said.
          if (restarts.length > before && result.verdict !== "defect") {
            return {
              ...result,
              verdict: "defect" as const,
              outcome: "restart",
              detail: restarts.at(-1) ?? "",
            };
          }
          return result;
        },
        (result, finished) => {
          if (options.out !== undefined) appendFileSync(options.out, `${JSON.stringify(result)}\n`);
          if (result.verdict === "defect" || finished % 50 === 0) {
            const mark =
              result.verdict === "defect" ? ` DEFECT ${result.tool} ${result.file} ${result.outcome}` : "";
            process.stderr.write(`[${finished}/${jobs.length}]${mark}\n`);
          }
        },
      );
    });
  } finally {
    console.error = log;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tool: { type: "string" },
      sample: { type: "string" },
      seed: { type: "string", default: "1" },
      concurrency: { type: "string", default: "2" },
      timeout: { type: "string", default: "180" },
      /** Only the files whose name matches this regular expression. */
      match: { type: "string" },
      /** Appends each result to this JSON-lines file as it comes (a long sweep's partial record). */
      out: { type: "string" },
      /** Prints the table of earlier `--out` files instead of sweeping. */
      report: { type: "string", multiple: true },
    },
  });
  if (values.report !== undefined) {
    const lines = values.report.flatMap((file) => readFileSync(file, "utf8").split("\n").filter(Boolean));
    printTable(lastResults(lines.map((line) => JSON.parse(line) as SweepResult)));
    return;
  }
  if (!existsSync(WIDE_CORPUS)) {
    console.log(`No wide corpus at ${WIDE_CORPUS}: nothing to sweep.`);
    return;
  }
  const seed = Number(values.seed);
  const sample = values.sample === undefined ? undefined : Number(values.sample);
  const matching = (files: string[]) =>
    values.match === undefined ? files : files.filter((file) => new RegExp(values.match ?? "").test(file));
  const pick = (files: string[]) =>
    sample === undefined ? matching(files) : seededSample(matching(files), sample, seed);
  const wanted = values.tool?.split(",").map((t) => t.trim());
  const unknown = wanted?.filter((id) => !(id in TOOLS) || !TOOLS[id as ToolId].available);
  if (unknown?.length) throw new Error(`no available tool ${unknown.join(", ")}`);
  const takesPdf =
    wanted === undefined || wanted.some((id) => TOOLS[id as ToolId].input.kinds.includes("pdf"));
  const takesImage =
    wanted === undefined ||
    wanted.some((id) =>
      (TOOLS[id as ToolId].input.kinds as readonly FileKind[]).some((kind) => kind in EXTENSION),
    );
  const pdfFiles = takesPdf ? pick(corpusFiles("pdf")) : [];
  const imageFiles = takesImage ? pick(corpusFiles("img")) : [];
  console.log(`Reading references for ${pdfFiles.length} PDFs and ${imageFiles.length} images…`);
  const { jobs, pdfs, images } = await sweepJobs(pdfFiles, imageFiles);
  // Tool by tool in the order asked for, so a long sweep's partial record holds whole tools.
  const chosen = jobs
    .filter((job) => wanted === undefined || wanted.includes(job.tool))
    .sort((a, b) => (wanted ? wanted.indexOf(a.tool) - wanted.indexOf(b.tool) : 0));
  const concurrency = Number(values.concurrency);
  const timeoutMs = Number(values.timeout) * 1000;
  console.log(`${chosen.length} jobs, ${concurrency} at a time, ${values.timeout} s per file (seed ${seed})`);
  const started = performance.now();
  const results = await runSweep(chosen, { pdfs, images }, { concurrency, timeoutMs, out: values.out });
  console.log(
    `\nSweep of ${pdfFiles.length} PDFs and ${imageFiles.length} images in ${((performance.now() - started) / 60_000).toFixed(1)} min\n`,
  );
  printTable(results);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

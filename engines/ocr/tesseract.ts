/**
 * Tesseract 5 (LSTM), run as the `tesseract` program the converter's system installs (Debian's
 * tesseract-ocr with the eng spa deu fra hin tel tam and osd models; see README). Each call reads a
 * page image from standard input (a greyscale PGM, or a scan's JPEG) and answers on standard output, so nothing of
 * the user's file is written to disk. Tesseract is single-threaded here (OMP_THREAD_LIMIT=1): the
 * converter already runs one job per CPU. Each pass's process is started before its page is ready,
 * while the pass before with the same arguments reads (runTesseract), so that its models are loaded
 * by then.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError, DEFAULT_JOB_TIMEOUT_MS, type LanguageCode } from "../../contract/index.ts";

/** Tesseract's model for each site language. */
export const TESSERACT_MODELS: Readonly<Record<LanguageCode, string>> = {
  en: "eng",
  es: "spa",
  de: "deu",
  fr: "fra",
  hi: "hin",
  te: "tel",
  ta: "tam",
};

/**
 * Models for a page whose script OSD detected, when the user chose no language. Indic pages often
 * carry English words (names, numbers, headings), so English is read beside their own model.
 */
const SCRIPT_MODELS: Readonly<Record<string, string>> = {
  Latin: "eng+spa+deu+fra",
  Devanagari: "hin+eng",
  Telugu: "tel+eng",
  Tamil: "tam+eng",
};
const DEFAULT_MODELS = "eng";

/**
 * OSD's orientation confidence below which a page is left as it is. A full upright text page
 * measured 12 (Latin), sideways ones over 20; a short page of two Telugu lines upside down 3.8;
 * blank or picture pages come out near 0.
 */
const MIN_ORIENTATION_CONFIDENCE = 2.5;
/**
 * Characters OSD samples on a page where its default (50) found too few: a page of two Hindi
 * sentences then had its script named. Not the first try: on a full sideways page the smaller
 * sample answered "upright".
 */
const OSD_MIN_CHARACTERS = 10;

/** A page image: 8-bit grey samples, row after row. */
export interface GreyImage {
  readonly width: number;
  readonly height: number;
  readonly samples: Uint8Array;
  /** Resolution the page was drawn at (Tesseract sizes its text expectations from it). */
  readonly dpi: number;
}

/** What Tesseract's orientation and script detection found on a page. */
export interface PageLayout {
  /** Clockwise quarter turns, in degrees, that make the page upright. */
  readonly rotate: 0 | 90 | 180 | 270;
  /** The `-l` argument for the page's detected script. */
  readonly models: string;
  /** Whether a script was detected (else `models` are the default). */
  readonly detected: boolean;
}

/** A box in an image's pixels (origin top left). */
export interface PixelBox {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** One recognised word, its box in the image's pixels. */
export interface OcrWord extends PixelBox {
  readonly text: string;
  /** Tesseract's confidence in the word, 0–100. */
  readonly confidence: number;
}

/** A line of words in reading order, with the line's box. */
export interface OcrLine extends PixelBox {
  readonly words: readonly OcrWord[];
}

/**
 * A page image; or how to draw it, drawn only once Tesseract has started, so that it loads its
 * models while the page is drawn; or a scan's own JPEG, which Tesseract decodes itself.
 */
export type PageImage =
  | GreyImage
  | { readonly dpi: number; readonly draw: () => GreyImage }
  | { readonly dpi: number; readonly width: number; readonly height: number; readonly jpeg: Uint8Array };

export function modelsFor(languages: readonly LanguageCode[]): string {
  return languages.map((code) => TESSERACT_MODELS[code]).join("+");
}

/** Orientation and script of a page (`--psm 0`); an undecidable page stays as it is. */
export async function detectLayout(image: GreyImage): Promise<PageLayout> {
  let { stdout } = await runTesseract(image, ["--psm", "0"]);
  // Too few characters for the default sample (a short page) fails with no answer: a smaller one.
  if (!/Rotate:/.test(stdout))
    ({ stdout } = await runTesseract(image, [
      "--psm",
      "0",
      "-c",
      `min_characters_to_try=${OSD_MIN_CHARACTERS}`,
    ]));
  // Still nothing to decide from (a blank or picture page).
  if (!/Rotate:/.test(stdout)) return { rotate: 0, models: DEFAULT_MODELS, detected: false };
  const value = (name: string) =>
    /: *(.+)/.exec(stdout.split("\n").find((l) => l.startsWith(name)) ?? "")?.[1];
  const rotate = Number(value("Rotate"));
  const confidence = Number(value("Orientation confidence"));
  const script = value("Script")?.trim() ?? "";
  const turn = [90, 180, 270].includes(rotate) && confidence >= MIN_ORIENTATION_CONFIDENCE ? rotate : 0;
  const models = SCRIPT_MODELS[script];
  return {
    rotate: turn as PageLayout["rotate"],
    models: models ?? DEFAULT_MODELS,
    detected: models !== undefined,
  };
}

/** The page's words, line by line (Tesseract's TSV output, page segmentation 3: automatic). */
export async function recognise(image: PageImage, models: string): Promise<OcrLine[]> {
  return parseTsv(await readPage(image, ["--dpi", String(Math.round(image.dpi)), "-l", models, "tsv"]));
}

/** Words of Tesseract's TSV (level 5 rows) grouped by their block, paragraph and line numbers. */
export function parseTsv(tsv: string): OcrLine[] {
  const lines = new Map<string, OcrLine & { words: OcrWord[] }>();
  for (const row of tsv.split("\n").slice(1)) {
    const cells = row.split("\t");
    if (cells.length < 12) continue;
    const [level, , block, paragraph, line, , left, top, width, height, confidence] = cells.map(Number);
    const key = `${block}.${paragraph}.${line}`;
    if (level === 4)
      lines.set(key, { words: [], left: left ?? 0, top: top ?? 0, width: width ?? 0, height: height ?? 0 });
    const text = cleanWord(cells.slice(11).join("\t"));
    if (level !== 5 || text === "") continue;
    lines.get(key)?.words.push({
      text,
      left: left ?? 0,
      top: top ?? 0,
      width: width ?? 0,
      height: height ?? 0,
      confidence: confidence ?? 0,
    });
  }
  return [...lines.values()].filter((line) => line.words.length > 0);
}

/**
 * Mean word confidence under which a page is suspected to lie upside down: upright scans measured
 * over 90, the same pages turned 180° under 40.
 */
const MIN_UPRIGHT_CONFIDENCE = 60;

/** Clockwise quarter turns, in degrees. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/**
 * The clockwise turn that makes the page upright, judged from the words read on it; undefined when
 * they do not tell (no words, or words read with little confidence: a page upside down, turned
 * anticlockwise, or without text). Tesseract reads lines running down the image (a page turned a
 * quarter clockwise) as vertical text, words taller than wide and in reading order top to bottom:
 * such a page is upright after a further 270°. Lines running up (read the same way) take 90°.
 */
export function readingTurn(lines: readonly OcrLine[]): QuarterTurn | undefined {
  const words = lines.flatMap((line) => line.words).filter((word) => [...word.text].length >= 3);
  if (words.length === 0) return undefined;
  const confidence = words.reduce((sum, word) => sum + word.confidence, 0) / words.length;
  if (confidence < MIN_UPRIGHT_CONFIDENCE) return undefined;
  const vertical = words.filter((word) => word.height > word.width).length;
  if (vertical * 2 <= words.length) return 0;
  let down = 0;
  for (const { words: row } of lines) {
    const first = row[0];
    const last = row.at(-1);
    if (first === undefined || last === undefined || row.length < 2) continue;
    down += Math.sign(last.top + last.height / 2 - (first.top + first.height / 2));
  }
  return down > 0 ? 270 : down < 0 ? 90 : undefined;
}

/** The part of the image within `box` (pixels, clipped to the image). */
export function cropImage(image: GreyImage, box: PixelBox): GreyImage {
  const left = Math.max(0, Math.floor(box.left));
  const top = Math.max(0, Math.floor(box.top));
  const width = Math.min(image.width, Math.ceil(box.left + box.width)) - left;
  const height = Math.min(image.height, Math.ceil(box.top + box.height)) - top;
  const samples = new Uint8Array(Math.max(0, width * height));
  for (let y = 0; y < height; y++) {
    const from = (top + y) * image.width + left;
    samples.set(image.samples.subarray(from, from + width), y * width);
  }
  return { width, height, samples, dpi: image.dpi };
}

/** The image turned clockwise by `turn`. */
export function turnImage(image: GreyImage, turn: QuarterTurn): GreyImage {
  const { width, height, samples } = image;
  if (turn === 0) return image;
  if (turn === 180) return { ...image, samples: new Uint8Array(samples).reverse() };
  const turned = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      // A quarter clockwise: pixel (x, y) goes to (height - 1 - y, x); anticlockwise to (y, width - 1 - x).
      const to = turn === 90 ? x * height + (height - 1 - y) : (width - 1 - x) * height + y;
      turned[to] = samples[row + x] ?? 0;
    }
  }
  return { width: height, height: width, samples: turned, dpi: image.dpi };
}

/** Lines read on an image of `width` × `height`, placed on that image turned clockwise by `turn`. */
export function turnLines(
  lines: readonly OcrLine[],
  turn: QuarterTurn,
  width: number,
  height: number,
): OcrLine[] {
  const box = <T extends PixelBox>(item: T): T => {
    const [x0, y0] = turnPoint(item.left, item.top, turn, width, height);
    const [x1, y1] = turnPoint(item.left + item.width, item.top + item.height, turn, width, height);
    return {
      ...item,
      left: Math.min(x0, x1),
      top: Math.min(y0, y1),
      width: Math.abs(x1 - x0),
      height: Math.abs(y1 - y0),
    };
  };
  return lines.map((line) => ({ ...box(line), words: line.words.map(box) }));
}

function turnPoint(x: number, y: number, turn: QuarterTurn, width: number, height: number): [number, number] {
  if (turn === 90) return [height - y, x];
  if (turn === 180) return [width - x, height - y];
  if (turn === 270) return [y, width - x];
  return [x, y];
}

/**
 * A word as text: NFC, without the zero-width joiners Tesseract's Indic models leave after a word's
 * final virama or pulli (they join nothing there and would break search for the word).
 */
export function cleanWord(text: string): string {
  return text
    .normalize("NFC")
    .trim()
    .replace(/[\u200c\u200d]+$/u, "");
}

/** The PGM (P5) file of a grey image: a short header, then the samples as they are. */
function pgm(image: GreyImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, "latin1");
  return Buffer.concat([header, image.samples]);
}

/**
 * The longest one Tesseract pass may run, from the moment it has its page: the converter's default
 * job time limit. A job over its limit has its runner killed, which does not reach this child; so
 * it stops by itself at the latest then, and fails its job if that is still running.
 */
const PASS_TIME_LIMIT_MS = DEFAULT_JOB_TIMEOUT_MS;

interface Run {
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number | null;
}

/** A Tesseract process started with its arguments, which reads its page once it is fed. */
interface Pass {
  /** Feeds the page and answers what the process printed. */
  run(page: PageImage): Promise<Run>;
  /** Whether it can still take a page (not exited, not fed). */
  readonly ready: boolean;
  /** Whether it keeps this process alive (not while it waits as a spare). */
  keepAlive(keep: boolean): void;
  kill(): void;
}

/**
 * Starts `tesseract` with `args`: it loads its models (80–120 ms of CPU for a Latin model, 10–20 ms
 * for an Indic one, measured with 5.3 here) and then waits for its page on standard input.
 */
function startPass(args: readonly string[]): Pass {
  const child = spawn("tesseract", ["stdin", "stdout", ...args], {
    env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  // A child that exits before reading everything closes the pipe; its status tells the outcome.
  child.stdin.on("error", () => {});
  let fed = false;
  let exited = false;
  const ended = new Promise<Run>((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) => {
      exited = true;
      const detail = error.code === "ENOENT" ? "tesseract is not installed" : error.message;
      reject(new AppError("INTERNAL", "Text recognition is not installed.", undefined, detail));
    });
    child.once("close", (status) => {
      exited = true;
      resolve({
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        status,
      });
    });
  });
  // Unused, it is killed: its failure is nobody's.
  ended.catch(() => undefined);
  const kill = () => {
    if (!exited) child.kill("SIGKILL");
  };
  return {
    get ready() {
      return !fed && !exited;
    },
    keepAlive(keep) {
      // The pipes of a child process are sockets.
      const pipes = [child.stdin, child.stdout, child.stderr] as unknown as Socket[];
      for (const handle of [child, ...pipes]) {
        if (keep) handle.ref();
        else handle.unref();
      }
    },
    kill,
    async run(page) {
      fed = true;
      const timer = setTimeout(kill, PASS_TIME_LIMIT_MS);
      try {
        child.stdin.end("jpeg" in page ? page.jpeg : pgm("draw" in page ? page.draw() : page));
      } catch (error) {
        kill();
        clearTimeout(timer);
        throw error;
      }
      try {
        return await ended;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Passes started ahead, by their arguments: while each pass reads, one with the same arguments is
 * started for the next page read the same way (the same models at the same resolution: most pages of a
 * scan, and the next job in the same language), so that it has loaded its models by then. At most
 * SPARE_PASSES (a page read without a language chosen alternates detection and recognition); one
 * unused for SPARE_IDLE_MS is stopped (an idle one holds 30–40 MB).
 */
const spares = new Map<string, { pass: Pass; timer: ReturnType<typeof setTimeout> }>();
const SPARE_PASSES = 2;
const SPARE_IDLE_MS = 5 * 60_000;

function takeSpare(key: string): Pass | undefined {
  const spare = spares.get(key);
  if (spare === undefined) return undefined;
  spares.delete(key);
  clearTimeout(spare.timer);
  spare.pass.keepAlive(true);
  if (spare.pass.ready) return spare.pass;
  spare.pass.kill();
  return undefined;
}

function startSpare(key: string, args: readonly string[]): void {
  takeSpare(key)?.kill();
  for (const [oldest] of spares) {
    if (spares.size < SPARE_PASSES) break;
    takeSpare(oldest)?.kill();
  }
  const pass = startPass(args);
  pass.keepAlive(false);
  const timer = setTimeout(() => takeSpare(key)?.kill(), SPARE_IDLE_MS);
  // An idle spare does not keep the process alive.
  timer.unref();
  spares.set(key, { pass, timer });
}

/**
 * Reads `page` with a pass of `args` (one started ahead when there is one) and, once the page is
 * fed, starts the next pass of the same kind while this one reads: starting a process forks the
 * runner, 10–20 ms of its main thread (300 ms once at load 9; the runner holds 150 MB and MuPDF's
 * WASM memory), which the page then no longer waits for, and the models load meanwhile too.
 */
async function runTesseract(page: PageImage, args: readonly string[]): Promise<Run> {
  const full = ["--dpi", String(Math.round(page.dpi)), ...args];
  const key = full.join(" ");
  const pass = takeSpare(key) ?? startPass(full);
  // The page is drawn (if it must be) and fed before this returns.
  const run = pass.run(page);
  startSpare(key, full);
  return await run;
}

/**
 * Where page images wait for a reader: memory (tmpfs) where the system has it with room to spare,
 * else the temporary folder (a container's /dev/shm is often 64 MB, a few pages at 300 dpi); in a
 * folder only this user can enter, named by the runner's process id; each image is deleted as soon
 * as it is read, the folder when its reader ends, and a folder whose runner is gone (killed over a
 * job's limit) by the next runner that reads a page.
 */
export const PAGE_FOLDER_BASE = memoryFolder("/dev/shm", 512 * 1024 * 1024) ?? tmpdir();

/** `path` when it is there with at least `minFree` bytes available. */
export function memoryFolder(path: string, minFree: number): string | undefined {
  try {
    const stats = statfsSync(path);
    return stats.bavail * stats.bsize >= minFree ? path : undefined;
  } catch {
    return undefined;
  }
}
const PAGE_FOLDER_PREFIX = "ocr-pages-";
let staleFoldersRemoved = false;

function removeStaleFolders(): void {
  if (staleFoldersRemoved) return;
  staleFoldersRemoved = true;
  for (const name of readdirSync(PAGE_FOLDER_BASE)) {
    const owner = Number(name.slice(PAGE_FOLDER_PREFIX.length).split("-")[0]);
    if (!name.startsWith(PAGE_FOLDER_PREFIX) || !Number.isInteger(owner) || owner === process.pid) continue;
    try {
      process.kill(owner, 0);
    } catch {
      rmSync(join(PAGE_FOLDER_BASE, name), { recursive: true, force: true });
    }
  }
}

/** A blank 16 × 16 page read after each page: its row in the output marks where the page's ended. */
const END_MARK = Buffer.concat([Buffer.from("P5\n16 16\n255\n", "latin1"), Buffer.alloc(256, 255)]);

/**
 * A Tesseract process that reads page after page, as the Tesseract CLI reads a list of images:
 * with `stream_filelist` the names of its images arrive on standard input, a line each, and each
 * page's TSV is written (and flushed) once the page is read. So its models are loaded once for
 * all the pages of a job and for the next jobs read the same way (0.1–0.15 CPU s a page for a
 * Latin model, measured, which a process per page spent again each time), and no process is
 * started per page. After each page a blank one is read: the first row of its output ends the
 * page's.
 */
class PageReader {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #folder: string;
  readonly #endMark: string;
  /** Images named to the process so far (pages and end marks); the TSV numbers them from 1. */
  #named = 0;
  #output = "";
  #errors = "";
  #exited = false;
  #waiting: { readonly page: number; readonly settle: (error?: Error) => void } | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  busy = false;
  /** When it last finished a page (performance.now()). */
  lastUsed = 0;

  constructor(args: readonly string[]) {
    removeStaleFolders();
    this.#folder = mkdtempSync(join(PAGE_FOLDER_BASE, `${PAGE_FOLDER_PREFIX}${process.pid}-`));
    this.#endMark = join(this.#folder, "end.pgm");
    writeFileSync(this.#endMark, END_MARK);
    this.#child = spawn("tesseract", ["-", "stdout", ...args, "-c", "stream_filelist=true"], {
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#child.stdout.setEncoding("utf8");
    this.#child.stdout.on("data", (chunk: string) => {
      this.#output += chunk;
      this.#check();
    });
    this.#child.stderr.setEncoding("utf8");
    this.#child.stderr.on("data", (chunk: string) => {
      this.#errors = (this.#errors + chunk).slice(-2000);
    });
    this.#child.stdin.on("error", () => {});
    this.#child.once("error", (error: NodeJS.ErrnoException) => {
      const detail = error.code === "ENOENT" ? "tesseract is not installed" : error.message;
      this.#end(new AppError("INTERNAL", "Text recognition is not installed.", undefined, detail));
    });
    this.#child.once("close", () => {
      this.#end(new AppError("INTERNAL", "Text recognition failed.", undefined, this.#errors.slice(-500)));
    });
  }

  get alive(): boolean {
    return !this.#exited;
  }

  /** The TSV of `page` (with its header row), read by this process. */
  async read(page: PageImage): Promise<string> {
    this.busy = true;
    clearTimeout(this.#idleTimer);
    this.#keepAlive(true);
    const number = this.#named + 1;
    this.#named += 2;
    const file = join(this.#folder, `page-${number}.${"jpeg" in page ? "jpg" : "pgm"}`);
    const timer = setTimeout(() => this.kill(), PASS_TIME_LIMIT_MS);
    try {
      writeFileSync(file, "jpeg" in page ? page.jpeg : pgm("draw" in page ? page.draw() : page), {
        mode: 0o600,
      });
      const done = new Promise<void>((resolve, reject) => {
        this.#waiting = {
          page: number,
          settle: (error) => (error === undefined ? resolve() : reject(error)),
        };
      });
      this.#child.stdin.write(`${file}\n${this.#endMark}\n`);
      this.#check();
      await done;
      const header = this.#output.slice(0, this.#output.indexOf("\n") + 1);
      const start = this.#output.indexOf(`\n1\t${number}\t`);
      const end = this.#output.indexOf(`\n1\t${number + 1}\t`);
      const rows = start < 0 ? "" : this.#output.slice(start + 1, end + 1);
      // What is left: the header, then the end mark's rows.
      this.#output = header + this.#output.slice(end + 1);
      return header + rows;
    } finally {
      clearTimeout(timer);
      this.#waiting = undefined;
      rmSync(file, { force: true });
      this.busy = false;
      this.lastUsed = performance.now();
      if (!this.#exited) {
        this.#keepAlive(false);
        this.#idleTimer = setTimeout(() => this.kill(), SPARE_IDLE_MS);
        this.#idleTimer.unref();
      }
    }
  }

  kill(): void {
    if (!this.#exited) this.#child.kill("SIGKILL");
  }

  /** Settles the page waited for once the end mark after it has its first row. */
  #check(): void {
    const waiting = this.#waiting;
    if (waiting !== undefined && this.#output.includes(`\n1\t${waiting.page + 1}\t`)) waiting.settle();
  }

  #end(error: Error): void {
    if (this.#exited) return;
    this.#exited = true;
    clearTimeout(this.#idleTimer);
    this.#waiting?.settle(error);
    rmSync(this.#folder, { recursive: true, force: true });
  }

  /** Whether this process keeps the runner alive (not while it waits for the next page). */
  #keepAlive(keep: boolean): void {
    // The pipes of a child process are sockets.
    const pipes = [this.#child.stdin, this.#child.stdout, this.#child.stderr] as unknown as Socket[];
    for (const handle of [this.#child, ...pipes]) {
      if (keep) handle.ref();
      else handle.unref();
    }
  }
}

/** Page readers by their arguments; at most SPARE_PASSES of them wait idle. */
const readers = new Map<string, PageReader[]>();

/** The TSV of `page` read with `args`, by an idle reader of those arguments, or a new one. */
async function readPage(page: PageImage, args: readonly string[]): Promise<string> {
  const key = args.join(" ");
  const same = (readers.get(key) ?? []).filter((reader) => reader.alive);
  let reader = same.find((candidate) => !candidate.busy);
  if (reader === undefined) {
    reader = new PageReader(args);
    same.push(reader);
  }
  readers.set(key, same);
  try {
    return await reader.read(page);
  } finally {
    const idle = [...readers.values()]
      .flat()
      .filter((candidate) => candidate.alive && !candidate.busy)
      .sort((a, b) => a.lastUsed - b.lastUsed);
    // The readers used longest ago go first.
    for (const extra of idle.slice(0, Math.max(0, idle.length - SPARE_PASSES))) extra.kill();
  }
}

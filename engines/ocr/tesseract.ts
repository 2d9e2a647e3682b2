/**
 * Tesseract 5 (LSTM), run as the `tesseract` program the converter's system installs (Debian's
 * tesseract-ocr with the eng spa deu fra hin tel tam and osd models; see README). Each call reads a
 * page image from standard input (a greyscale PGM, or a scan's JPEG) and answers on standard output, so nothing of
 * the user's file is written to disk. Tesseract is single-threaded here (OMP_THREAD_LIMIT=1): the
 * converter already runs one job per CPU. Each pass's process is started before its page is ready,
 * while the pass before with the same arguments reads (runTesseract), so that its models are loaded
 * by then.
 */
import { spawn } from "node:child_process";
import type { Socket } from "node:net";
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
  const { stdout, stderr, status } = await runTesseract(image, ["-l", models, "tsv"]);
  // Killed (status null) or failed: either way no words to trust.
  if (status !== 0) {
    throw new AppError("INTERNAL", "Text recognition failed.", undefined, stderr.slice(-500));
  }
  return parseTsv(stdout);
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

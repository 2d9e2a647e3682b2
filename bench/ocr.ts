/**
 * `npm run bench:ocr`: a page of known text in each site language, typeset in code with the Noto
 * fonts (Markdown to PDF), drawn at 200 dpi and degraded like a phone or office scan (±1.5°
 * rotation, blur, grey noise, JPEG quality 70; the German page also turned 90°), recognised
 * through the API (POST /api/pdf/ocr, text read back with pdftotext) and, in the same run, by the
 * Tesseract CLI on the same JPEG making the same kind of output (a searchable PDF, its text read
 * back with pdftotext too), the two in turn (`--runs N` times each, 3 by default, alternating
 * which goes first) so that the shared machine's load falls on both alike. Prints per language the
 * character error rate (Levenshtein on NFC text, whitespace collapsed) and the median seconds per
 * page of both, the SSIM of the output page's render against the input image, next to the
 * issue's goals, and the load average during each language's runs.
 *
 * `-- --engine`: the engine alone instead of the API. `-- --url URL`: the API of a stack already
 * running. `-- --trace`: each API run's timeline as the client sees it. `-- --pages N`: one scan of
 * N pages per language (`--languages`, English by default) through the API, its seconds against
 * its job time limit (which grows with the pages) and against the CLI reading the same pages. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { declarationOf, jobTimeLimitMs, type LanguageCode } from "../contract/index.ts";
import { TESSERACT_MODELS } from "../engines/ocr/tesseract.ts";
import { scanImage, scanPdf } from "../tests/support/scan-pages.ts";
import { popplerText } from "../tests/support/script-text.ts";
import { ssim } from "../tests/support/ssim.ts";
import { BenchClient, CLIENT_KEEP_ALIVE_MS, median, taskForm, withStack } from "./api-driver.ts";
import { descendants } from "./stack-processes.ts";

const SENTENCES: Readonly<Record<LanguageCode, string>> = {
  en: "The river flows quietly past the old mill, where children gather every summer to watch the boats.",
  es: "El río pasa tranquilo junto al viejo molino, donde los niños se reúnen cada verano para ver los barcos.",
  de: "Der Fluss fließt ruhig an der alten Mühle vorbei, wo sich jeden Sommer Kinder versammeln, um die Boote zu beobachten.",
  fr: "La rivière coule paisiblement près du vieux moulin, où les enfants se réunissent chaque été pour regarder les bateaux.",
  hi: "नदी पुरानी चक्की के पास शांति से बहती है, जहाँ हर गर्मी में बच्चे नावें देखने के लिए इकट्ठा होते हैं।",
  te: "నది పాత మిల్లు దగ్గర నెమ్మదిగా ప్రవహిస్తుంది, అక్కడ ప్రతి వేసవిలో పిల్లలు పడవలను చూడటానికి చేరుకుంటారు.",
  ta: "ஆறு பழைய ஆலையின் அருகே அமைதியாக ஓடுகிறது, அங்கே ஒவ்வொரு கோடையிலும் குழந்தைகள் படகுகளைப் பார்க்கக் கூடுகிறார்கள்.",
};
const GOAL_CER: Readonly<Record<LanguageCode, number>> = { en: 1, es: 1, de: 1, fr: 1, hi: 2, te: 2, ta: 6 };
const TURNED: LanguageCode = "de";
const DPI = 200;

/** NFC, whitespace collapsed, the typeset page number ("1 / 1") removed. */
function normalise(text: string): string {
  return text
    .normalize("NFC")
    .replace(/\b\d+ \/ \d+\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function levenshtein(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Character error rate in percent of `read` against `truth`. */
function cer(truth: string, read: string): number {
  const expected = [...normalise(truth)];
  return (levenshtein(expected, [...normalise(read)]) / expected.length) * 100;
}

/** The clean page degraded like a scan: a slight skew, blur, grey noise, JPEG quality 70. */
async function degrade(clean: Uint8Array, angle: number, turn: number): Promise<Uint8Array> {
  const skewed = await sharp(clean)
    .greyscale()
    .rotate(angle, { background: "#ffffff" })
    .blur(0.7)
    .raw()
    .toBuffer({ resolveWithObject: true });
  let seed = 7;
  // A fixed linear congruential sequence: the same noise on every run.
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const noisy = Buffer.from(skewed.data);
  for (let i = 0; i < noisy.length; i++) {
    const noise = (random() + random() + random() - 1.5) * 24;
    noisy[i] = Math.max(0, Math.min(255, Math.round((noisy[i] ?? 0) + noise)));
  }
  const { width, height, channels } = skewed.info;
  const jpeg = await sharp(noisy, { raw: { width, height, channels } })
    .rotate(turn)
    .withMetadata({ density: DPI })
    .jpeg({ quality: 70 })
    .toBuffer();
  return new Uint8Array(jpeg);
}

/** CPU seconds (user + system, its reaped children included) of process `pid` so far. */
function cpuSeconds(pid: number | "self"): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime, stime, cutime, cstime: fields 14–17 of stat(5), counted after the command's name.
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/**
 * The Tesseract CLI on the same JPEG, making what the API makes: a searchable PDF (`tesseract page.jpg
 * out -l X txt pdf`, single-threaded as the converter runs it; the text renderer beside it costs
 * nothing measurable and gives the CLI's text as it reads it). Wall and CPU time of that run.
 */
function cli(jpeg: Uint8Array, code: LanguageCode): Timed & { text: string } {
  return tesseractCli([jpeg], code);
}

/**
 * The Tesseract CLI on `jpegs` written to files: one named as the input, or, for a document of
 * several, a list of them (`tesseract list.txt out -l X txt pdf`: one process and one model load
 * for all pages). Wall and CPU time of the run, and its text.
 */
function tesseractCli(jpegs: readonly Uint8Array[], code: LanguageCode): Timed & { text: string } {
  const folder = mkdtempSync(join(tmpdir(), "bench-ocr-"));
  try {
    const files = jpegs.map((jpeg, page) => {
      const file = join(folder, `page-${page}.jpg`);
      writeFileSync(file, jpeg);
      return file;
    });
    let input = files[0] ?? "";
    if (files.length > 1) {
      input = join(folder, "pages.txt");
      writeFileSync(input, `${files.join("\n")}\n`);
    }
    const cpu = cpuSeconds("self");
    const started = performance.now();
    const out = join(folder, "out");
    const run = spawnSync("tesseract", [input, out, "-l", TESSERACT_MODELS[code], "txt", "pdf"], {
      encoding: "utf8",
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    });
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0 || !existsSync(`${out}.pdf`)) throw new Error(`tesseract failed: ${run.stderr}`);
    return { text: readFileSync(`${out}.txt`, "utf8"), seconds, cpu: cpuSeconds("self") - cpu };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** SSIM of the output page drawn at the scan's resolution against the scan as the page shows it. */
async function pageSsim(pdf: Uint8Array, jpeg: Uint8Array, turn: number): Promise<number> {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf");
  try {
    const pixmap = doc
      .loadPage(0)
      .toPixmap(mupdf.Matrix.scale(DPI / 72, DPI / 72), mupdf.ColorSpace.DeviceGray, false);
    const page = {
      width: pixmap.getWidth(),
      height: pixmap.getHeight(),
      channels: 1 as const,
      data: pixmap.getPixels().slice(),
    };
    pixmap.destroy();
    const shown = await sharp(jpeg)
      .rotate(-turn)
      .greyscale()
      .resize(page.width, page.height, { fit: "fill" })
      .raw()
      .toBuffer();
    return ssim(page, { ...page, data: new Uint8Array(shown) });
  } finally {
    doc.destroy();
  }
}

/** Wall seconds and CPU seconds (undefined when the processes are not ours to read). */
interface Timed {
  readonly seconds: number;
  readonly cpu: number | undefined;
}

/**
 * Recognises a page through the API of a running stack, or with the engine alone (`--engine`):
 * the PDF, its wall seconds, and the CPU seconds spent on it (the stack's processes, or the
 * engine's own), read outside the timed span.
 */
type Recognise = (jpeg: Uint8Array, code: LanguageCode) => Promise<Timed & { pdf: Uint8Array }>;

/** The value after `--name` on the command line. */
const argument = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
/** Runs of each page, ours and the CLI's alternating which goes first (`--runs N`, default 3). */
const RUNS = Number(argument("--runs")) || 3;
/** `--trace`: each API run's timeline as the client sees it (upload answered, each state, download). */
const TRACE = process.argv.includes("--trace");
/** `--languages en,hi`: only these pages. */
const ONLY = argument("--languages")?.split(",");

async function measure(recognise: Recognise): Promise<string[][]> {
  const rows: string[][] = [];
  for (const [index, code] of (Object.keys(SENTENCES) as LanguageCode[]).entries()) {
    if (ONLY !== undefined && !ONLY.includes(code)) continue;
    const text = Array.from({ length: 5 }, () => SENTENCES[code]).join("\n\n");
    const clean = await scanImage({ markdown: text }, DPI);
    const turn = code === TURNED ? 90 : 0;
    const jpeg = await degrade(clean, index % 2 === 0 ? 1.5 : -1.5, turn);
    const load = loadavg()[0] ?? 0;
    // Both sides read the same page in turn, so the machine's load falls on both alike.
    const ours: (Timed & { pdf: Uint8Array })[] = [];
    const theirs: (Timed & { text: string })[] = [];
    const runOurs = async () => {
      ours.push(await recognise(jpeg, code));
    };
    for (let run = 0; run < RUNS; run++) {
      if (run % 2 === 0) await runOurs();
      theirs.push(cli(jpeg, code));
      if (run % 2 === 1) await runOurs();
    }
    const pdf = ours[0]?.pdf ?? new Uint8Array();
    const seconds = median(ours.map((run) => run.seconds));
    const reference = median(theirs.map((run) => run.seconds));
    const cpu = ours.every((run) => run.cpu !== undefined)
      ? median(ours.map((run) => run.cpu ?? 0))
      : undefined;
    const referenceCpu = median(theirs.map((run) => run.cpu ?? 0));
    rows.push([
      code + (turn ? " (90°)" : ""),
      cer(text, popplerText(pdf)).toFixed(2),
      cer(text, theirs[0]?.text ?? "").toFixed(2),
      `≤ ${GOAL_CER[code]}, ≤ CLI + 0.5`,
      seconds.toFixed(2),
      reference.toFixed(2),
      (seconds / reference).toFixed(2),
      // The first run of a page: no Tesseract of its language was started ahead for it.
      `${(ours[0]?.seconds ?? 0).toFixed(2)} (${((ours[0]?.seconds ?? 0) / reference).toFixed(2)})`,
      (await pageSsim(pdf, jpeg, turn)).toFixed(4),
      cpu === undefined ? "–" : cpu.toFixed(2),
      referenceCpu.toFixed(2),
      cpu === undefined ? "–" : (cpu / referenceCpu).toFixed(2),
      `${load.toFixed(1)}–${(loadavg()[0] ?? 0).toFixed(1)}`,
    ]);
  }
  return rows;
}

/**
 * CPU seconds so far of the processes of the stack this benchmark started (their reaped children,
 * such as each Tesseract run, included; a Tesseract process started ahead and still running counts
 * with the runners), by role; undefined for a stack it did not start.
 */
function stackCpu(): Map<string, number> | undefined {
  const processes = descendants();
  if (processes.length === 0) return undefined;
  const role = (cmdline: string, comm: string) =>
    comm === "workerd"
      ? cmdline.includes("--inspector")
        ? "workerd (Worker)"
        : "workerd (proxy)"
      : cmdline.includes("job-runner.ts") || comm === "tesseract"
        ? "converter runner + tesseract"
        : cmdline.includes("container/src/main.ts")
          ? "converter"
          : "other";
  const times = new Map<string, number>();
  for (const { pid, cmdline, comm } of processes) {
    try {
      const key = role(cmdline, comm);
      times.set(key, (times.get(key) ?? 0) + cpuSeconds(pid));
    } catch {
      // Ended meanwhile.
    }
  }
  return times;
}

const total = (times: Map<string, number>) => [...times.values()].reduce((sum, value) => sum + value, 0);

/**
 * Recognises a page through the API at `url`; with `--trace`, prints the run's timeline as the
 * client saw it and the CPU seconds each of the stack's processes spent on it.
 */
function throughApi(url: string): Recognise {
  const client = new BenchClient(url);
  return async (jpeg, code) => {
    const form = taskForm("file", [{ name: `${code}.jpg`, bytes: jpeg, type: "image/jpeg" }], {
      languages: code,
    });
    const before = stackCpu();
    const started = performance.now();
    const run = await client.run("/api/pdf/ocr", "pdf", form);
    if (run.status.state !== "SUCCESS") throw new Error(`${code}: ${JSON.stringify(run.status.error)}`);
    const fetched = performance.now();
    const download = await fetch(new URL(run.status.result?.download_url ?? "", url));
    const pdf = new Uint8Array(await download.arrayBuffer());
    const seconds = (performance.now() - started) / 1000;
    const downloaded = run.totalMs + performance.now() - fetched;
    const after = stackCpu();
    const spent =
      before === undefined || after === undefined
        ? undefined
        : new Map([...after].map(([key, value]) => [key, value - (before.get(key) ?? 0)]));
    if (TRACE) {
      const ms = (value: number) => `${Math.round(value)}`;
      const states = run.states.map(([state, at]) => `${state} ${ms(at)}`).join(", ");
      const cpu = [...(spent ?? [])].map(([key, value]) => `${key} ${value.toFixed(2)}`).join(", ");
      console.log(
        `trace ${code}: ms from upload start: task created ${ms(run.startMs)}, ${states}, downloaded ${ms(downloaded)}; CPU s: ${cpu}`,
      );
    }
    return { pdf, seconds, cpu: spent === undefined ? undefined : total(spent) };
  };
}

/**
 * `--pages N`: per language (`--languages`, English by default), one scan of N pages (the
 * language's page, skewed ±1.5° in turn) through the API, timed from upload to the downloaded PDF,
 * against its job time limit, and the same pages read by the Tesseract CLI in one run: seconds per
 * page of both, the ratio, CPU, and the character error rate of each document's text.
 */
async function longScan(url: string, pages: number): Promise<void> {
  const client = new BenchClient(url);
  for (const code of ONLY ?? ["en"]) {
    if (!(code in SENTENCES)) throw new Error(`no page in language ${code}`);
    const language = code as LanguageCode;
    const page = Array.from({ length: 5 }, () => SENTENCES[language]).join("\n\n");
    const clean = await scanImage({ markdown: page }, DPI);
    const jpegs = [await degrade(clean, 1.5, 0), await degrade(clean, -1.5, 0)];
    const document = Array.from({ length: pages }, (_, at) => jpegs[at % 2] as Uint8Array);
    const truth = Array.from({ length: pages }, () => page).join("\n\n");
    const pdf = scanPdf(document, DPI);
    const form = taskForm("file", [{ name: "scan.pdf", bytes: pdf, type: "application/pdf" }], {
      languages: language,
    });
    const load = loadavg()[0] ?? 0;
    const reference = tesseractCli(document, language);
    // The page making and the CLI held the event loop: let the client's idle connections (which
    // the runtime may have closed meanwhile) reach their keep-alive end before the upload.
    await new Promise((resolve) => setTimeout(resolve, 2 * CLIENT_KEEP_ALIVE_MS + 100));
    const before = stackCpu();
    const started = performance.now();
    const run = await client.run("/api/pdf/ocr", "pdf", form);
    let text = "";
    if (run.status.state === "SUCCESS") {
      const download = await fetch(new URL(run.status.result?.download_url ?? "", url));
      text = popplerText(new Uint8Array(await download.arrayBuffer()));
    }
    const seconds = (performance.now() - started) / 1000;
    const after = stackCpu();
    const cpu = before === undefined || after === undefined ? undefined : total(after) - total(before);
    const outcome =
      run.status.state === "SUCCESS" ? "SUCCESS" : `FAILED: ${JSON.stringify(run.status.error)}`;
    const perPage = (value: number) => (value / pages).toFixed(2);
    console.log(
      `${pages}-page scan (${(pdf.length / 1e6).toFixed(1)} MB, ${language}): API ${seconds.toFixed(1)} s ` +
        `(${perPage(seconds)} s/page, ${cpu === undefined ? "–" : perPage(cpu)} CPU s/page of the stack, CER ` +
        `${cer(truth, text).toFixed(2)} %), CLI in one run ${reference.seconds.toFixed(1)} s (${perPage(reference.seconds)} ` +
        `s/page, ${perPage(reference.cpu ?? 0)} CPU s/page, CER ${cer(truth, reference.text).toFixed(2)} %), ratio ` +
        `${(seconds / reference.seconds).toFixed(2)} (goal ≤ 1.2); job limit ` +
        `${jobTimeLimitMs(declarationOf("ocr"), pages) / 1000} s at the default base; ${outcome}; load (1 min) ` +
        `${load.toFixed(1)}–${(loadavg()[0] ?? 0).toFixed(1)}`,
    );
  }
}

const engineAlone = process.argv.includes("--engine");
/** `--url URL`: a stack already running (`npm start`, whose converter log shows each job's times). */
const running = argument("--url");
const pages = Number(argument("--pages"));
if (pages > 0) {
  await (running !== undefined
    ? longScan(running, pages)
    : withStack({ raiseLimits: false }, (url) => longScan(url, pages)));
  process.exit(0);
}
const loadBefore = loadavg();
const rows = engineAlone
  ? await measure(async (jpeg, code) => {
      const { default: ocr } = await import("../tools/ocr/container.ts");
      const input = { name: `${code}.jpg`, kind: "jpeg" as const, bytes: jpeg };
      const cpu = cpuSeconds("self");
      const started = performance.now();
      const pdf = (await ocr([input], { languages: code, redo_text: false }, () => {})).bytes;
      const seconds = (performance.now() - started) / 1000;
      return { pdf, seconds, cpu: cpuSeconds("self") - cpu };
    })
  : running !== undefined
    ? await measure(throughApi(running))
    : await withStack({ raiseLimits: false }, (url) => measure(throughApi(url)));
const path = engineAlone ? "engine" : "API";
const loads = (values: readonly number[]) => values.map((value) => value.toFixed(1)).join(" ");
console.log(
  `${RUNS} runs of each page, ours and the CLI's in turn (CLI: tesseract page.jpg out -l X txt pdf, OMP_THREAD_LIMIT=1 as the converter runs it); seconds are medians; a page's first run through the converter finds no Tesseract of its language started ahead (the runs after it do).`,
);
console.log(
  `Load average (1, 5, 15 min) before: ${loads(loadBefore)}; after: ${loads(loadavg())}; ${cpus().length} cores.`,
);
console.log(
  `language | CER % ${path} | CER % CLI | goal | s/page ${path} | s/page CLI | ratio (goal ≤ 1.2) | 1st run s/page ${path} (ratio) | page SSIM (goal ≥ 0.99) | CPU s/page ${path} | CPU s/page CLI | CPU ratio | load (1 min)`,
);
for (const row of rows) console.log(row.join(" | "));

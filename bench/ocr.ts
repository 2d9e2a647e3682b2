/**
 * `npm run bench:ocr`: a page of known text in each site language, typeset in code with the Noto
 * fonts (Markdown to PDF), drawn at 200 dpi and degraded like a phone or office scan (±1.5°
 * rotation, blur, grey noise, JPEG quality 70; the German page also turned 90°), recognised
 * through the API (POST /api/pdf/ocr, text read back with pdftotext) and, in the same run, by the
 * Tesseract CLI on the same JPEG, the two in turn (`--runs N` times each, 3 by default, alternating
 * which goes first) so that the shared machine's load falls on both alike. Prints per language the
 * character error rate (Levenshtein on NFC text, whitespace collapsed) and the median seconds per
 * page of both, and the SSIM of the output page's render against the input image, next to the
 * issue's goals.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mupdf from "mupdf";
import sharp from "sharp";
import type { LanguageCode } from "../contract/index.ts";
import { TESSERACT_MODELS } from "../engines/ocr/tesseract.ts";
import { scanImage } from "../tests/support/scan-pages.ts";
import { popplerText } from "../tests/support/script-text.ts";
import { ssim } from "../tests/support/ssim.ts";
import { BenchClient, median, taskForm, withStack } from "./api-driver.ts";

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

function cli(jpeg: Uint8Array, code: LanguageCode): { text: string; seconds: number } {
  const folder = mkdtempSync(join(tmpdir(), "bench-ocr-"));
  try {
    const file = join(folder, "page.jpg");
    writeFileSync(file, jpeg);
    const started = performance.now();
    const run = spawnSync("tesseract", [file, "-", "-l", TESSERACT_MODELS[code]], {
      encoding: "utf8",
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    });
    return { text: run.stdout, seconds: (performance.now() - started) / 1000 };
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

/** Recognises a page through the API of a running stack, or with the engine alone (`--engine`). */
type Recognise = (jpeg: Uint8Array, code: LanguageCode) => Promise<Uint8Array>;

/** Runs of each page, ours and the CLI's alternating which goes first (`--runs N`, default 3). */
const RUNS = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 3;

async function measure(recognise: Recognise): Promise<string[][]> {
  const rows: string[][] = [];
  for (const [index, code] of (Object.keys(SENTENCES) as LanguageCode[]).entries()) {
    const text = Array.from({ length: 5 }, () => SENTENCES[code]).join("\n\n");
    const clean = await scanImage({ markdown: text }, DPI);
    const turn = code === TURNED ? 90 : 0;
    const jpeg = await degrade(clean, index % 2 === 0 ? 1.5 : -1.5, turn);
    // Both sides read the same page in turn, so the machine's load falls on both alike.
    const ours: { pdf: Uint8Array; seconds: number }[] = [];
    const theirs: { text: string; seconds: number }[] = [];
    const runOurs = async () => {
      const started = performance.now();
      const pdf = await recognise(jpeg, code);
      ours.push({ pdf, seconds: (performance.now() - started) / 1000 });
    };
    for (let run = 0; run < RUNS; run++) {
      if (run % 2 === 0) await runOurs();
      theirs.push(cli(jpeg, code));
      if (run % 2 === 1) await runOurs();
    }
    const pdf = ours[0]?.pdf ?? new Uint8Array();
    const seconds = median(ours.map((run) => run.seconds));
    const reference = median(theirs.map((run) => run.seconds));
    rows.push([
      code + (turn ? " (90°)" : ""),
      cer(text, popplerText(pdf)).toFixed(2),
      cer(text, theirs[0]?.text ?? "").toFixed(2),
      `≤ ${GOAL_CER[code]}, ≤ CLI + 0.5`,
      seconds.toFixed(2),
      reference.toFixed(2),
      (seconds / reference).toFixed(2),
      (await pageSsim(pdf, jpeg, turn)).toFixed(4),
    ]);
  }
  return rows;
}

const engineAlone = process.argv.includes("--engine");
const rows = engineAlone
  ? await measure(async (jpeg, code) => {
      const { default: ocr } = await import("../tools/ocr/container.ts");
      const input = { name: `${code}.jpg`, kind: "jpeg" as const, bytes: jpeg };
      return (await ocr([input], { languages: code, redo_text: false }, () => {})).bytes;
    })
  : await withStack({ raiseLimits: false }, (url) => {
      const client = new BenchClient(url);
      return measure(async (jpeg, code) => {
        const form = taskForm("file", [{ name: `${code}.jpg`, bytes: jpeg, type: "image/jpeg" }], {
          languages: code,
        });
        const run = await client.run("/api/pdf/ocr", "pdf", form);
        if (run.status.state !== "SUCCESS") throw new Error(`${code}: ${JSON.stringify(run.status.error)}`);
        const download = await fetch(new URL(run.status.result?.download_url ?? "", url));
        return new Uint8Array(await download.arrayBuffer());
      });
    });
const path = engineAlone ? "engine" : "API";
console.log(`${RUNS} runs of each page, ours and the CLI's in turn; seconds are medians.`);
console.log(
  `language | CER % ${path} | CER % CLI | goal | s/page ${path} | s/page CLI | ratio (goal ≤ 1.2) | page SSIM (goal ≥ 0.99)`,
);
for (const row of rows) console.log(row.join(" | "));

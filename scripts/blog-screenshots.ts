/**
 * Screenshots of our own tools for the blog posts, taken with Chromium against a running site (it
 * starts nothing itself: run `npm start` first). Sample files are built here in code; each shot is
 * saved as WebP in content/blog/images/ (at most 120 KB, checked).
 *
 *   node scripts/blog-screenshots.ts http://127.0.0.1:8787 [shot names…] [--video]
 *
 * It also writes the attachments made from the same samples: files/sample-bank-statement.pdf and,
 * with --video, files/merge-pdf-walkthrough.webm (the merge flow recorded in the page).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as mupdf from "mupdf";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { launchChromium } from "../tests/e2e/browser.ts";
import compressImage from "../tools/compress-image/tool.ts";
import compressPdf from "../tools/compress-pdf/tool.ts";
import markdownToPdf from "../tools/markdown-to-pdf/tool.ts";
import mergePdf from "../tools/merge-pdf/tool.ts";
import pdfToExcel from "../tools/pdf-to-excel/tool.ts";
import pdfToWord from "../tools/pdf-to-word/tool.ts";
import splitPdf from "../tools/split-pdf/tool.ts";

const OUT_DIR = resolve(import.meta.dirname, "../content/blog/images");
const MAX_BYTES = 120 * 1024;
const base = process.argv[2]?.replace(/\/+$/, "");
if (!base) throw new Error("usage: node scripts/blog-screenshots.ts <site base URL>");

/** A PDF typeset by MuPDF from HTML (a few pages of realistic content). */
function htmlPdf(html: string): Buffer {
  const document = mupdf.Document.openDocument(Buffer.from(html), "text/html");
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, "pdf", "");
  const count = document.countPages();
  for (let index = 0; index < count; index++) {
    const page = document.loadPage(index);
    const device = writer.beginPage(page.getBounds());
    page.run(device, mupdf.Matrix.identity);
    writer.endPage();
  }
  writer.close();
  return Buffer.from(buffer.asUint8Array());
}

function statementPdf(): Buffer {
  const rows = Array.from({ length: 28 }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, "0");
    const amount = ((i * 37.45) % 900) + 12.5;
    const credit = i % 5 === 0;
    return `<tr><td>${day}/10/2026</td><td>${credit ? "Salary credit" : `Card payment ${1000 + i}`}</td><td>${credit ? "" : amount.toFixed(2)}</td><td>${credit ? "2,450.00" : ""}</td><td>${(5200 - i * 41.3).toFixed(2)}</td></tr>`;
  }).join("");
  return htmlPdf(`<html><body style="font-family:sans-serif;font-size:10pt">
    <h2>Current account statement</h2><p>Account 1234 5678 · 1 October to 31 October 2026</p>
    <table style="width:100%"><tr><th>Date</th><th>Description</th><th>Debit</th><th>Credit</th><th>Balance</th></tr>${rows}</table>
    </body></html>`);
}

function reportPdf(title: string, pages: number): Buffer {
  const sections = Array.from(
    { length: pages },
    (_, i) =>
      `<h1 style="page-break-before:${i ? "always" : "auto"}">${title}: part ${i + 1}</h1>` +
      "<p>Quarterly figures, notes and a summary of the decisions taken at the review meeting.</p>".repeat(8),
  ).join("");
  return htmlPdf(`<html><body style="font-family:serif;font-size:12pt">${sections}</body></html>`);
}

/** A smooth colour photo-like picture (gradients and soft shapes), 1600 × 1000. */
function photoPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
    <defs><linearGradient id="sky" x2="0" y2="1"><stop offset="0" stop-color="#5b8fd6"/><stop offset="1" stop-color="#f3c89a"/></linearGradient></defs>
    <rect width="1600" height="1000" fill="url(#sky)"/><circle cx="1200" cy="300" r="120" fill="#fff4c2"/>
    <path d="M0 700 Q400 520 800 690 T1600 640 V1000 H0Z" fill="#2f6b4f"/><path d="M0 820 Q500 700 1000 830 T1600 800 V1000 H0Z" fill="#1f4a37"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function allThumbnailsDrawn(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('[data-state="drawn"]').length >= n, count, {
    timeout: 30_000,
  });
}

const pdf = (name: string, buffer: Buffer) => ({ name, mimeType: "application/pdf", buffer });

async function choose(page: Page, tool: string, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.goto(`${base}/en/tools/${tool}`);
  await page.getByTestId("file-input").setInputFiles(files);
}

/** Each shot: what to do on a fresh page, then the element to capture. */
const SHOTS: Record<string, (page: Page) => Promise<string>> = {
  "compress-pdf-levels": async (page) => {
    await choose(page, compressPdf.id, [pdf("annual-report.pdf", reportPdf("Annual report", 3))]);
    await page.getByRole("radio").first().waitFor();
    return "main";
  },
  "compress-pdf-result": async (page) => {
    await choose(page, compressPdf.id, [pdf("annual-report.pdf", reportPdf("Annual report", 3))]);
    await page.getByRole("button", { name: "Compress PDF", exact: true }).click();
    await page.getByRole("button", { name: "Delete now" }).waitFor({ timeout: 60_000 });
    return "main";
  },
  "merge-pdf-order": async (page) => {
    await choose(page, mergePdf.id, [
      pdf("cover-letter.pdf", reportPdf("Cover letter", 1)),
      pdf("invoice-october.pdf", reportPdf("Invoice", 2)),
      pdf("receipts.pdf", reportPdf("Receipts", 3)),
    ]);
    await page.getByText("receipts.pdf").first().waitFor();
    await page.waitForTimeout(5000);
    return "main";
  },
  "split-pdf-ranges": async (page) => {
    await choose(page, splitPdf.id, [pdf("contract.pdf", reportPdf("Contract", 6))]);
    await page.getByTestId("page-ranges").fill("1-2,5");
    await page
      .locator('[data-testid="page-thumbnail"][data-state="drawn"]')
      .first()
      .waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1500);
    return "main";
  },
  "pdf-to-excel-statement": async (page) => {
    await choose(page, pdfToExcel.id, [pdf("statement-october.pdf", statementPdf())]);
    await page.getByRole("button", { name: "Convert to Excel" }).waitFor();
    await allThumbnailsDrawn(page, 1);
    await page.waitForTimeout(2500);
    return "main";
  },
  "pdf-to-word-options": async (page) => {
    await choose(page, pdfToWord.id, [pdf("proposal.pdf", reportPdf("Proposal", 2))]);
    await page.getByRole("button", { name: "Convert to Word" }).waitFor();
    return "main";
  },
  "compress-image-quality": async (page) => {
    await choose(page, compressImage.id, [
      { name: "holiday-photo.png", mimeType: "image/png", buffer: await photoPng() },
    ]);
    await page.getByRole("button", { name: "Compress", exact: true }).waitFor();
    await page.waitForTimeout(1500);
    return "main";
  },
  "markdown-to-pdf-telugu": async (page) => {
    const markdown = "# నా గమనికలు\n\n- హిందీ: नमस्ते\n- తమిళం: வணக்கம்\n";
    await choose(page, markdownToPdf.id, [
      { name: "notes-te.md", mimeType: "text/markdown", buffer: Buffer.from(markdown) },
    ]);
    await page.getByRole("button", { name: "Convert to PDF" }).waitFor();
    return "main";
  },
};

/**
 * A short screen recording (WebM, VP8) made in the page itself: the frames drawn one after the
 * other on a canvas and recorded with MediaRecorder (no video tool needed on the machine).
 */
async function recordFrames(page: Page, frames: Buffer[], msEach: number): Promise<Buffer> {
  await page.goto("about:blank");
  const sources = frames.map((frame) => `data:image/png;base64,${frame.toString("base64")}`);
  const base64 = await page.evaluate(
    async ({ sources, msEach }) => {
      const images = await Promise.all(
        sources.map(
          (src) =>
            new Promise<HTMLImageElement>((done, fail) => {
              const image = new Image();
              image.onload = () => done(image);
              image.onerror = fail;
              image.src = src;
            }),
        ),
      );
      const canvas = document.createElement("canvas");
      canvas.width = images[0]?.width ?? 1280;
      canvas.height = images[0]?.height ?? 720;
      document.body.append(canvas);
      const context = canvas.getContext("2d");
      if (context === null) throw new Error("no 2D canvas");
      const recorder = new MediaRecorder(canvas.captureStream(10), {
        mimeType: "video/webm;codecs=vp8",
        videoBitsPerSecond: 300_000,
      });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const stopped = new Promise((done) => {
        recorder.onstop = done;
      });
      recorder.start();
      for (const image of images) {
        const end = performance.now() + msEach;
        while (performance.now() < end) {
          context.drawImage(image, 0, 0);
          await new Promise((done) => setTimeout(done, 100));
        }
      }
      recorder.stop();
      await stopped;
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let binary = "";
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    },
    { sources, msEach },
  );
  return Buffer.from(base64, "base64");
}

/** The merge flow as a video: files chosen, order reversed, merged. */
async function mergeVideo(page: Page): Promise<Buffer> {
  await choose(page, mergePdf.id, [
    pdf("cover-letter.pdf", reportPdf("Cover letter", 1)),
    pdf("invoice-october.pdf", reportPdf("Invoice", 2)),
    pdf("receipts.pdf", reportPdf("Receipts", 3)),
  ]);
  await page.getByText("receipts.pdf").first().waitFor();
  await page.waitForTimeout(4000);
  const frames = [await page.screenshot()];
  await page.getByRole("button", { name: "Reverse order" }).click();
  await page.waitForTimeout(800);
  frames.push(await page.screenshot());
  await page.getByRole("button", { name: "Merge PDFs" }).click();
  await page.getByRole("button", { name: "Delete now" }).waitFor({ timeout: 60_000 });
  frames.push(await page.screenshot());
  return recordFrames(page, frames, 3000);
}

const browser = await launchChromium();
try {
  const files = join(OUT_DIR, "../files");
  mkdirSync(files, { recursive: true });
  writeFileSync(join(files, "sample-bank-statement.pdf"), statementPdf());
  if (process.argv.includes("--video")) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const video = await mergeVideo(await context.newPage());
    writeFileSync(join(files, "merge-pdf-walkthrough.webm"), video);
    console.log(`merge-pdf-walkthrough.webm  ${(video.length / 1024).toFixed(1)} KB`);
    await context.close();
  }
  const only = process.argv.slice(3).filter((arg) => !arg.startsWith("--"));
  for (const [name, shoot] of Object.entries(SHOTS)) {
    if (only.length > 0 && !only.includes(name)) continue;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const selector = await shoot(page);
    const png = await page.locator(selector).screenshot();
    const webp = await sharp(png)
      .resize({ width: 1200, withoutEnlargement: true })
      .webp({ quality: 72, effort: 6 })
      .toBuffer();
    if (webp.length > MAX_BYTES) throw new Error(`${name}: ${webp.length} bytes, more than ${MAX_BYTES}`);
    writeFileSync(join(OUT_DIR, `${name}.webp`), webp);
    console.log(`${name}.webp  ${(webp.length / 1024).toFixed(1)} KB`);
    await context.close();
  }
} finally {
  await browser.close();
}

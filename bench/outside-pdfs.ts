/**
 * `npm run bench:outside-pdfs`: PDFs of kinds neither corpus holds much of, made on this machine in
 * code, then every PDF tool on each through the API of the real stack, judged as bench/sweep.ts
 * judges the wide corpus (the same jobs, references and checks), plus checks of quality where a
 * user would look: the cells of an invoice's table in PDF to Excel, the order of RTL and Indic text
 * in PDF to Word, compress-pdf's size beside Ghostscript's /ebook, and the links, outline and form
 * fields merge, split and organize keep.
 *
 * The files: documents Chromium prints to PDF (an invoice and a report with tables, several
 * columns, headings and lists, text in the site's seven languages and in Arabic, Hebrew, CJK, Thai and
 * emoji, links, an image); PostScript distilled by Ghostscript (PDF 1.3 and 1.7, PDF/A-2); qpdf's
 * transformations of them (linearized, object streams, QDF, and encrypted with RC4 40 and 128 bits,
 * AES-128 and AES-256, with an empty user password and only an owner password, and one that needs a
 * password); and page trees written byte by byte (a /Rotate inherited from the tree, offset and
 * rotated crop boxes, UserUnit, pages of 14,400 and of 3 points, pages without /Contents or
 * /Resources, an incremental update that replaces a page) and with MuPDF (filled form fields,
 * annotations, an outline, links; 40 pages).
 *
 *   npm run bench:outside-pdfs -- [--tool id[,id…]] [--match REGEX] [--keep DIR] [--concurrency C]
 *                                 [--timeout S] [--out results.jsonl]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { TOOLS } from "../contract/index.ts";
import { save, textPdfDocument } from "../tests/container/fixtures.ts";
import { launchChromium } from "../tests/e2e/browser.ts";
import { gradientPng } from "./api-driver.ts";
import {
  annotatedPdf,
  barePagesPdf,
  boxesPdf,
  filledFormPdf,
  incrementalUpdatePdf,
  inheritedRotatePdf,
} from "./outside-page-trees.ts";
import {
  compressQuality,
  excelQuality,
  interactiveQuality,
  numbersQuality,
  printCompressSizes,
  signQuality,
  watermarkQuality,
  wordQuality,
} from "./outside-quality.ts";
import { entriesOf, printTable, runSweep, SWEEP_FIRST_NUMBER, type SweepJob, sweepJobs } from "./sweep.ts";

const ROOT = resolve(import.meta.dirname, "..");
const fontCss = (name: string) => pathToFileURL(join(ROOT, "node_modules", name, "index.css")).href;

// ---------------------------------------------------------------------------------------------
// Chromium: HTML documents printed to PDF.

const STYLE = `
  body { font-family: 'Noto Sans', 'DejaVu Sans', sans-serif; font-size: 11pt; margin: 0; }
  h1 { font-size: 20pt; } h2 { font-size: 14pt; }
  table { border-collapse: collapse; width: 100%; }
  th, td { border: 1px solid #888; padding: 4px 6px; }
  td.n { text-align: right; }
  .cols { column-count: 2; column-gap: 24pt; }
  .hi { font-family: 'Noto Sans Devanagari'; } .te { font-family: 'Noto Sans Telugu Variable'; }
  .ta { font-family: 'Noto Sans Tamil'; } .emoji { font-family: 'Noto Emoji'; }
  .rtl { font-family: 'DejaVu Sans'; }`;

const FONTS = [
  "@fontsource/noto-sans",
  "@fontsource/noto-sans-devanagari",
  "@fontsource/noto-sans-tamil",
  "@fontsource-variable/noto-sans-telugu",
  "@fontsource/noto-emoji",
]
  .map((name) => `<link rel="stylesheet" href="${fontCss(name)}">`)
  .join("");

const html = (title: string, body: string, lang = "en") =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title>${FONTS}<style>${STYLE}</style></head><body>${body}</body></html>`;

/** The invoice's line items: description, quantity, unit price (the amount is their product). */
export const INVOICE_ITEMS: readonly (readonly [string, number, number])[] = [
  ["Consulting hours", 12, 95.5],
  ["Server rental (March)", 1, 240],
  ["Domain renewal", 3, 14.99],
  ["Support contract", 1, 1200],
  ["Training session", 2, 450],
  ["Travel expenses", 1, 312.4],
  ["Licence: office suite", 15, 8.25],
  ["Hardware: keyboard", 4, 39.9],
];

function invoiceHtml(image: string): string {
  const rows = INVOICE_ITEMS.map(
    ([item, quantity, price]) =>
      `<tr><td>${item}</td><td class="n">${quantity}</td><td class="n">${price.toFixed(2)}</td><td class="n">${(quantity * price).toFixed(2)}</td></tr>`,
  ).join("");
  const total = INVOICE_ITEMS.reduce((sum, [, q, p]) => sum + q * p, 0);
  return html(
    "Invoice 2026-0412",
    `<img src="${image}" width="120" height="40" alt="logo">
     <h1>Invoice 2026-0412</h1>
     <p>Billed to: Example Ltd, 12 Market Street, Springfield. Pay at
       <a href="https://example.com/pay/2026-0412">example.com/pay</a>.</p>
     <table><thead><tr><th>Item</th><th>Quantity</th><th>Unit price</th><th>Amount</th></tr></thead>
       <tbody>${rows}</tbody>
       <tfoot><tr><td colspan="3">Total</td><td class="n">${total.toFixed(2)}</td></tr></tfoot></table>
     <h2>Terms</h2><ol><li>Payment within 30 days.</li><li>Late payments bear 2% interest a month.</li></ol>`,
  );
}

const LOREM =
  "Quarterly revenue grew in every region, led by the northern stores, while costs stayed flat thanks to the new supplier contracts signed in January.";

function reportHtml(): string {
  const section = (n: number) =>
    `<h2 id="s${n}">Section ${n}: Results of region ${n}</h2><div class="cols">${Array.from({ length: 6 }, (_, i) => `<p>${n}.${i + 1} ${LOREM}</p>`).join("")}</div>
     <ul><li>Stores opened: ${n * 3}</li><li>Stores closed: ${n}</li></ul>
     <table><tr><th>Region</th><th>Q1</th><th>Q2</th><th>Q3</th></tr>${Array.from({ length: 5 }, (_, r) => `<tr><td>R${n}-${r + 1}</td><td class="n">${(n * 100 + r * 7).toLocaleString("en")}</td><td class="n">${n * 110 + r}</td><td class="n">${n * 120 - r}</td></tr>`).join("")}</table>`;
  return html(
    "Annual report",
    `<h1>Annual report 2026</h1><ol>${Array.from({ length: 8 }, (_, i) => `<li><a href="#s${i + 1}">Region ${i + 1}</a></li>`).join("")}</ol>${Array.from({ length: 8 }, (_, i) => section(i + 1)).join("")}`,
  );
}

/** Sentences of each language, as a user would write them. */
export const LANGUAGE_LINES: readonly (readonly [lang: string, className: string, text: string])[] = [
  ["en", "", "The meeting starts at nine in the main hall."],
  ["es", "", "La reunión empieza a las nueve en el salón principal; ¿vendrás mañana?"],
  ["de", "", "Die Besprechung beginnt um neun Uhr im großen Saal – Grüße aus Köln."],
  ["fr", "", "La réunion commence à neuf heures dans la grande salle, près de l'entrée."],
  ["hi", "hi", "बैठक मुख्य सभागार में नौ बजे शुरू होगी।"],
  ["te", "te", "సమావేశం ప్రధాన హాలులో తొమ్మిది గంటలకు ప్రారంభమవుతుంది."],
  ["ta", "ta", "கூட்டம் பிரதான மண்டபத்தில் ஒன்பது மணிக்கு தொடங்கும்."],
  ["ar", "rtl", "يبدأ الاجتماع في الساعة التاسعة في القاعة الرئيسية."],
  ["he", "rtl", "הפגישה מתחילה בשעה תשע באולם הראשי."],
  ["zh", "", "会议将于九点在大厅开始。"],
  ["ja", "", "会議は九時に大ホールで始まります。"],
  ["th", "", "การประชุมจะเริ่มเวลาเก้าโมงที่ห้องโถงใหญ่"],
  ["emoji", "emoji", "Status: ✅ done 🎉 📄 ➡️ 🚀"],
];

function languagesHtml(): string {
  const lines = LANGUAGE_LINES.map(
    ([lang, cls, text]) =>
      `<p lang="${lang}" class="${cls}" dir="${cls === "rtl" ? "rtl" : "auto"}">${text}</p>`,
  ).join("");
  const table = `<table><tr><th>Language</th><th>Greeting</th></tr>${LANGUAGE_LINES.map(([lang, cls, text]) => `<tr><td>${lang}</td><td class="${cls}" dir="${cls === "rtl" ? "rtl" : "auto"}">${text.split(" ").slice(0, 3).join(" ")}</td></tr>`).join("")}</table>`;
  return html("Languages", `<h1>Seven languages and more</h1>${lines}<h2>Table</h2>${table}`);
}

function formHtml(): string {
  return html(
    "Application form",
    `<h1>Application</h1><form><p>Name: <input value="Ada Lovelace"></p><p><label><input type="checkbox" checked> I agree</label></p>
     <p>Country: <select><option>France</option><option selected>India</option></select></p>
     <p><textarea rows="3" cols="40">Notes about the application.</textarea></p></form>
     <p>Landscape page with a wide table:</p><table><tr>${Array.from({ length: 14 }, (_, i) => `<th>C${i + 1}</th>`).join("")}</tr>${Array.from({ length: 10 }, (_, r) => `<tr>${Array.from({ length: 14 }, (_, c) => `<td class="n">${r * 14 + c}</td>`).join("")}</tr>`).join("")}</table>`,
  );
}

async function chromiumPdfs(dir: string): Promise<string[]> {
  const logo = `data:image/png;base64,${Buffer.from(await gradientPng(240, 80)).toString("base64")}`;
  const browser = await launchChromium();
  const made: string[] = [];
  try {
    const page = await browser.newPage();
    const print = async (name: string, content: string, options: Parameters<typeof page.pdf>[0] = {}) => {
      const htmlFile = join(dir, `${name}.html`);
      writeFileSync(htmlFile, content);
      await page.goto(pathToFileURL(htmlFile).href, { waitUntil: "load" });
      await page.evaluate(() => document.fonts.ready);
      const file = join(dir, `${name}.pdf`);
      await page.pdf({
        path: file,
        format: "A4",
        printBackground: true,
        tagged: true,
        outline: true,
        ...options,
      });
      rmSync(htmlFile);
      made.push(file);
    };
    await print("chromium-invoice", invoiceHtml(logo));
    // With the browser's own header (date, title) and footer (address, "page / pages").
    await print("chromium-report", reportHtml(), {
      format: "Letter",
      margin: { top: "2cm", bottom: "2cm" },
      displayHeaderFooter: true,
    });
    await print("chromium-languages", languagesHtml());
    await print("chromium-form-landscape", formHtml(), { landscape: true, tagged: false, outline: false });
  } finally {
    await browser.close();
  }
  return made;
}

// ---------------------------------------------------------------------------------------------
// Ghostscript: PostScript written here, and Chromium's invoice distilled again.

const POSTSCRIPT = `%!PS-Adobe-3.0
%%Pages: 2
/Helvetica findfont 18 scalefont setfont
72 720 moveto (PostScript page one: Grusse aus Koeln) show
0.2 0.4 0.8 setrgbcolor 72 500 200 120 rectfill
0 setgray 72 460 moveto (A filled rectangle above) show
/Times-Roman findfont 12 scalefont setfont
72 400 moveto (Line of Times text, and an accented word: ) show (caf\\351) show
showpage
/Courier findfont 14 scalefont setfont
72 720 moveto (PostScript page two) show
newpath 300 400 100 0 360 arc 0.9 0.1 0.1 setrgbcolor fill
showpage
`;

function gs(args: readonly string[]): void {
  execFileSync("gs", ["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
}

/** A manual page in groff's man macros with a tbl table and a list, as UNIX documentation is set. */
const GROFF_PAGE = `.TH REPORT 1 "November 2026" "Tools 1.0" "User Commands"
.SH NAME
report \\- print the quarterly figures
.SH SYNOPSIS
.B report
[\\fB\\-q\\fR \\fIquarter\\fR] [\\fIregion\\fR...]
.SH DESCRIPTION
Sales rose in every region; the table gives the figures.
.TS
center box tab(;);
l | n | n.
Region;Q1;Q2
_
North;1200;1350
South;980;1010
.TE
.SH OPTIONS
.TP
.B \\-q
Only the given quarter.
.IP \\(bu 3
Renew the supplier contracts.
.IP \\(bu 3
Open two stores.
`;

function ghostscriptPdfs(dir: string, invoice: string): string[] {
  const ps = join(dir, "doc.ps");
  writeFileSync(ps, POSTSCRIPT, "latin1");
  const manual = join(dir, "manual.ps");
  writeFileSync(manual, execFileSync("groff", ["-man", "-t", "-Tps"], { input: GROFF_PAGE }));
  const made = [
    ["gs-ps-1.3", ["-dCompatibilityLevel=1.3", ps]],
    ["gs-ps-1.7", ["-dCompatibilityLevel=1.7", ps]],
    [
      "gs-invoice-pdfa2",
      ["-dPDFA=2", "-dPDFACompatibilityPolicy=1", "-sColorConversionStrategy=RGB", invoice],
    ],
    ["gs-invoice-ebook", ["-dPDFSETTINGS=/ebook", invoice]],
    ["groff-man-page", [manual]],
  ].map(([name, args]) => {
    const file = join(dir, `${name}.pdf`);
    gs([`-sOutputFile=${file}`, ...(args as string[])]);
    return file;
  });
  rmSync(ps);
  rmSync(manual);
  return made;
}

// ---------------------------------------------------------------------------------------------
// qpdf: transformations and encryption.

/** Owner password of the files any viewer opens without asking (empty user password). */
const OWNER = "owner-only";

function qpdfPdfs(dir: string, source: string, report: string): string[] {
  const variants: [string, string, string[]][] = [
    ["qpdf-report-linearized", report, ["--linearize"]],
    ["qpdf-report-object-streams", report, ["--object-streams=generate"]],
    ["qpdf-invoice-qdf", source, ["--qdf", "--object-streams=disable"]],
    [
      "qpdf-invoice-rc4-40-owner-only",
      source,
      ["--allow-weak-crypto", "--encrypt", "", OWNER, "40", "--print=n", "--modify=n", "--"],
    ],
    [
      "qpdf-invoice-rc4-128-owner-only",
      source,
      ["--allow-weak-crypto", "--encrypt", "", OWNER, "128", "--use-aes=n", "--extract=n", "--"],
    ],
    [
      "qpdf-invoice-aes-128-owner-only",
      source,
      ["--encrypt", "", OWNER, "128", "--use-aes=y", "--modify=none", "--"],
    ],
    [
      "qpdf-report-aes-256-owner-only",
      report,
      ["--encrypt", "", OWNER, "256", "--print=none", "--extract=n", "--"],
    ],
    [
      "qpdf-invoice-aes-256-owner-only-linearized",
      source,
      ["--linearize", "--encrypt", "", OWNER, "256", "--"],
    ],
    ["qpdf-invoice-aes-256-user-password", source, ["--encrypt", "user-secret", OWNER, "256", "--"]],
  ];
  return variants.map(([name, input, args]) => {
    const file = join(dir, `${name}.pdf`);
    execFileSync("qpdf", [...args, input, file], { stdio: ["ignore", "ignore", "pipe"] });
    return file;
  });
}

// ---------------------------------------------------------------------------------------------

/** The header row of the invoice's table. */
const INVOICE_HEADERS = ["Item", "Quantity", "Unit price", "Amount"];

/** The quality check of `job`'s tool on its file, beside the sweep's own check; undefined for none. */
function qualityCheck(job: SweepJob): ((output: Uint8Array) => Promise<string | null>) | undefined {
  const name = job.file.split("/").at(-1) ?? "";
  switch (job.tool) {
    case "compress-pdf":
      return (output) => compressQuality(job.file, output);
    case "pdf-to-excel":
      return name.includes("invoice")
        ? (output) => excelQuality(job.file, output, INVOICE_ITEMS, INVOICE_HEADERS)
        : undefined;
    case "pdf-to-word":
      return name.includes("languages")
        ? (output) =>
            wordQuality(
              job.file,
              output,
              LANGUAGE_LINES.map(([, , text]) => text),
            )
        : undefined;
    case "merge-pdf":
    case "organize-pdf":
    case "split-pdf": {
      const tool = job.tool;
      return async (output) =>
        interactiveQuality(tool, job.file, tool === "split-pdf" ? entriesOf(output) : [output]);
    }
    case "page-numbers":
      return async (output) => numbersQuality(output, pageCount(job.file), SWEEP_FIRST_NUMBER);
    case "sign":
      return async (output) => signQuality(new Uint8Array(readFileSync(job.file)), output);
    case "watermark":
      return async (output) => watermarkQuality(new Uint8Array(readFileSync(job.file)), output);
    default:
      return undefined;
  }
}

/** The page count qpdf reads (the file opens, or its job would have failed before the check). */
const pageCount = (file: string) =>
  Number(execFileSync("qpdf", ["--show-npages", file], { encoding: "utf8" }).trim());

/** `job` with its quality check run after the sweep's own check passes. */
function withQuality(job: SweepJob): SweepJob {
  const quality = qualityCheck(job);
  if (quality === undefined) return job;
  return { ...job, check: async (output) => (await job.check(output)) ?? quality(output) };
}

export async function makeOutsidePdfs(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const chromium = await chromiumPdfs(dir);
  const [invoice, report] = chromium as [string, string];
  const written: [string, Uint8Array][] = [
    ["raw-inherited-rotate", inheritedRotatePdf()],
    ["raw-boxes-userunit", boxesPdf()],
    ["raw-bare-pages", barePagesPdf()],
    ["raw-incremental-update", incrementalUpdatePdf()],
    ["raw-filled-form", filledFormPdf()],
    ["mupdf-annotated-40-pages", annotatedPdf()],
    // PDF to Word's and PDF to Excel's limit.
    ["mupdf-text-2000-pages", save(textPdfDocument("Long", TOOLS["pdf-to-word"].input.maxPages ?? 2000))],
  ];
  const raw = written.map(([name, bytes]) => {
    const file = join(dir, `${name}.pdf`);
    writeFileSync(file, bytes);
    return file;
  });
  return [...chromium, ...ghostscriptPdfs(dir, invoice), ...qpdfPdfs(dir, invoice, report), ...raw];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tool: { type: "string" },
      match: { type: "string" },
      keep: { type: "string" },
      concurrency: { type: "string", default: "2" },
      /** Seconds per job: the 2,000-page file takes minutes in PDF to JPG on a busy machine. */
      timeout: { type: "string", default: "600" },
      out: { type: "string" },
      /** Only writes the files (into --keep DIR). */
      "make-only": { type: "boolean", default: false },
    },
  });
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), "outside-pdfs-"));
  const files = (await makeOutsidePdfs(dir)).filter(
    (file) => values.match === undefined || new RegExp(values.match).test(file),
  );
  console.log(`${files.length} PDFs in ${dir}`);
  if (values["make-only"]) return;
  const wanted = values.tool?.split(",").map((t) => t.trim());
  const { jobs, pdfs, images } = await sweepJobs(files, []);
  const chosen = jobs.filter((job) => wanted === undefined || wanted.includes(job.tool)).map(withQuality);
  console.log(
    `${chosen.length} jobs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const results = await runSweep(
    chosen,
    { pdfs, images },
    {
      concurrency: Number(values.concurrency),
      timeoutMs: Number(values.timeout) * 1000,
      out: values.out,
    },
  );
  printTable(results);
  printCompressSizes();
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  if (values.keep === undefined) rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] === import.meta.filename) await main();

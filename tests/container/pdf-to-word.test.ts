import mammoth from "mammoth";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import type { Run } from "../../engines/pdf/docx/model.ts";
import { joinLine } from "../../engines/pdf/docx/paragraphs.ts";
import { pdfToWord } from "../../engines/pdf/pdf-to-word.ts";
import { unreadableText } from "../../engines/pdf/unreadable-text.ts";
import { docxParts, listLabels, pageNumbering, paragraphsOf, tablesOf, textOf } from "../support/docx.ts";
import { COMMENT, FIELD_VALUE, formOnlyPdf } from "../support/form-only-pdf.ts";
import { scanImage, scanPdf } from "../support/scan-pages.ts";
import { wordF1, wordsOf } from "../support/script-text.ts";
import { engineFailure } from "./engine-failure.ts";
import {
  encryptedPdf,
  heavyPdf,
  irreparablePdf,
  pdfInput,
  repairablePdf,
  textPdf,
  UNREADABLE_LINES,
  unreadableTextPdf,
} from "./fixtures.ts";
import {
  astralTextPdf,
  COLUMN_RULED_ROWS,
  columnRuledTablesPdf,
  drawnPdf,
  type GlyphText,
  hiddenTextPdfs,
  htmlPdf,
  textAt,
} from "./rich-pdf.ts";

async function convert(bytes: Uint8Array) {
  const progress: number[] = [];
  const output = await pdfToWord([pdfInput("report.pdf", bytes)], {}, (percent) => progress.push(percent));
  const parts = docxParts(output.bytes);
  return { ...output, parts, paragraphs: paragraphsOf(parts.document), progress };
}

const helvetica = new mupdf.Font("Helvetica");

/** Width of `text` in 11-point Helvetica. */
function width(text: string, size = 11): number {
  return (
    [...text].reduce((sum, char) => sum + helvetica.advanceGlyph(helvetica.encodeCharacter(char)), 0) * size
  );
}

describe("PDF to Word", () => {
  it("keeps emoji and CJK Extension B characters (outside the BMP)", async () => {
    const { paragraphs } = await convert(astralTextPdf());
    expect(paragraphs.map((paragraph) => paragraph.text)).toContain("Party: \u{1F389}\u{20041}");
  });

  it("keeps headings as Heading styles, run styles, lists and a ruled table", async () => {
    const pdf = htmlPdf(`<html><body>
      <h1>Annual Report</h1>
      <p>This is a <b>bold</b> word, an <i>italic</i> one and an <u>underlined</u> one in a paragraph
      long enough to wrap over more than one line of the page, so that its lines must be joined
      back into a single paragraph of the document.</p>
      <h2>Results</h2>
      <p style="color:#cc0000">Revenue grew in every region.</p>
      <ul><li>First point</li><li>Second point</li></ul>
      <ol><li>Step one</li><li>Step two</li><li>Step three</li></ol>
      <table style="border-collapse:collapse">
        <tr><td style="border:1px solid black;padding:4px">Region</td><td style="border:1px solid black;padding:4px">Sales</td></tr>
        <tr><td style="border:1px solid black;padding:4px">North</td><td style="border:1px solid black;padding:4px">120</td></tr>
        <tr><td style="border:1px solid black;padding:4px">South</td><td style="border:1px solid black;padding:4px">95</td></tr>
      </table></body></html>`);
    const { paragraphs, parts, facts, bytes, progress } = await convert(pdf);
    const byText = (start: string) => paragraphs.find((p) => p.text.startsWith(start));
    expect(byText("Annual Report")?.style).toBe("Heading1");
    expect(byText("Results")?.style).toBe("Heading2");
    const body = byText("This is a");
    expect(body?.style).toBeNull();
    expect(body?.text).toBe(
      "This is a bold word, an italic one and an underlined one in a paragraph long enough to wrap over " +
        "more than one line of the page, so that its lines must be joined back into a single paragraph of the document.",
    );
    expect(body?.runs.find((run) => run.text.trim() === "bold")?.bold).toBe(true);
    expect(body?.runs.find((run) => run.text.trim() === "italic")?.italic).toBe(true);
    expect(body?.runs.find((run) => run.text.trim() === "underlined")?.underline).toBe(true);
    expect(body?.runs.find((run) => run.text.includes("paragraph"))?.bold).toBe(false);
    expect(byText("Revenue")?.runs[0]?.color).toBe("CC0000");
    const items = paragraphs.filter((p) => p.numbered).map((p) => p.text);
    expect(items).toEqual(["First point", "Second point", "Step one", "Step two", "Step three"]);
    expect(tablesOf(parts.document)).toEqual([
      [
        ["Region", "Sales"],
        ["North", "120"],
        ["South", "95"],
      ],
    ]);
    expect(facts).toMatchObject({ pages: 1, headings: 2, tables: 1, list_items: 5 });
    expect(progress.at(-1)).toBe(100);
    // A second, independent reader opens it and reads the same text.
    const raw = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    expect(raw.value).toContain("Revenue grew in every region.");
    expect(raw.messages.filter((message) => message.type === "error")).toEqual([]);
  });

  it("reads a two-column page column by column and joins each column's lines", async () => {
    const left = [
      "Left column line one of the",
      "first paragraph, continued here",
      "and ending on this third line.",
    ];
    const right = [
      "Right column begins the second",
      "paragraph and it goes on to",
      "finish on its own third line.",
    ];
    const content = [
      textAt(72, 800, "Two Column Title", 2, 20),
      ...left.map((line, i) => textAt(72, 760 - 14 * i, line)),
      ...right.map((line, i) => textAt(320, 760 - 14 * i, line)),
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    expect(paragraphs.map((p) => p.text)).toEqual(["Two Column Title", left.join(" "), right.join(" ")]);
    expect(paragraphs[0]?.style).toBe("Heading1");
  });

  it("reads a sidebar set between two lines of the text column after the column", async () => {
    // The sidebar's 9-point line sits between the first two 11-point lines, overlapping each by
    // less than a third of its height.
    const body = [
      "A paragraph of text whose first line stands",
      "above a sidebar line to the right and goes",
      "on below it to end here on its third line.",
    ];
    const content = [
      ...body.map((line, i) => textAt(72, 760 - 18 * i, line)),
      textAt(400, 751, "Sidebar title", 1, 9),
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    expect(paragraphs.map((p) => p.text)).toEqual([body.join(" "), "Sidebar title"]);
  });

  it("reads a contents page's numbers with their titles, and a borderless table row by row", async () => {
    // Titles at the left, page numbers far right on the same lines, no dot leaders between them.
    const toc = ["Introduction", "Getting started", "Plotting data", "Reference"];
    const contents = toc.flatMap((title, i) => [
      textAt(72, 780 - 16 * i, title),
      textAt(500, 780 - 16 * i, String(3 + 7 * i)),
    ]);
    // A label column beside a column of two-line descriptions, rows 30 points apart.
    const rows = [
      ["Arial", "A sans-serif face that is", "common on screens."],
      ["Times", "A serif face made for", "newspapers long ago."],
      ["Courier", "A monospaced face for", "code and typewriters."],
    ];
    const table = rows.flatMap(([label, first, second], i) => [
      textAt(72, 600 - 44 * i, label ?? ""),
      textAt(300, 600 - 44 * i, first ?? ""),
      textAt(300, 586 - 44 * i, second ?? ""),
    ]);
    const { paragraphs } = await convert(await drawnPdf([{ content: [...contents, ...table].join("") }]));
    const words = paragraphs.map((p) => p.text).join(" ");
    expect(words).toBe(
      "Introduction 3 Getting started 10 Plotting data 17 Reference 24 " +
        "Arial A sans-serif face that is common on screens. Times A serif face made for newspapers long ago. " +
        "Courier A monospaced face for code and typewriters.",
    );
  });

  it("reads a borderless table of figures under a header row row by row", async () => {
    const header = ["Loops", "Trees", "Speedup"];
    const rows = [
      ["3d-cube", "25", "27", "2.20x"],
      ["3d-morph", "5", "-", "2.86x"],
      ["access-nbody", "8", "16", "4.19x"],
      ["crypto-md5", "4", "4", "2.30x"],
    ];
    const columns = [72, 200, 260, 320];
    const content = [
      ...header.map((title, c) => textAt(columns[c + 1] ?? 0, 780, title, 1, 9)),
      ...rows.flatMap((row, r) => row.map((cell, c) => textAt(columns[c] ?? 0, 768 - 11 * r, cell, 1, 9))),
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    expect(paragraphs.map((p) => p.text).join(" ")).toBe([...header, ...rows.flat()].join(" "));
  });

  it("reads a form's rows with their dot leaders and line numbers, its amount boxes not a table", async () => {
    // Rows of 8-point text whose leaders are groups of three dots every 36 points, drawn apart, up
    // to the line number at x 466 (drawn 0.3 points higher than its row), in a ruled column of
    // boxes (x 460-560); a sidebar at the left margin at a spacing of its own.
    const rows = [
      ["7 Wages, salaries, tips, etc. Attach Form(s) W-2", "7"],
      ["8a Taxable interest. Attach Schedule B if required", "8a"],
      ["9 Taxable refunds, credits, or offsets of state and local income taxes paid by the taxpayer", "9"],
      ["10 Alimony received", "10"],
    ] as const;
    const group = ". . .";
    const content: string[] = [];
    const expected: string[] = [];
    rows.forEach(([text, number], i) => {
      const y = 700 - 14 * i;
      content.push(textAt(100, y, text, 1, 8));
      const groups: string[] = [];
      for (let x = 100 + width(text, 8) + 8; x + width(group, 8) < 450; x += 36) {
        content.push(textAt(x, y, group, 1, 8));
        groups.push(group);
      }
      content.push(textAt(466, y + 0.3, number, 1, 8));
      expected.push([text, ...groups, number].join(" "));
    });
    // The long row has one group of leaders only.
    expect(expected[2]?.match(/\./g)).toHaveLength(3);
    const sidebar = ["Income", "Attach Form(s)", "W-2 here."];
    content.push(...sidebar.map((line, i) => textAt(36, 700 - 9.5 * i, line, 1, 8)));
    const boxes = [
      ...[460, 482, 560].map((x) => `${x} 654 m ${x} 710 l`),
      ...[710, 696, 682, 668, 654].map((y) => `460 ${y} m 560 ${y} l`),
    ];
    content.push(`0.5 w ${boxes.join(" ")} S\n`);
    const { paragraphs, parts } = await convert(await drawnPdf([{ content: content.join("") }]));
    const texts = paragraphs.map((p) => p.text);
    expect(tablesOf(parts.document)).toEqual([]);
    // Each row one paragraph, in order, after the sidebar.
    expect(texts.filter((text) => /^\d/.test(text))).toEqual(expected);
    expect(texts.join(" ").indexOf("W-2 here.")).toBeLessThan(texts.join(" ").indexOf(expected[0] ?? ""));
  });

  it("joins a form entry's second line, stepped in under the text after its label", async () => {
    // 8-point entries labelled at x 114, their text at x 137; leaders run to the line numbers at
    // x 340, the last line of an entry of two lines has its number apart; the entry above runs on
    // to a number at x 466.
    const entry = [
      "24 Certain business expenses of reservists, artists, and",
      "fee-basis government officials. Attach Form 2106",
    ];
    const row = (y: number, text: string, number: string, at: number) => {
      const parts = [textAt(114, y, text, 1, 8)];
      for (let x = 114 + width(text, 8) + 8; x + width(". . .", 8) < at - 8; x += 36)
        parts.push(textAt(x, y, ". . .", 1, 8));
      return [...parts, textAt(at, y, number, 1, 8)].join("");
    };
    const content = [
      row(700, "22 Combine the amounts in the far right column for lines 7 through 21", "22", 466),
      row(688, "23 Educator expenses", "23", 340),
      textAt(114, 676, "24", 1, 8),
      textAt(137, 676, entry[0]?.slice(3) ?? "", 1, 8),
      textAt(137, 665, entry[1] ?? "", 1, 8),
      textAt(340, 665, "24", 1, 8),
      row(652, "25 Health savings account deduction", "25", 340),
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    const texts = paragraphs.map((p) => p.text);
    expect(texts).toContain(entry.join(" "));
    expect(texts.filter((text) => text.startsWith("25 Health"))).toHaveLength(1);
  });

  it("reads a form's section label beside its lines before them, section by section", async () => {
    // A narrow column of labels (x 36), each block level with the first line of its section.
    const sections = [
      {
        labels: ["Filing Status", "Check only", "one box."],
        rows: [
          "1 Single person filing a return of their own for the whole of the tax year",
          "2 Married filing jointly, even if only one of the two spouses had income",
          "3 Married filing separately, with the spouse's number entered above",
        ],
        top: 700,
      },
      {
        labels: ["Income", "Attach Form", "W-2 here if", "tax was withheld."],
        rows: [
          "7 Wages, salaries, tips and other pay for work done during the tax year",
          "8 Taxable interest from banks, savings and loan associations and bonds",
          "9 Ordinary dividends from shares held at any time during the tax year",
          "10 Alimony received from a former spouse under a divorce decree",
        ],
        top: 650,
      },
    ];
    const content = sections
      .flatMap(({ labels, rows, top }) => [
        ...labels.map((label, i) => textAt(36, top - 12 * i, label, 1, 8)),
        ...rows.map((row, i) => textAt(120, top - 12 * i, row, 1, 8)),
      ])
      .join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    expect(paragraphs.map((p) => p.text).join(" ")).toBe(
      sections.map(({ labels, rows }) => [...labels, ...rows].join(" ")).join(" "),
    );
  });

  it("reads line numbers at the left margin with their lines, in a ruled form and without rules", async () => {
    const labels = ["Gross pay", "Deductions", "Exemptions", "Tax withheld"];
    // Ruled: the numbers' column (x 40-60) has no rules between its rows, the others have.
    const rules = [
      ...[40, 60, 300, 500].map((x) => `${x} 640 m ${x} 720 l`),
      "40 720 m 500 720 l 40 640 m 500 640 l",
      ...[700, 680, 660].map((y) => `60 ${y} m 500 ${y} l`),
    ];
    const ruled = [
      `0.5 w ${rules.join(" ")} S\n`,
      ...labels.flatMap((label, i) => [
        textAt(46, 706 - 20 * i, String(i + 1)),
        textAt(66, 706 - 20 * i, label),
      ]),
      textAt(310, 706, "1200"),
      textAt(310, 646, "85"),
    ].join("");
    // Unruled: numbers, their labels 54 points further, and a column of notes at a spacing of its own.
    const notes = ["Notes for the employer", "kept apart from the", "numbered lines."];
    const unruled = [
      ...labels.flatMap((label, i) => [
        textAt(40, 500 - 20 * i, String(i + 1)),
        textAt(100, 500 - 20 * i, label),
      ]),
      ...notes.map((line, i) => textAt(350, 497 - 25 * i, line)),
    ].join("");
    const { paragraphs, parts } = await convert(await drawnPdf([{ content: ruled + unruled }]));
    expect(tablesOf(parts.document)).toEqual([
      [
        ["1", "Gross pay", "1200"],
        ["2", "Deductions", ""],
        ["3", "Exemptions", ""],
        ["4", "Tax withheld", "85"],
      ],
    ]);
    const numbered = labels.map((label, i) => `${i + 1} ${label}`).join(" ");
    expect(paragraphs.map((p) => p.text).join(" ")).toContain(`${numbered} ${notes.join(" ")}`);
  });

  it("reads the lines beside a tall brace top to bottom", async () => {
    // A 50-point "{" at the left spans an entry of three lines (its second and third lines start
    // 0.7 points apart) and the next entry.
    const lines = [
      [38, "The spouse of the insured person, who must not have a scheme of their own nor work for"],
      [56.5, "the insured person or for a third party in a job that does not make them insured, nor be"],
      [55.8, "registered as a trader or a company, nor work in a liberal profession."],
      [38, "The partner who lives with the insured person and is fully supported by them."],
    ] as const;
    const content = [
      textAt(26, 664, "{", 1, 50),
      ...lines.map(([x, text], i) => textAt(x, 700 - 11 * i, text, 1, 9)),
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    const texts = paragraphs.map((p) => p.text).filter((text) => text !== "{");
    expect(texts.join(" ")).toBe(lines.map(([, text]) => text).join(" "));
  });

  it("joins centred lines into one paragraph, a line filling the column among them", async () => {
    const centred = (text: string, y: number) => textAt(297.5 - width(text) / 2, y, text);
    const dedication = [
      "To the friends who read every draft of this book,",
      "and to those who told us, with great patience and good humour, where it went wrong",
      "and how it might be made right again.",
    ];
    const content = dedication.map((line, i) => centred(line, 700 - 14 * i)).join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    expect(paragraphs.map((p) => p.text)).toEqual([dedication.join(" ")]);
  });

  it("puts a raised mark drawn apart from its line into it", async () => {
    const first = "Citizens of a member state (EU or EEA";
    const rest = " or Switzerland) who make this request";
    // The asterisk is drawn after the line, 4 points above its baseline, over the word space.
    const content = [
      textAt(
        72,
        760,
        "Every adult who is not a citizen of one of the countries that are listed below must, as",
      ),
      textAt(72, 746, first + rest),
      textAt(72 + width(first) - 1, 750, "*", 1, 14),
      textAt(72, 732, "send one of the residence permits named in the decree on its own."),
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    expect(paragraphs.map((p) => p.text)).toEqual([
      "Every adult who is not a citizen of one of the countries that are listed below must, as " +
        `${first}*${rest} send one of the residence permits named in the decree on its own.`,
    ]);
  });

  it("runs a line of Chinese or Japanese straight on into the next, with no space", () => {
    const run = (text: string): Run => ({
      text,
      font: "Noto Sans CJK",
      size: 11,
      bold: false,
      italic: false,
      underline: false,
      color: "000000",
    });
    const joined = (...lines: string[]) => {
      const runs: Run[] = [run(lines[0] ?? "")];
      for (const line of lines.slice(1)) joinLine(runs, [run(line)]);
      return runs.map((r) => r.text).join("");
    };
    expect(joined("这是一个很长的句子，它在行", "尾被分开了。")).toBe(
      "这是一个很长的句子，它在行尾被分开了。",
    );
    expect(joined("日本語の文章は、行の終わりで", "分かれています。")).toBe(
      "日本語の文章は、行の終わりで分かれています。",
    );
    expect(joined("Windows 10 の", "設定")).toBe("Windows 10 の設定");
    expect(joined("A line of English", "runs on with a space.")).toBe(
      "A line of English runs on with a space.",
    );
  });

  it("joins a word hyphenated at a line end, and keeps short lines apart", async () => {
    const content = [
      textAt(72, 760, "The measurement that the team made in the laboratory was experi-"),
      textAt(72, 746, "mental, and the result was clear to all who read it."),
      textAt(72, 730, "The two teams from both countries met that spring in the Franco-"),
      textAt(72, 716, "German summit, and they wrote it all down for the record."),
      textAt(72, 682, "Name: Ada"),
      textAt(72, 668, "City: London"),
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    const texts = paragraphs.map((p) => p.text);
    expect(texts).toContain(
      "The two teams from both countries met that spring in the Franco-German summit, and they wrote it all down for the record.",
    );
    expect(texts[0]).toBe(
      "The measurement that the team made in the laboratory was experimental, and the result was clear to all who read it.",
    );
    expect(texts).toContain("Name: Ada");
    expect(texts).toContain("City: London");
  });

  it("puts each page after a page break and keeps repeating headers and footers once", async () => {
    const pages = [1, 2, 3].map((n) => ({
      content: [
        textAt(72, 800, "ACME Quarterly Report", 1, 9),
        textAt(72, 700, `Body text of page ${n}.`),
        textAt(280, 40, `Page ${n}`, 1, 9),
      ].join(""),
    }));
    const { paragraphs, parts, facts } = await convert(await drawnPdf(pages));
    expect(paragraphs.filter((p) => p.pageBreakBefore)).toHaveLength(2);
    const body = textOf(parts.document);
    expect(body).toContain("Body text of page 3.");
    expect(body).not.toContain("ACME");
    expect(body).not.toMatch(/Page \d/);
    expect(parts.headers.map(textOf).join("")).toContain("ACME Quarterly Report");
    const footer = paragraphsOf(parts.footers.join(""));
    expect(footer.map((p) => p.text).join("")).toContain("Page");
    expect(footer.flatMap((p) => p.runs).some((run) => run.pageField)).toBe(true);
    expect(facts).toMatchObject({ pages: 3, running_header: true, running_footer: true });
    // Page size from the source: A4 in twentieths of a point.
    expect(parts.document).toMatch(/<w:pgSz w:w="11900" w:h="16840"/);
  });

  it("joins the lines of a notice repeated at the foot of every page into one footer paragraph", async () => {
    const notice = [
      "This notice at the foot of every page runs over two lines of small print, which Word",
      "must show as one paragraph of its footer, its page number last.",
    ];
    const pages = [1, 2, 3].map((n) => ({
      content: [
        textAt(72, 700, `Body text of page ${n}.`),
        ...notice.map((line, i) => textAt(72, 60 - 10 * i, line, 1, 8)),
        textAt(290, 30, String(n), 1, 8),
      ].join(""),
    }));
    const { parts } = await convert(await drawnPdf(pages));
    const footer = paragraphsOf(parts.footers.join(""));
    expect(footer.map((p) => p.text)).toEqual([notice.join(" "), ""]);
    expect(footer[1]?.runs.some((run) => run.pageField)).toBe(true);
  });

  it("keeps numbers that change from page to page in the body, and starts page numbers where the PDF does", async () => {
    // Printed page numbers start at 6; each page ends with a table row whose values differ.
    const totals = ["Total 120.50 31.00", "Total 98.10 12.75", "Total 77.25 40.40"];
    const pages = totals.map((total, n) => ({
      content: [
        textAt(72, 700, `Body text of page ${n + 1}.`),
        textAt(72, 60, total),
        textAt(280, 30, `Page ${n + 6}`, 1, 9),
      ].join(""),
    }));
    const { parts } = await convert(await drawnPdf(pages));
    const body = textOf(parts.document);
    for (const total of totals) expect(body).toContain(total);
    expect(body).not.toMatch(/Page \d/);
    const footer = paragraphsOf(parts.footers.join(""));
    expect(footer.map((p) => p.text).join("")).toBe("Page ");
    expect(footer.flatMap((p) => p.runs).some((run) => run.pageField)).toBe(true);
    expect(parts.document).toMatch(/<w:pgNumType w:start="6"/);
  });

  it("puts a word crossing a table rule whole into one cell, and keeps text beside the table whole", async () => {
    // A grid of 3 columns (x 150, 260, 370, 480) and 2 rows (y 700, 720, 740).
    const rules = [
      ...[150, 260, 370, 480].map((x) => `${x} 700 m ${x} 740 l`),
      ...[700, 720, 740].map((y) => `150 ${y} m 480 ${y} l`),
    ];
    const content = [
      `0.5 w ${rules.join(" ")} S\n`,
      textAt(158, 725, "North"),
      // 240–289.5: 20 points left of the rule at 260, 29.5 right of it.
      textAt(240, 725, "Straddling"),
      textAt(380, 725, "120"),
      // 335–386: most of it left of the rule at 370.
      textAt(335, 705, "Crossover"),
      textAt(420, 705, "95"),
      // 40–185: begins beside the table and runs 35 points into its first cell.
      textAt(40, 705, "Total of the lines above it"),
    ].join("");
    const { parts, paragraphs } = await convert(await drawnPdf([{ content }]));
    expect(tablesOf(parts.document)).toEqual([
      [
        ["North", "Straddling", "120"],
        ["", "Crossover", "95"],
      ],
    ]);
    const outside = paragraphs.map((p) => p.text).filter((text) => text.includes("Total"));
    expect(outside).toEqual(["Total of the lines above it"]);
  });

  it("reads a table ruled between columns but not between rows one row per line", async () => {
    // The body's rows are one grid row ("North South East" in one cell before).
    const { parts } = await convert(await columnRuledTablesPdf());
    expect(tablesOf(parts.document)).toEqual([
      COLUMN_RULED_ROWS,
      [
        ["Item", "Qty", "Price"],
        ["Steel widget, large model", "2", "617.28"],
      ],
    ]);
  });

  it("reads a short full-width list under two balanced columns after both columns", async () => {
    // As Chromium prints a CSS multi-column block followed by a list: both columns end level, and
    // the list's lines, short enough to fit under the first column, come after a paragraph's gap.
    const left = [
      "Left column line one of the",
      "first paragraph, continued here",
      "and ending on this third line.",
    ];
    const right = [
      "Right column begins the second",
      "paragraph and it goes on to",
      "finish on its own third line.",
    ];
    const content = [
      ...left.map((line, i) => textAt(72, 760 - 14 * i, line)),
      ...right.map((line, i) => textAt(320, 760 - 14 * i, line)),
      textAt(90, 704, "Stores opened: 3"),
      textAt(90, 690, "Stores closed: 1"),
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    // The list's lines, short beside the first column's width, stay apart.
    expect(paragraphs.map((p) => p.text)).toEqual([
      left.join(" "),
      right.join(" "),
      "Stores opened: 3",
      "Stores closed: 1",
    ]);
  });

  it("reads the pieces of one line of a ruled cell left to right, a smaller one drawn a little higher", async () => {
    const rules = [
      ...[160, 540].map((x) => `${x} 690 m ${x} 730 l`),
      ...[690, 710, 730].map((y) => `160 ${y} m 540 ${y} l`),
    ];
    const content = [
      `0.5 w ${rules.join(" ")} S\n`,
      textAt(170, 715, "Model 160", 1, 9),
      // 8 points, its baseline 0.5 points higher.
      textAt(450, 715.5, "Page 1/1", 1, 8),
      textAt(170, 695, "Name"),
    ].join("");
    const { parts } = await convert(await drawnPdf([{ content }]));
    expect(tablesOf(parts.document)).toEqual([[["Model 160\nPage 1/1"], ["Name"]]]);
  });

  it("combines an accent drawn as a glyph of its own with the letter under it", async () => {
    // TeX draws "Bröker" as "Br" (Times-Roman at 14 points: 14 wide), then "¨" (WinAnsi 0xA8,
    // 4.66 wide) centred over where the "o" (7 wide) comes, then "oker and a caf" (78.9 wide).
    const content = [
      "BT /F3 14 Tf 72 760 Td (Br) Tj ET\n",
      "BT /F3 14 Tf 87.17 760 Td (\\250) Tj ET\n",
      "BT /F3 14 Tf 86 760 Td (oker and a caf) Tj ET\n",
      // An acute accent (0xB4) after its letter in the stream, centred over the final "e".
      "BT /F3 14 Tf 164.9 760 Td (e) Tj ET\n",
      "BT /F3 14 Tf 165.68 760 Td (\\264) Tj ET\n",
      // Code keeps its circumflex and tilde beside letters: not over them.
      "BT /F5 12 Tf 72 730 Td (x^2 + ~/dir) Tj ET\n",
    ].join("");
    const { bytes, paragraphs } = await convert(await drawnPdf([{ content }]));
    const texts = paragraphs.map((p) => p.text);
    expect(texts).toEqual(["Bröker and a café", "x^2 + ~/dir"]);
    const raw = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    expect(raw.value).toContain("Bröker and a café");
  });

  it("numbers list items as the PDF did, with the marker's own punctuation and first number", async () => {
    const items = [
      "(a) First choice",
      "(b) Second choice",
      "3) Third step",
      "4) Fourth step",
      "C) Last letter",
    ];
    const content = items.map((item, i) => textAt(72, 760 - 30 * i, item)).join("");
    const { paragraphs, parts } = await convert(await drawnPdf([{ content }]));
    const labels = listLabels(paragraphs, parts.numbering);
    expect(paragraphs.map((p, i) => `${labels[i]} ${p.text}`)).toEqual(items);
  });

  it("numbers pages as the PDF prints them: roman front matter, then arabic from 1", async () => {
    const printed = ["", "i", "ii", "1", "2", "3"];
    const pages = printed.map((number, n) => ({
      content: [
        textAt(72, 700, `Body text of page ${n + 1}.`),
        number === "" ? "" : textAt(290, 40, number, 1, 9),
      ].join(""),
    }));
    const { parts } = await convert(await drawnPdf(pages));
    const numberings = [...parts.document.matchAll(/<w:sectPr[\s\S]*?<\/w:sectPr>/g)].map((m) =>
      pageNumbering(m[0]),
    );
    // The title page and the roman pages are one section numbered so that its second page is "i".
    expect(numberings).toEqual([
      { start: 0, format: "lowerRoman" },
      { start: 1, format: "decimal" },
    ]);
    const footer = paragraphsOf(parts.footers.join(""));
    expect(footer.flatMap((p) => p.runs).some((run) => run.pageField)).toBe(true);
    expect(textOf(parts.document)).not.toMatch(/^(i|ii|\d)$/m);
  });

  it("embeds an image in place at its size", async () => {
    const content = `${textAt(72, 780, "Figure above the text")}q 200 0 0 100 72 600 cm /Im1 Do Q ${textAt(72, 560, "Text below the figure")}`;
    const { parts, paragraphs, facts } = await convert(
      await drawnPdf([{ content, image: { width: 64, height: 32 } }]),
    );
    expect(parts.media).toHaveLength(1);
    // 200 × 100 points = 2540000 × 1270000 EMU (Word rounds to whole pixels).
    const extent = /<wp:extent cx="(\d+)" cy="(\d+)"/.exec(parts.document);
    expect(Number(extent?.[1])).toBeCloseTo(2540000, -4);
    expect(Number(extent?.[2])).toBeCloseTo(1270000, -4);
    const texts = paragraphs.map((p) => p.text);
    const image = paragraphs.findIndex((p) => p.text === "");
    expect(image).toBeGreaterThan(texts.indexOf("Figure above the text"));
    expect(image).toBeLessThan(texts.indexOf("Text below the figure"));
    expect(facts.images).toBe(1);
  });

  it("gives Indic text as logical-order Unicode", async () => {
    // Glyphs in visual order, as producers map shaped glyphs: ि before क, ெ before க.
    const glyphs: GlyphText = {
      a: "ि",
      b: "क",
      c: "त",
      d: "ा",
      e: "ब",
      f: "ெ",
      g: "க",
      h: "ா",
      i: "త",
      j: "ె",
      k: "లు",
    };
    const content = [
      "BT /F6 14 Tf 72 760 Td (abcde) Tj ET\n", // "िकताब" → "किताब"
      "BT /F6 14 Tf 72 730 Td (fgh) Tj ET\n", // "ெகா" → "கொ"
      "BT /F6 14 Tf 72 700 Td (ijk) Tj ET\n", // Telugu in logical order stays as it is.
    ].join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }], glyphs));
    expect(paragraphs.map((p) => p.text)).toEqual(["किताब", "கொ", "తెలు"]);
  });

  it("keeps raised and lowered small text as superscript and subscript runs", async () => {
    const parts = [
      { text: "Energy is mc", size: 11, rise: 0 },
      { text: "2", size: 7, rise: 4 },
      { text: " and water is H", size: 11, rise: 0 },
      { text: "2", size: 7, rise: -2 },
      { text: "O, of course.", size: 11, rise: 0 },
    ];
    let x = 72;
    const content = parts
      .map((part) => {
        const shown = textAt(x, 700 + part.rise, part.text, 1, part.size);
        x += width(part.text, part.size);
        return shown;
      })
      .join("");
    const { paragraphs } = await convert(await drawnPdf([{ content }]));
    expect(paragraphs.map((p) => p.text)).toEqual(["Energy is mc2 and water is H2O, of course."]);
    const runs = paragraphs[0]?.runs ?? [];
    expect(runs.map((run) => [run.text, run.script])).toEqual([
      ["Energy is mc", null],
      ["2", "superscript"],
      [" and water is H", null],
      ["2", "subscript"],
      ["O, of course.", null],
    ]);
    // Word draws them smaller itself: they have the line's size.
    expect(new Set(runs.map((run) => run.size))).toEqual(new Set([22]));
  });

  it("reads Arabic from the right and marks its paragraphs right to left", async () => {
    // Each word its own text object, drawn from the right edge leftwards, as Arabic is set.
    const glyphs: GlyphText = { a: "هذه", b: "فقرة", c: "إضافية", d: "Latin" };
    const content = [
      "BT /F6 14 Tf 300 760 Td (a) Tj ET\n",
      "BT /F6 14 Tf 280 760 Td (b) Tj ET\n",
      "BT /F6 14 Tf 260 760 Td (c) Tj ET\n",
      "BT /F6 14 Tf 72 720 Td (d) Tj ET\n",
      "BT /F6 14 Tf 92 720 Td (d) Tj ET\n",
    ].join("");
    const { paragraphs, parts } = await convert(await drawnPdf([{ content }], glyphs));
    expect(paragraphs.map((p) => p.text)).toEqual(["هذه فقرة إضافية", "Latin Latin"]);
    const [arabic, latin] = [...parts.document.matchAll(/<w:p>[\s\S]*?<\/w:p>/g)].map((m) => m[0]);
    expect(arabic).toMatch(/<w:bidi\/>/);
    // Flush right on the page: in a right-to-left paragraph Word reads "left" as the line's start.
    expect(arabic).toMatch(/<w:jc w:val="left"\/>/);
    expect(arabic).toMatch(/<w:rtl\/>/);
    expect(latin).not.toMatch(/<w:bidi\/>|<w:rtl\/>/);
  });

  it("lays a table of Arabic out from the right, its first column the page's rightmost", async () => {
    // A grid of 3 columns (x 150, 260, 370, 480) and 2 rows (y 700, 720, 740).
    const rules = [
      ...[150, 260, 370, 480].map((x) => `${x} 700 m ${x} 740 l`),
      ...[700, 720, 740].map((y) => `150 ${y} m 480 ${y} l`),
    ];
    const glyphs: GlyphText = { a: "الاسم", b: "المدينة", c: "العدد", d: "سارة", e: "دبي", f: "42" };
    const content = [
      `0.5 w ${rules.join(" ")} S\n`,
      "BT /F6 11 Tf 400 725 Td (a) Tj ET\n",
      "BT /F6 11 Tf 290 725 Td (b) Tj ET\n",
      "BT /F6 11 Tf 180 725 Td (c) Tj ET\n",
      "BT /F6 11 Tf 400 705 Td (d) Tj ET\n",
      "BT /F6 11 Tf 290 705 Td (e) Tj ET\n",
      "BT /F6 11 Tf 180 705 Td (f) Tj ET\n",
    ].join("");
    const { parts } = await convert(await drawnPdf([{ content }], glyphs));
    expect(tablesOf(parts.document)).toEqual([
      [
        ["الاسم", "المدينة", "العدد"],
        ["سارة", "دبي", "42"],
      ],
    ]);
    expect(parts.document).toMatch(/<w:bidiVisual\/>/);
  });

  it("keeps the text of a filled form field and a comment, the page's only text", async () => {
    const { paragraphs } = await convert(formOnlyPdf());
    const text = paragraphs.map((p) => p.text).join("\n");
    expect(text).toContain(FIELD_VALUE);
    expect(text).toContain(COMMENT);
  });

  it("converts pages whose only text MuPDF's reading missed: an operator in a TJ array, clip-mode text", async () => {
    for (const { text, bytes: input } of await hiddenTextPdfs()) {
      const { bytes } = await convert(input);
      const raw = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
      expect(raw.value.trim()).toBe(text);
    }
  });

  it("refuses bad input with its code", async () => {
    const failure = (bytes: Uint8Array) => engineFailure(pdfToWord([pdfInput("x.pdf", bytes)], {}, () => {}));
    expect((await failure(encryptedPdf())).code).toBe("PDF_ENCRYPTED");
    expect((await failure(irreparablePdf())).code).toBe("PDF_DAMAGED");
    expect((await failure(new TextEncoder().encode("plain text, not a PDF"))).code).toBe("PDF_DAMAGED");
    const scanned = await failure(heavyPdf(0.05, 7));
    expect(scanned.code).toBe("PDF_NO_TEXT");
    expect(scanned.context).toEqual({ file_index: 0 });
  });

  it("with OCR, turns a scanned PDF into editable paragraphs instead of pictures", async () => {
    const english = "Scanned letters become paragraphs you can edit in Word";
    const hindi = "भारत एक विशाल देश है। यहाँ अनेक भाषाएँ बोली जाती हैं।";
    const scans = await Promise.all([
      scanImage({ markdown: `# Annual report\n\n${english}.` }),
      // Orientation detection needs a page's worth of text (a lone sentence sideways gives it too little).
      scanImage({ markdown: `# हिन्दी पृष्ठ\n\n${hindi}\n\n${hindi}\n\n${hindi}`, turn: 90 }),
    ]);
    const progress: number[] = [];
    const output = await pdfToWord([pdfInput("scan.pdf", scanPdf(scans))], { ocr: true }, (percent) =>
      progress.push(percent),
    );
    const paragraphs = paragraphsOf(docxParts(output.bytes).document).map((p) => p.text);
    expect(output.facts).toMatchObject({ pages: 2, images: 0 });
    expect(output.facts.paragraphs).toBeGreaterThanOrEqual(4);
    expect(paragraphs).toContain("Annual report");
    expect(paragraphs).toContain(`${english}.`);
    const source = `हिन्दी पृष्ठ ${hindi} ${hindi} ${hindi}`;
    const read = wordsOf(paragraphs.join(" "), "devanagari");
    expect(wordF1(wordsOf(source, "devanagari"), read)).toBeGreaterThanOrEqual(0.85);
    expect(progress.at(-1)).toBe(100);
    // Recognition of two pages, one tried at several turns: longer than a conversion on a loaded machine.
  }, 300_000);

  it("says which pages' text cannot be read (fonts mapped to private use or U+FFFD)", async () => {
    const { facts, paragraphs } = await convert(
      unreadableTextPdf(["private-use", "readable", "replacement"]),
    );
    expect(facts).toMatchObject({ pages: 3, unreadable_text: true, unreadable_pages: 2 });
    // The readable page is converted as ever; the others come out as the PDF gives them.
    expect(paragraphs.map((p) => p.text)).toEqual(expect.arrayContaining(UNREADABLE_LINES));
    expect(paragraphs.some((p) => p.text.includes("\uFFFD"))).toBe(true);
    const readable = await convert(textPdf("Plain", 2));
    expect(readable.facts.unreadable_text).toBeUndefined();
    expect(readable.facts.unreadable_pages).toBeUndefined();
  });

  it("counts a page unreadable only when most of its text is (symbol-font bullets are not)", () => {
    const lines = (...texts: string[]) => texts.map((text) => ({ text }));
    // Wingdings bullets extracted as private use, beside readable items.
    expect(unreadableText(lines("\uF0B7 First point", "\uF0B7 Second point", "\uF0B7 Third point"))).toBe(
      false,
    );
    expect(unreadableText(lines("\uFFFD".repeat(9)))).toBe(false);
    expect(unreadableText(lines("\uFFFD".repeat(12), "Page 1"))).toBe(true);
    expect(unreadableText(lines("\u0003\u0011\u0014\u0005 \u0012\u0007\u0013\u0008\u0015\u0016\u0001"))).toBe(
      true,
    );
    expect(unreadableText(lines("\u{F0041}\u{F0042}".repeat(6)))).toBe(true);
  });

  it("with OCR, recognises a page whose text cannot be read and keeps only the recognised text", async () => {
    const output = await pdfToWord(
      [pdfInput("garbled.pdf", unreadableTextPdf(["private-use"]))],
      { ocr: true },
      () => {},
    );
    const text = paragraphsOf(docxParts(output.bytes).document)
      .map((p) => p.text)
      .join(" ");
    expect(output.facts.unreadable_text).toBeUndefined();
    expect(text).not.toMatch(/[\uE000-\uF8FF\uFFFD]/u);
    expect(wordF1(UNREADABLE_LINES.join(" ").split(" "), text.split(/\s+/))).toBeGreaterThanOrEqual(0.9);
  }, 300_000);

  it("converts a repaired PDF and says so", async () => {
    const { facts, paragraphs } = await convert(repairablePdf("Mended", 2));
    expect(facts.repaired).toBe(true);
    expect(paragraphs.map((p) => p.text).filter((t) => t !== "")).toEqual(["Mended page 1", "Mended page 2"]);
  });
});

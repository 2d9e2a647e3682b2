import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { PAGE_SIZES } from "../../engines/markdown/layout-pdf.ts";
import { markdownToHtml } from "../../engines/markdown/markdown-html.ts";
import { MAX_PAGES, markdownToPdf } from "../../engines/markdown/markdown-to-pdf.ts";
import { sanitizeHtml } from "../../engines/markdown/sanitize-html.ts";
import {
  hasPdftotext,
  popplerText,
  type ScriptName,
  SYLLABLE_GRIDS,
  scriptScores,
  visibleText,
} from "../support/script-text.ts";
import { utf16WithMark } from "../support/text-encodings.ts";
import { engineFailure } from "./engine-failure.ts";
import { flatOutline, openPdf, pageTexts } from "./fixtures.ts";
import { convert } from "./markdown-convert.ts";

const corpus = fileURLToPath(new URL("../../../shared/corpus/md/", import.meta.url));

const HINDI =
  "हिन्दी भारत की राजभाषा है। क्षत्रिय, श्रीमान, द्वार, प्रकृति और विद्यालय जैसे शब्दों में संयुक्ताक्षर होते हैं। " +
  "हम पुस्तकालय में बैठकर पत्र-पत्रिकाएँ पढ़ते हैं और कृत्रिम बुद्धि के बारे में चर्चा करते हैं।";
const TELUGU =
  "తెలుగు దక్షిణ భారతదేశంలో మాట్లాడే ద్రావిడ భాష. క్షమ, శ్రీకాకుళం, స్త్రీ, ప్రపంచం వంటి పదాల్లో ఒత్తులు ఉంటాయి. " +
  "విద్యార్థులు గ్రంథాలయంలో పుస్తకాలు చదువుతారు.";
const TAMIL =
  "தமிழ் உலகின் மிகப் பழமையான மொழிகளில் ஒன்று. க்ஷேத்திரம், ஸ்ரீ, கொடி, கோவில், பௌர்ணமி போன்ற சொற்களில் உயிர்மெய் எழுத்துகள் உள்ளன. " +
  "மாணவர்கள் நூலகத்தில் புத்தகங்களைப் படிக்கிறார்கள்.";

const SAMPLE = `# Languages of India

${HINDI}

## తెలుగు విభాగం

${TELUGU}

### தமிழ் பகுதி

${TAMIL}

## Table and tasks

| Language | Script | Speakers |
|:---------|:------:|---------:|
| Hindi | Devanagari | 600 million |
| Telugu | Telugu | 96 million |
| Tamil | Tamil | 87 million |

- [x] Write the **first** draft
- [ ] Review the ~~old~~ new tables
  - nested item with \`inline code\`

> Quoted wisdom stays indented.

\`\`\`ts
export function greet(name: string): string {
  return \`Hello, \${name}! This line is deliberately long so that the code block has to wrap it at the margin.\`;
}
\`\`\`

See the [table section](#table-and-tasks), the [project site](https://example.org/docs) and a footnote[^note].

---

[^note]: Footnotes are collected at the end.
`;

describe("Markdown to PDF", () => {
  it("typesets Hindi, Telugu and Tamil that extract back word for word", async () => {
    const output = await convert(SAMPLE);
    const scores = scriptScores(visibleText(SAMPLE), output.bytes);
    for (const script of ["latin", "devanagari", "telugu", "tamil"] satisfies ScriptName[]) {
      expect(scores[script], script).toBeGreaterThanOrEqual(0.95);
    }
    // What a reader copies out of a viewer: the PDF itself carries the text (ActualText), so
    // Poppler reads it back as well.
    if (hasPdftotext) {
      const poppler = scriptScores(visibleText(SAMPLE), output.bytes, popplerText);
      for (const [script, score] of Object.entries(poppler))
        expect(score, `pdftotext ${script}`).toBeGreaterThanOrEqual(0.95);
    }
    expect(output.name).toBe("notes.pdf");
    expect(output.facts).toMatchObject({ pages: 1, page_size: "a4", images_replaced: 0 });
    expect(output.progress.at(-1)).toBeGreaterThanOrEqual(95);
  });

  it.each(Object.entries(SYLLABLE_GRIDS))(
    "reads back every %s consonant with every vowel sign, in MuPDF and Poppler",
    async (script, grid) => {
      const output = await convert(grid);
      expect(scriptScores(grid, output.bytes)[script as ScriptName]).toBeGreaterThanOrEqual(0.98);
      if (hasPdftotext) {
        const poppler = scriptScores(grid, output.bytes, popplerText)[script as ScriptName];
        expect(poppler, "pdftotext").toBeGreaterThanOrEqual(0.95);
      }
    },
  );

  it("keeps tables, task boxes, code and the page number as text", async () => {
    const output = await convert(SAMPLE);
    const text = pageTexts(openPdf(output.bytes)).join("\n");
    // Narrow columns wrap: "600 million" may take two lines.
    for (const cell of ["Language", "Devanagari", "600", "87", "million"]) expect(text).toContain(cell);
    expect(text).toContain("export function greet(name: string): string {");
    expect(text).toContain("[x] Write the first draft");
    expect(text).toContain("[ ] Review the old new tables");
    // Every character drawn has a glyph: MuPDF extracts a missing one as U+FFFD.
    expect(text).not.toContain("\uFFFD");
    expect(text).toContain("Footnotes are collected at the end.");
    expect(text).toMatch(/1 \/ 1/);
  });

  it("makes headings an outline and links clickable", async () => {
    const doc = openPdf((await convert(SAMPLE)).bytes);
    const outline = flatOutline(doc);
    expect(outline.map((entry) => entry.title)).toEqual(
      expect.arrayContaining(["Languages of India", "తెలుగు విభాగం", "தமிழ் பகுதி", "Table and tasks"]),
    );
    expect(outline.find((entry) => entry.title === "తెలుగు విభాగం")?.depth).toBe(1);
    const links = doc.loadPage(0).getLinks();
    const uris = links.map((link) => link.getURI());
    expect(uris).toContain("https://example.org/docs");
    // The in-document link goes to the page of its heading.
    const internal = links.filter((link) => link.isExternal() === false);
    expect(internal.length).toBeGreaterThanOrEqual(2);
    for (const link of internal) expect(doc.resolveLink(link)).toBe(0);
  });

  it("lays out on A4 by default and on Letter when asked", async () => {
    const markdown = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1}. ${HINDI}`).join("\n\n");
    const a4 = openPdf((await convert(markdown)).bytes);
    const letter = openPdf((await convert(markdown, { page_size: "letter" })).bytes);
    const [, , a4Width, a4Height] = a4.loadPage(0).getBounds();
    const [, , letterWidth, letterHeight] = letter.loadPage(0).getBounds();
    expect([Math.round(a4Width), Math.round(a4Height)]).toEqual([595, 842]);
    expect([letterWidth, letterHeight]).toEqual([PAGE_SIZES.letter.width, PAGE_SIZES.letter.height]);
    expect(a4.countPages()).toBeGreaterThan(1);
    expect(pageTexts(a4).at(-1)).toContain(`${a4.countPages()} / ${a4.countPages()}`);
  });

  it("never ends a page on a heading", async () => {
    // Filler of 40–59 short paragraphs puts the heading at every height of the first page's foot.
    for (let lines = 40; lines < 60; lines++) {
      const filler = Array.from({ length: lines }, (_, i) => `Line ${i} of filler text.`).join("\n\n");
      const doc = openPdf((await convert(`${filler}\n\n## The heading\n\nBody after the heading.`)).bytes);
      for (const text of pageTexts(doc)) {
        const lastLines = text
          .split("\n")
          .filter((line) => line.trim() !== "" && !/^\d+ \/ \d+$/.test(line.trim()));
        expect(lastLines.at(-1), `${lines} lines`).not.toBe("The heading");
      }
    }
  }, 60_000);

  it("embeds data: images and never fetches remote ones", async () => {
    let hits = 0;
    const server = createServer((_request, response) => {
      hits += 1;
      response.writeHead(200, { "content-type": "image/png" }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const pixel =
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
      const remote = `http://127.0.0.1:${port}`;
      // Every way HTML names a resource, besides the two images.
      const elsewhere = [
        `<picture><source srcset="${remote}/source.png"><img src="${remote}/picture.png" alt="picture"></picture>`,
        `<video poster="${remote}/poster.png" src="${remote}/video.mp4"></video><audio src="${remote}/a.mp3"></audio>`,
        `<link rel="stylesheet" href="${remote}/style.css"><object data="${remote}/object.svg"></object>`,
        `<iframe src="${remote}/frame.html"></iframe><input type="image" src="${remote}/input.png">`,
        `<svg><image href="${remote}/svg.png"></image></svg><p style="background: url(${remote}/bg.png)">styled</p>`,
      ].join("\n");
      const markdown = `Local ![a red dot](${pixel}) and remote ![the server logo](${remote}/logo.png)\n\n<img src="//127.0.0.1:${port}/raw.png" alt="raw html image">\n\n${elsewhere}`;
      const output = await convert(markdown);
      expect(hits).toBe(0);
      expect(output.facts.images_replaced).toBe(3);
      const text = pageTexts(openPdf(output.bytes)).join("\n");
      expect(text).toContain("[the server logo]");
      expect(text).toContain("[raw html image]");
      const json = JSON.parse(
        openPdf(output.bytes).loadPage(0).toStructuredText("preserve-images").asJSON(),
      ) as { blocks: { type: string }[] };
      expect(json.blocks.filter((block) => block.type === "image")).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it("sanitises inline HTML by the spec's rules", async () => {
    const markdown = [
      '<script>alert("stolen")</script><b onclick="steal()">bold</b> <img src=x onerror="steal()">',
      '[bad](javascript:alert(1)) [ok](mailto:a@example.org) [chat](xmpp:me@example.org) <a id="top" name="top">anchor</a>',
    ].join("\n\n");
    const { html } = sanitizeHtml(markdownToHtml(markdown));
    expect(html).not.toMatch(/<script|onclick|onerror|javascript:/i);
    expect(html).toContain('href="mailto:a@example.org"');
    expect(html).toContain('href="xmpp:me@example.org"');
    expect(html).toContain('id="user-content-top"');
    const text = pageTexts(openPdf((await convert(markdown)).bytes)).join("\n");
    expect(text).toContain("bold");
    expect(text).not.toContain("stolen");
  });

  it("reads UTF-16 files by their byte order mark, as Notepad and PowerShell write them", async () => {
    const markdown = "# Résumé\n\nCafé, naïve, façade: यह UTF-16 में है। 😀\n";
    for (const order of ["le", "be"] as const) {
      const bytes = utf16WithMark(markdown, order);
      const output = await markdownToPdf(
        [{ name: "notes.md", kind: "markdown", bytes }],
        { page_size: "a4" },
        () => {},
      );
      const text = pageTexts(openPdf(output.bytes)).join("\n").normalize("NFC");
      for (const part of ["Résumé", "Café, naïve, façade", "यह UTF-16 में है।"]) expect(text).toContain(part);
    }
  });

  it("names the download after the source, or converted.pdf", async () => {
    expect((await convert("# Hi", {}, "Release notes.markdown")).name).toBe("Release notes.pdf");
    expect((await convert("# Hi", {}, ".md")).name).toBe("converted.pdf");
  });

  it("refuses an empty file and too deep nesting with the cause", async () => {
    const empty = await engineFailure(convert("  \n\n"));
    expect(empty.context).toMatchObject({ markdown_error: "empty" });
    const started = Date.now();
    const deep = await engineFailure(convert(`${">".repeat(50_000)} deep`));
    expect(deep.context).toMatchObject({ markdown_error: "nestedTooDeeply" });
    const lists = await engineFailure(
      convert(Array.from({ length: 1000 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n")),
    );
    expect(lists.context).toMatchObject({ markdown_error: "nestedTooDeeply" });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses a 5 MB document of more pages than one job makes, well inside the job time limit", async () => {
    const paragraph =
      "Lorem ipsum dolor sit amet, **consectetur** adipiscing elit, sed do eiusmod tempor. ".repeat(5);
    const sections: string[] = [];
    let length = 0;
    for (let i = 0; length < 5 * 1024 * 1024 - 4096; i++) {
      const part = i % 20 === 0 ? `## Section ${i}\n\n${paragraph}` : paragraph;
      sections.push(part);
      length += part.length + 2;
    }
    const started = Date.now();
    const error = await engineFailure(convert(sections.join("\n\n")));
    expect(error.code).toBe("TOO_MANY_PAGES");
    expect(error.context).toMatchObject({ markdown_error: "tooLong", max_pages: MAX_PAGES });
    expect(Date.now() - started).toBeLessThan(120_000);
  }, 150_000);

  it("expands a thousand uses of one link reference without blowing up", async () => {
    const uses = Array.from({ length: 2000 }, () => "[lol][l]").join(" ");
    const output = await convert(`${uses}\n\n[l]: https://example.org/${"x".repeat(2000)}`);
    const doc = openPdf(output.bytes);
    expect(doc.loadPage(0).getLinks().length).toBeGreaterThan(100);
    expect(output.bytes.byteLength).toBeLessThan(5_000_000);
  });
});

describe.skipIf(!existsSync(corpus))("Markdown to PDF on the real Markdown files", () => {
  const files = existsSync(corpus)
    ? readdirSync(corpus).filter((file) => file.endsWith(".md") && file !== "SOURCES.md")
    : [];
  it.each(files)(
    "%s reads back word for word",
    async (file) => {
      const markdown = readFileSync(`${corpus}${file}`, "utf8");
      const output = await convert(markdown, {}, file);
      const doc = openPdf(output.bytes);
      expect(doc.countPages()).toBe(output.facts.pages);
      const scores = scriptScores(visibleText(markdown), output.bytes);
      for (const [script, score] of Object.entries(scores))
        expect(score, script).toBeGreaterThanOrEqual(0.95);
      if (/^#{1,6} /m.test(markdown)) expect(flatOutline(doc).length).toBeGreaterThan(0);
      mupdf.emptyStore();
    },
    120_000,
  );
});

/**
 * Markdown to PDF sets every script in the weight the document asks for (issue 30 §2): regular body
 * text, bold headings and strong text, italic on a face without italics in its regular. Before, only
 * the first weight MuPDF asked for was embedded for each Indic script: Hindi and Tamil bodies came
 * out bold, a Telugu heading regular.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPdf } from "./fixtures.ts";
import { convert } from "./markdown-convert.ts";

/** Per script: a heading word, a regular word, a bold word and an italic word, and its face. */
const SCRIPTS = [
  { face: "devanagari", heading: "शीर्षक", regular: "सामान्य", bold: "मोटा", italic: "तिरछा" },
  { face: "tamil", heading: "தலைப்பு", regular: "சாதாரண", bold: "தடித்த", italic: "சாய்வு" },
  { face: "telugu", heading: "శీర్షిక", regular: "సాధారణ", bold: "బోల్డ్", italic: "ఇటాలిక్" },
] as const;

const markdown = SCRIPTS.map(
  ({ heading, regular, bold, italic }) =>
    `## ${heading}\n\n${regular} ${regular}। **${bold} ${bold}** *${italic}* ${regular}\n`,
).join("\n");

/** The font name of each span of page 1's text (MuPDF's structured text), with the span's text. */
function spans(bytes: Uint8Array): { text: string; font: string }[] {
  const found: { text: string; font: string }[] = [];
  openPdf(bytes)
    .loadPage(0)
    .toStructuredText("preserve-whitespace")
    .walk({
      onChar(c, _origin, font) {
        const name = font.getName();
        const last = found.at(-1);
        if (last?.font === name) last.text += c;
        else found.push({ text: c, font: name });
      },
    });
  return found;
}

/** The font a word is drawn with (MuPDF cuts names to 24 characters), where it first appears whole in one span. */
function fontOf(all: ReturnType<typeof spans>, word: string): string | undefined {
  return all.find((span) => span.text.includes(word))?.font;
}

const hasPdffonts = spawnSync("pdffonts", ["-v"]).status === 0;

describe("Markdown to PDF weights", () => {
  it("draws each Indic script's body regular, headings and strong text bold, italic in the regular", async () => {
    const { bytes } = await convert(markdown);
    const all = spans(bytes);
    for (const { face, heading, regular, bold, italic } of SCRIPTS) {
      expect(fontOf(all, heading), `${face} heading`).toMatch(new RegExp(`Noto-${face}-700`));
      expect(fontOf(all, regular), `${face} body`).toMatch(new RegExp(`Noto-${face}-400`));
      expect(fontOf(all, bold), `${face} strong`).toMatch(new RegExp(`Noto-${face}-700`));
      expect(fontOf(all, italic), `${face} emphasis`).toMatch(new RegExp(`Noto-${face}-400`));
    }
  });

  it.skipIf(!hasPdffonts)("embeds the regular and the bold of every Indic face (pdffonts)", async () => {
    const { bytes } = await convert(markdown);
    const folder = mkdtempSync(join(tmpdir(), "md-weights-"));
    try {
      const file = join(folder, "out.pdf");
      writeFileSync(file, bytes);
      const listed = spawnSync("pdffonts", [file], { encoding: "utf8" }).stdout;
      const embedded = listed
        .split("\n")
        .slice(2)
        .filter((line) => / yes +yes +yes /.test(line))
        .map((line) => line.split(/\s+/)[0]?.replace(/^[A-Z]{6}\+/, ""));
      for (const { face } of SCRIPTS)
        for (const weight of ["400", "700"]) expect(embedded).toContain(`Noto-${face}-${weight}-normal`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

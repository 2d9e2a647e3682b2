/**
 * The content-stream lexer shared by the stamps (engines/pdf/stamp-place.ts) and the text MuPDF
 * misses (engines/pdf/hidden-text.ts): tokens as Poppler's lexer reads them.
 */
import { describe, expect, it } from "vitest";
import { ContentLexer } from "../../engines/pdf/content-lexer.ts";

/** Every token of `content` as "kind:text", an inline image's data taken after each top-level ID. */
function tokens(content: string): string[] {
  const lexer = new ContentLexer(content);
  const out: string[] = [];
  while (lexer.next()) {
    out.push(`${lexer.kind}:${lexer.text}${lexer.unclosed === "" ? "" : `|${lexer.unclosed}`}`);
    if (lexer.kind === "word" && lexer.text === "ID") {
      lexer.imageData();
      out.push(`${lexer.kind}:${lexer.text}`);
    }
  }
  return out;
}

describe("ContentLexer", () => {
  it("reads operators, operands, arrays and dictionaries, skipping comments and stray delimiters", () => {
    expect(tokens("/F1 12 Tf % a comment ] Tj\n[(a) -250 <41>] TJ << /MCID 0 >> BDC ) } EMC")).toEqual([
      "name:/F1",
      "number:12",
      "word:Tf",
      "[:[",
      "string:(a)",
      "number:-250",
      "string:<41>",
      "]:]",
      "word:TJ",
      "<<:<<",
      "name:/MCID",
      "number:0",
      ">>:>>",
      "word:BDC",
      "word:EMC",
    ]);
  });

  it("ends a number where its digits end, as Poppler does", () => {
    expect(tokens("/F1 1e2 Tf .5 -.25 0.0Tc")).toEqual([
      "name:/F1",
      "number:1",
      "word:e2",
      "word:Tf",
      "number:.5",
      "number:-.25",
      "number:0.0",
      "word:Tc",
    ]);
  });

  it("keeps nested and escaped parentheses and NUL bytes inside a string; NUL is white space outside", () => {
    expect(tokens("(a (b) \\) \u0000c)\u0000Tj")).toEqual(["string:(a (b) \\) \u0000c)", "word:Tj"]);
  });

  it("says what closes a string the content leaves open", () => {
    expect(tokens("[ (x (y) \\) z")).toEqual(["[:[", "string:(x (y) \\) z|)"]);
    expect(tokens("((a) (b")).toEqual(["string:((a) (b|))"]);
    expect(tokens("<4142")).toEqual(["string:<4142|>"]);
  });

  it("takes an inline image's data whole, whatever bytes it holds, up to its EI", () => {
    expect(tokens("BI /W 1 /H 1/F/AHx ID Q(q [EIx] ] EI Q")).toEqual([
      "word:BI",
      "name:/W",
      "number:1",
      "name:/H",
      "number:1",
      "name:/F",
      "name:/AHx",
      "word:ID",
      "image-data:Q(q [EIx] ]",
      "word:EI",
      "word:Q",
    ]);
    expect(tokens("BI ID \u0000\u00ff")).toEqual(["word:BI", "word:ID", "image-data:\u0000\u00ff"]);
  });
});

/**
 * The checks of what a PDF value is (engines/pdf/object-kinds.ts), on objects MuPDF parsed from a
 * file: a name or number of another value, or a value of another type, is not a match.
 */
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { isContentXObject, isNamed, isNumbered, isType3Font } from "../../engines/pdf/object-kinds.ts";
import { pdfOfObjects } from "../worker/fixtures.ts";

const objects = [
  "<< /Type /Catalog /Pages 2 0 R >>",
  "<< /Type /Pages /Kids [] /Count 0 >>",
  "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [1 0 0 1 0 0] /CharProcs << >> >>",
  "<< /Length 0 /Subtype /Form /BBox [0 0 1 1] >>\nstream\n\nendstream",
  "<< /Length 0 /PatternType 1 /BBox [0 0 1 1] >>\nstream\n\nendstream",
  "<< /Length 0 /PatternType 2 /Subtype (Form) >>\nstream\n\nendstream",
  "[/Type3 /Subtype]",
  "(Type3)",
];

function withObjects(test: (object: (num: number) => mupdf.PDFObject) => void): void {
  const pdf = mupdf.Document.openDocument(pdfOfObjects(objects), "application/pdf").asPDF();
  if (pdf === null) throw new Error("not a PDF");
  try {
    test((num) => pdf.newIndirect(num));
  } finally {
    pdf.destroy();
  }
}

describe("object kinds", () => {
  it("isNamed matches a name, not a string of the same letters nor another name", () => {
    withObjects((object) => {
      expect(isNamed(object(3).get("Subtype"), "Type3")).toBe(true);
      expect(isNamed(object(3).get("Subtype"), "Type1")).toBe(false);
      expect(isNamed(object(8), "Type3")).toBe(false);
      expect(isNamed(object(3).get("Missing"), "")).toBe(false);
    });
  });

  it("isNumbered matches a number, not another number nor a missing entry", () => {
    withObjects((object) => {
      expect(isNumbered(object(5).get("PatternType"), 1)).toBe(true);
      expect(isNumbered(object(6).get("PatternType"), 1)).toBe(false);
      expect(isNumbered(object(4).get("PatternType"), 0)).toBe(false);
    });
  });

  it("isType3Font takes a dictionary with /Subtype /Type3 only", () => {
    withObjects((object) => {
      expect(isType3Font(object(3))).toBe(true);
      expect(isType3Font(object(4))).toBe(false);
      expect(isType3Font(object(7))).toBe(false);
    });
  });

  it("isContentXObject takes forms and tiling patterns, not shadings or a /Subtype string", () => {
    withObjects((object) => {
      expect([4, 5, 6].map((num) => isContentXObject(object(num)))).toEqual([true, true, false]);
    });
  });
});

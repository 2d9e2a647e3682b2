/**
 * The walk over every object of a document (engines/pdf/every-object.ts) that the compression
 * steps, the input checks and the saves share: each object number once and in order, as an
 * indirect reference (never resolved), and only the objects there were when the walk started.
 */
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { everyObject } from "../../engines/pdf/every-object.ts";
import { pdfOfObjects } from "../worker/fixtures.ts";

const content = "0 0 m 10 10 l S";
const objects = [
  "<< /Type /Catalog /Pages 2 0 R >>",
  "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R >>",
  `<< /Length 6 0 R >>\nstream\n${content}\nendstream`,
  "[1 2 3]",
  String(content.length),
];

function openObjects(): mupdf.PDFDocument {
  const pdf = mupdf.Document.openDocument(pdfOfObjects(objects), "application/pdf").asPDF();
  if (pdf === null) throw new Error("not a PDF");
  return pdf;
}

describe("everyObject", () => {
  it("gives every object number once, in order, with a reference to that object", () => {
    const pdf = openObjects();
    const walked = [...everyObject(pdf)];
    expect(walked.map(({ num }) => num)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const { num, object } of walked) {
      expect(object.isIndirect()).toBe(true);
      expect(object.asIndirect()).toBe(num);
    }
    const kinds = walked.map(({ object }) =>
      object.isStream() ? "stream" : object.isArray() ? "array" : object.get("Type").asName(),
    );
    expect(kinds).toEqual(["Catalog", "Pages", "Page", "stream", "array", ""]);
    pdf.destroy();
  });

  it("visits only the objects there were when the walk started", () => {
    const pdf = openObjects();
    const visited: number[] = [];
    for (const { num } of everyObject(pdf)) {
      visited.push(num);
      if (num <= 3) pdf.addObject(pdf.newDictionary());
    }
    expect(visited).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pdf.countObjects()).toBe(10);
    pdf.destroy();
  });
});

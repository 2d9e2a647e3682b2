/**
 * Compress PDF on glyphs the view of the pages does not draw but a printer or a Type 3 glyph does:
 * text in an optional content group whose /Usage hides it from the view only (a print-only
 * watermark), and text a Type 3 glyph procedure draws with a font of the page's resources (a Type 3
 * font without resources of its own uses those of where it is drawn). Fonts subset to the glyphs of
 * the view alone lost those glyphs.
 */
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { compressPdf } from "../../engines/pdf/compress.ts";
import { openPdf, pdfInput, save } from "./fixtures.ts";
import { liberationSans, oneGlyphType3 } from "./font-files.ts";

const hex4 = (value: number) => value.toString(16).padStart(4, "0");

async function compress(bytes: Uint8Array): Promise<Uint8Array> {
  return (await compressPdf([pdfInput("in.pdf", bytes)], { quality: "medium" }, () => {})).bytes;
}

/** Page 1 in grey at 72 dpi, after `change` (applied to the document opened). */
function pixels(bytes: Uint8Array, change: (doc: mupdf.PDFDocument) => void = () => {}): Uint8ClampedArray {
  const doc = openPdf(bytes);
  change(doc);
  return doc
    .loadPage(0)
    .toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, false)
    .getPixels()
    .slice();
}

const samePixels = (a: Uint8ClampedArray, b: Uint8ClampedArray) =>
  a.length === b.length && a.every((value, index) => value === b[index]);
const inkOf = (a: Uint8ClampedArray) => a.filter((value) => value < 128).length;

/** Liberation Sans as a composite (Identity-H) or simple font, and how a string is shown with it. */
function liberation(doc: mupdf.PDFDocument, composite: boolean) {
  const font = new mupdf.Font("Liberation Sans", liberationSans());
  const object = composite ? doc.addFont(font) : doc.addSimpleFont(font, "Latin");
  const show = (text: string) =>
    composite ? `<${[...text].map((char) => hex4(font.encodeCharacter(char))).join("")}>` : `(${text})`;
  return { object, show };
}

/** "Hello" for everyone, and "WXYZ" in a group shown on print only (/Usage), switched on in /D. */
function printOnlyPdf(composite: boolean): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const { object, show } = liberation(doc, composite);
  const group = doc.addObject({
    Type: doc.newName("OCG"),
    Name: doc.newString("Print only"),
    Usage: { View: { ViewState: doc.newName("OFF") }, Print: { PrintState: doc.newName("ON") } },
  });
  const groups = doc.newArray();
  groups.push(group);
  const config = doc.newDictionary();
  config.put("ON", groups);
  const properties = doc.newDictionary();
  properties.put("OCGs", groups);
  properties.put("D", config);
  doc.getTrailer().get("Root").put("OCProperties", properties);
  const resources = doc.addObject({ Font: { F: object }, Properties: { P: group } });
  const content = [
    `BT /F 30 Tf 72 700 Td ${show("Hello")} Tj ET`,
    `/OC /P BDC BT /F 60 Tf 72 500 Td ${show("WXYZ")} Tj ET EMC`,
  ].join("\n");
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, content));
  return save(doc, "compress");
}

/**
 * A Type 3 glyph drawing a W with the page's font /G, selected by `Tf` or by a graphics state's
 * /Font, through resources of its own or (none of its own) those of the page.
 */
function type3Pdf(composite: boolean, select: "Tf" | "gs", own: boolean): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const { object, show } = liberation(doc, composite);
  const selection = select === "gs" ? "/S gs" : "/G 800 Tf";
  const state = doc.addObject({ Type: doc.newName("ExtGState"), Font: [object, 800] });
  const drawing = `BT ${selection} 0 0 Td ${show("W")} Tj ET`;
  const type3 = oneGlyphType3(doc, drawing, own ? { ExtGState: { S: state } } : undefined);
  const resources = doc.addObject({ Font: { T: type3, G: object }, ExtGState: { S: state } });
  const content = `BT /T 50 Tf 72 700 Td (a) Tj ET BT /G 30 Tf 72 600 Td ${show("Hello")} Tj ET`;
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, content));
  return save(doc, "compress");
}

/** The page as printed: without the optional content configuration every group shows. */
const asPrinted = (doc: mupdf.PDFDocument) => doc.getTrailer().get("Root").delete("OCProperties");

describe("compressPdf on glyphs outside the view", () => {
  for (const composite of [true, false]) {
    const kind = composite ? "composite" : "simple";

    it(`keeps the glyphs of print-only optional content (${kind} font)`, async () => {
      const input = printOnlyPdf(composite);
      // The view hides the print-only text; printed, it shows.
      expect(inkOf(pixels(input, asPrinted))).toBeGreaterThan(2 * inkOf(pixels(input)));
      const bytes = await compress(input);
      expect(bytes.length).toBeLessThan(input.length);
      expect(samePixels(pixels(bytes), pixels(input))).toBe(true);
      expect(samePixels(pixels(bytes, asPrinted), pixels(input, asPrinted))).toBe(true);
    });

    it(`keeps the glyphs a Type 3 glyph without resources draws with a page font (${kind} font)`, async () => {
      const input = type3Pdf(composite, "Tf", false);
      const bytes = await compress(input);
      expect(samePixels(pixels(bytes), pixels(input))).toBe(true);
    });
  }

  for (const own of [true, false]) {
    it(`keeps the glyphs a Type 3 glyph draws with a font a graphics state selects (${own ? "its" : "the page's"} resources)`, async () => {
      const input = type3Pdf(true, "gs", own);
      const bytes = await compress(input);
      expect(samePixels(pixels(bytes), pixels(input))).toBe(true);
    });
  }
});

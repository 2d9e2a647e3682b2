/**
 * Compress PDF on glyphs drawn where a subsetter may not look: text in an optional content group
 * whose /Usage hides it from the view only (a print-only watermark); text a Type 3 glyph procedure
 * draws with a font of the page's resources (a Type 3 font without resources of its own uses those
 * of where it is drawn) or one a graphics state selects (`gs` with /Font); text in a tiling
 * pattern, in a soft mask, in an annotation's down appearance or in a hidden annotation. Fonts
 * subset to the glyphs of the page's own text lost those glyphs.
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

/** A font of the document, and how a string is shown with it. */
interface Shown {
  readonly object: mupdf.PDFObject;
  readonly show: (text: string) => string;
}

/** Liberation Sans as a composite (Identity-H) or simple font. */
function liberation(doc: mupdf.PDFDocument, composite: boolean): Shown {
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

  for (const [drawing, build] of Object.entries(DRAWINGS)) {
    it(`keeps the glyphs drawn ${drawing}`, async () => {
      const doc = new mupdf.PDFDocument();
      build(doc, liberation(doc, true));
      const input = save(doc, "compress");
      const bytes = await compress(input);
      expect(samePixels(pixels(bytes), pixels(input))).toBe(true);
      expect(samePixels(pixels(bytes, everyAppearance), pixels(input, everyAppearance))).toBe(true);
    });
  }
});

/** A form XObject of 300 × 100 drawing `content` with /F. */
function form(doc: mupdf.PDFDocument, font: mupdf.PDFObject, content: string): mupdf.PDFObject {
  return doc.addStream(new TextEncoder().encode(content), {
    Type: doc.newName("XObject"),
    Subtype: doc.newName("Form"),
    BBox: [0, 0, 300, 100],
    Resources: { Font: { F: font } },
  });
}

/** A page showing "Hello" with /F and drawing `more` with the resources `extra` besides. */
function page(doc: mupdf.PDFDocument, font: Shown, more: string, extra: Record<string, unknown> = {}) {
  const resources = doc.addObject({ Font: { F: font.object }, ...extra });
  const content = `BT /F 30 Tf 72 700 Td ${font.show("Hello")} Tj ET ${more}`;
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, content));
}

/** Annotations with their down appearance as the normal one, every one shown. */
function everyAppearance(doc: mupdf.PDFDocument): void {
  const annotations = doc.findPage(0).get("Annots");
  for (let i = 0; annotations.isArray() && i < annotations.length; i++) {
    const appearances = annotations.get(i).get("AP");
    if (!appearances.get("D").isNull()) appearances.put("N", appearances.get("D"));
    annotations.get(i).put("F", 4);
  }
}

type Drawing = (doc: mupdf.PDFDocument, font: Shown) => void;

/** Pages drawing "WXYZ" only where MuPDF's subsetter does not look (and "Hello" on the page). */
const DRAWINGS: Record<string, Drawing> = {
  "in a tiling pattern": (doc, font) => {
    const pattern = doc.addStream(new TextEncoder().encode(`BT /F 20 Tf 0 5 Td ${font.show("WXYZ")} Tj ET`), {
      Type: doc.newName("Pattern"),
      PatternType: 1,
      PaintType: 1,
      TilingType: 1,
      BBox: [0, 0, 100, 30],
      XStep: 100,
      YStep: 30,
      Resources: { Font: { F: font.object } },
    });
    page(doc, font, "/Pattern cs /P scn 72 300 300 200 re f", { Pattern: { P: pattern } });
  },
  "in a soft mask": (doc, font) => {
    const group = form(
      doc,
      font.object,
      `1 g 0 0 300 100 re f 0 g BT /F 60 Tf 10 20 Td ${font.show("WXYZ")} Tj ET`,
    );
    group.put("Group", { S: doc.newName("Transparency"), CS: doc.newName("DeviceGray") });
    const mask = { Type: doc.newName("Mask"), S: doc.newName("Luminosity"), G: group };
    page(doc, font, "q /S gs 0 0 300 100 re f Q", { ExtGState: { S: { SMask: mask } } });
  },
  "with a font a graphics state selects": (doc, font) => {
    // Another font is current (Tf) when the graphics state selects /F.
    const other = doc.addSimpleFont(new mupdf.Font("Helvetica"));
    const state = { Type: doc.newName("ExtGState"), Font: [font.object, 40] };
    const text = `BT /H 20 Tf 72 400 Td (Hi) Tj /S gs 0 -100 Td ${font.show("WXYZ")} Tj ET`;
    page(doc, font, text, { Font: { F: font.object, H: other }, ExtGState: { S: state } });
  },
  "in an annotation's down appearance": (doc, font) => {
    page(doc, font, "");
    const annotation = doc.addObject({
      Type: doc.newName("Annot"),
      Subtype: doc.newName("Widget"),
      FT: doc.newName("Btn"),
      Ff: 65536,
      T: doc.newString("button"),
      F: 4,
      Rect: [72, 300, 372, 400],
      AP: {
        N: form(doc, font.object, ""),
        D: form(doc, font.object, `BT /F 20 Tf 0 5 Td ${font.show("WXYZ")} Tj ET`),
      },
    });
    doc.findPage(0).put("Annots", [annotation]);
  },
  "in a hidden annotation": (doc, font) => {
    page(doc, font, "");
    const annotation = doc.addObject({
      Type: doc.newName("Annot"),
      Subtype: doc.newName("Stamp"),
      F: 2,
      Rect: [72, 300, 372, 400],
      AP: { N: form(doc, font.object, `BT /F 20 Tf 0 5 Td ${font.show("WXYZ")} Tj ET`) },
    });
    doc.findPage(0).put("Annots", [annotation]);
  },
};

/**
 * Compress PDF on the structure around the pages: the file format a PDF/A-1 claim requires, and
 * the document-level objects of small files (scripts, forms without fields, metadata that repeats
 * the document information, drawings that draw nothing). PDFs built in code.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { compressPdf } from "../../engines/pdf/compress.ts";
import { openPdf, pageTexts, pdfInput, save, textPdf, textPdfDocument } from "./fixtures.ts";

async function compressed(bytes: Uint8Array): Promise<Uint8Array> {
  const { bytes: out } = await compressPdf([pdfInput("in.pdf", bytes)], { quality: "medium" }, () => {});
  return out;
}

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

/** Page 1 rendered at 100 ppi: its RGB samples. */
function pageOnePixels(bytes: Uint8Array): Uint8ClampedArray {
  const pixmap = openPdf(bytes)
    .loadPage(0)
    .toPixmap(mupdf.Matrix.scale(100 / 72, 100 / 72), mupdf.ColorSpace.DeviceRGB, false, true);
  return pixmap.getPixels().slice();
}

function differingSamples(a: Uint8ClampedArray, b: Uint8ClampedArray): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  let differ = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
  return differ;
}

/** Draws `content` on page 1 after what it draws, with `xobjects` as its forms. */
function drawOnPageOne(doc: mupdf.PDFDocument, content: string, xobjects: Record<string, mupdf.PDFObject>) {
  const page = doc.findPage(0);
  const dictionary = doc.newDictionary();
  for (const [name, form] of Object.entries(xobjects)) dictionary.put(name, form);
  page.get("Resources").put("XObject", dictionary);
  const contents = page.get("Contents");
  contents.writeStream(`${contents.readStream().asString()}\n${content}`);
}

/** A form XObject drawing `content` in `bbox`, with `extra` entries (resources, matrix, group). */
function formOf(
  doc: mupdf.PDFDocument,
  content: string,
  bbox: number[],
  extra: Record<string, unknown> = {},
) {
  return doc.addStream(content, { Type: "XObject", Subtype: "Form", BBox: bbox, ...extra });
}

/** Whether `qpdf --check` passes on `bytes`. */
function qpdfChecks(bytes: Uint8Array): boolean {
  const dir = mkdtempSync(join(tmpdir(), "compress-structure-"));
  try {
    const path = join(dir, "out.pdf");
    writeFileSync(path, bytes);
    return spawnSync("qpdf", ["--check", path]).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A document with an XMP packet whose description holds `properties`. */
function withXmp(doc: mupdf.PDFDocument, properties: string): string {
  const xml = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">${properties}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const stream = doc.addRawStream(new TextEncoder().encode(xml), { Type: "Metadata", Subtype: "XML" });
  doc.getTrailer().get("Root").put("Metadata", stream);
  return xml;
}

describe("compressPdf on files claiming PDF/A", () => {
  it("writes a PDF/A-1 file with a cross-reference table and no object streams (PDF 1.4 has neither)", async () => {
    const archival = (part: number) => {
      const doc = textPdfDocument(`Archived${part}`, 12);
      // Drawings stored without a filter: something for the compression to gain.
      const lines = Array.from({ length: 200 }, (_, i) => `${i} 10 m ${i} 20 l`).join(" ");
      for (let i = 0; i < 12; i++) {
        const contents = doc.findPage(i).get("Contents");
        contents.writeStream(`${contents.readStream().asString()} q ${lines} S Q`);
      }
      const xml = withXmp(
        doc,
        `<pdfaid:part>${part}</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>`,
      );
      return { input: save(doc, ""), xml };
    };
    const part1 = archival(1);
    const out = await compressed(part1.input);
    expect(out.length).toBeLessThan(part1.input.length);
    const text = latin1(out);
    expect(text).toMatch(/\nxref\r?\n0 \d+/);
    expect(text).not.toContain("/ObjStm");
    expect(text).not.toContain("/XRef");
    expect(qpdfChecks(out)).toBe(true);
    const doc = openPdf(out);
    expect(pageTexts(doc)).toEqual(Array.from({ length: 12 }, (_, i) => `Archived1 page ${i + 1}`));
    const metadata = doc.getTrailer().get("Root", "Metadata");
    expect(metadata.get("Filter").isNull()).toBe(true);
    expect(metadata.readStream().asString()).toBe(part1.xml);
    // PDF/A-2 is based on PDF 1.7: object streams stay.
    const part2 = archival(2);
    expect(latin1(await compressed(part2.input))).toContain("/ObjStm");
  });
});

describe("compressPdf on document JavaScript held in streams", () => {
  it("stores each script as a string in its action (packed into an object stream), its bytes unchanged", async () => {
    const doc = textPdfDocument("Scripted", 1);
    // Parentheses, backslashes, CR LF, tabs and Latin-1 bytes: what a string must escape.
    const ascii = Array.from(
      { length: 40 },
      (_, i) => `function f${i}(a) {\r\n\tif (a > ${i}) app.alert("(${i}) \\\\ done");\r\n}\r\n`,
    ).join("");
    const latin = Uint8Array.from([...new TextEncoder().encode("app.alert('"), 0xe9, 0xe8, 0xff, 0x28, 0x29]);
    const utf16 = Uint8Array.from([0xfe, 0xff, 0x00, 0x52, 0x00, 0xe9, 0x00, 0x73, 0x00, 0x75]);
    const shared = doc.addStream(new TextEncoder().encode(ascii), {});
    const action = (script: mupdf.PDFObject) => doc.addObject({ S: doc.newName("JavaScript"), JS: script });
    const actions = [
      action(shared),
      action(doc.addStream(latin, {})),
      action(doc.addStream(utf16, {})),
      action(shared),
    ];
    const names = doc.newArray();
    actions.forEach((item, i) => {
      names.push(doc.newString(`script${i}`));
      names.push(item);
    });
    doc
      .getTrailer()
      .get("Root")
      .put("Names", doc.addObject({ JavaScript: doc.addObject({ Names: names }) }));
    const out = openPdf(await compressed(save(doc, "")));
    const tree = out.getTrailer().get("Root", "Names", "JavaScript", "Names");
    const expected = [new TextEncoder().encode(ascii), latin, utf16, new TextEncoder().encode(ascii)];
    expected.forEach((bytes, i) => {
      const script = tree.get(2 * i + 1, "JS");
      expect(script.isString()).toBe(true);
      expect([...script.asByteString()]).toEqual([...bytes]);
    });
  });
});

describe("compressPdf on document-level entries that repeat what a reader knows", () => {
  it("drops a form dictionary without fields when no page has a widget, and keeps real forms", async () => {
    const withEmptyForm = (widget: boolean) => {
      const doc = textPdfDocument("Formless", 2);
      const helvetica = doc.addObject({ Type: "Font", Subtype: "Type1", BaseFont: "Helvetica" });
      const form = doc.addObject({ Fields: doc.newArray(), DR: { Font: { Helv: helvetica } } });
      form.put("DA", doc.newString("/Helv 0 Tf 0 g"));
      doc.getTrailer().get("Root").put("AcroForm", form);
      if (widget) {
        const annotation = doc.addObject({
          Type: "Annot",
          Subtype: "Widget",
          Rect: [72, 72, 200, 90],
          FT: "Tx",
        });
        doc.findPage(1).put("Annots", doc.newArray());
        doc.findPage(1).get("Annots").push(annotation);
      }
      return save(doc, "");
    };
    const out = openPdf(await compressed(withEmptyForm(false)));
    expect(out.getTrailer().get("Root", "AcroForm").isNull()).toBe(true);
    expect(pageTexts(out)).toEqual(["Formless page 1", "Formless page 2"]);
    // A widget outside /Fields, or a real field: the form stays.
    const widget = openPdf(await compressed(withEmptyForm(true)));
    expect(widget.getTrailer().get("Root", "AcroForm", "DR", "Font", "Helv").isNull()).toBe(false);
    const field = openPdf(await compressed(textPdf("Filled", 1, { field: ["name", "Ada"] })));
    // A font embedded for fields to come (compress-pdf.test.ts keeps such forms' fonts whole).
    const doc = textPdfDocument("Template", 1);
    const embedded = doc.addFont(new mupdf.Font("Times-Roman"));
    doc
      .getTrailer()
      .get("Root")
      .put(
        "AcroForm",
        doc.addObject({
          Fields: doc.newArray(),
          DA: doc.newString("/F1 0 Tf 0 g"),
          DR: { Font: { F1: embedded } },
        }),
      );
    const template = openPdf(await compressed(save(doc, "")));
    expect(template.getTrailer().get("Root", "AcroForm", "DR", "Font", "F1").isNull()).toBe(false);
    expect(field.getTrailer().get("Root", "AcroForm", "Fields").length).toBe(1);
  });

  it("drops XMP that only repeats the document information, and keeps XMP that says more", async () => {
    const described = (properties: string, title = "Quarterly report") => {
      const doc = textPdfDocument("Described", 1);
      const info = doc.addObject({});
      info.put("Title", doc.newString(title));
      info.put("Producer", doc.newString("Writer 5.2 (c) Someone"));
      info.put("CreationDate", doc.newString("D:20250310104055+01'00'"));
      info.put("ModDate", doc.newString("D:20250310100354Z"));
      doc.getTrailer().put("Info", info);
      withXmp(doc, properties);
      return save(doc, "");
    };
    const repeated =
      '<xmp:CreateDate>2025-03-10T10:40:55+01:00</xmp:CreateDate><xmp:ModifyDate>2025-03-10T11:03:54+01:00</xmp:ModifyDate><xmp:MetadataDate>2025-03-10T11:03:54+01:00</xmp:MetadataDate><dc:format>application/pdf</dc:format><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Quarterly report</rdf:li></rdf:Alt></dc:title><xmpMM:DocumentID>uuid:5d0a8a2c</xmpMM:DocumentID><pdf:Producer>Writer 5.2 (c) Someone</pdf:Producer>';
    const dropped = openPdf(await compressed(described(repeated)));
    expect(dropped.getTrailer().get("Root", "Metadata").isNull()).toBe(true);
    expect(dropped.getTrailer().get("Info", "Title").asString()).toBe("Quarterly report");
    expect(dropped.getTrailer().get("Info", "ModDate").asString()).toBe("D:20250310100354Z");
    // A property /Info does not hold, a title it holds otherwise, a date at another instant: kept.
    const saysMore = [
      described(
        `${repeated}<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">CC BY</rdf:li></rdf:Alt></dc:rights>`,
      ),
      described(repeated, "Another title"),
      described(repeated.replace("10:40:55+01:00", "10:40:55+02:00")),
    ];
    for (const input of saysMore) {
      const kept = openPdf(await compressed(input))
        .getTrailer()
        .get("Root", "Metadata");
      expect(kept.readStream().asString()).toContain("Quarterly report");
    }
  });

  it("drops page boxes equal to their defaults and the page-piece date, and keeps boxes that differ", async () => {
    const doc = textPdfDocument("Boxed", 2);
    const pieces = doc.addObject({ Illustrator: { Private: doc.newString("artwork") } });
    for (const index of [0, 1]) {
      const page = doc.findPage(index);
      page.put("CropBox", [0, 0, 595, 842]);
      page.put("BleedBox", [0, 0, 595, 842]);
      page.put("ArtBox", [595, 842, 0, 0]);
      page.put("TrimBox", index === 0 ? [0, 0, 595, 842] : [10, 10, 585, 832]);
      page.put("PieceInfo", pieces);
      page.put("LastModified", doc.newString("D:20250310110254+01'00'"));
    }
    const out = openPdf(await compressed(save(doc, "")));
    for (const index of [0, 1]) {
      const page = out.findPage(index);
      for (const key of ["CropBox", "BleedBox", "ArtBox", "LastModified"])
        expect(page.get(key).isNull()).toBe(true);
      expect(page.get("MediaBox").isNull() && page.get("Parent", "MediaBox").isNull()).toBe(false);
    }
    expect(out.findPage(0).get("TrimBox").isNull()).toBe(true);
    expect(out.findPage(1).get("TrimBox").toString()).toBe("[10 10 585 832]");
    expect(out.loadPage(1).getBounds("TrimBox")).toEqual([10, 10, 585, 832]);
  });

  it("drops a form's default type and matrix and obsolete procedure sets", async () => {
    const doc = textPdfDocument("Formed", 1);
    const form = (matrix: number[]) =>
      doc.addStream("0 0 1 rg 0 0 50 50 re f", {
        Type: "XObject",
        Subtype: "Form",
        FormType: 1,
        BBox: [0, 0, 50, 50],
        Matrix: matrix,
        Resources: { ProcSet: ["PDF"] },
      });
    // Each drawn twice: forms drawn once are drawn in place (see below).
    drawOnPageOne(doc, "q 1 0 0 1 100 100 cm /A Do Q q 1 0 0 1 300 100 cm /B Do Q /A Do /B Do", {
      A: form([1, 0, 0, 1, 0, 0]),
      B: form([2, 0, 0, 2, 0, 0]),
    });
    const input = save(doc, "");
    const out = await compressed(input);
    const forms = openPdf(out).findPage(0).get("Resources", "XObject");
    for (const key of ["FormType", "Matrix"]) expect(forms.get("A", key).isNull()).toBe(true);
    expect(forms.get("A", "Resources", "ProcSet").isNull()).toBe(true);
    expect(forms.get("B", "Matrix").toString()).toBe("[2 0 0 2 0 0]");
    expect(differingSamples(pageOnePixels(out), pageOnePixels(input))).toBe(0);
  });
});

describe("compressPdf on drawings that draw nothing", () => {
  it("removes forms that paint nothing, the groups they leave empty and empty layers, drawing the same", async () => {
    const doc = textPdfDocument("Flattened", 1);
    // A flattened empty text field's appearance: marked content and state, no paint.
    const empty = formOf(doc, "0 TL\nq\n/Tx BMC\nEMC\nQ", [0, 0, 100, 20], { Resources: {} });
    const line = formOf(doc, "0 0 0 RG 2 w 0 0 m 180 70 l S", [0, 0, 200, 80], { Resources: {} });
    const layer = doc.addObject({ Type: "OCG", Name: doc.newString("Layer 1") });
    doc.findPage(0).get("Resources").put("Properties", doc.newDictionary());
    doc.findPage(0).get("Resources", "Properties").put("MC0", layer);
    const fields = Array.from({ length: 6 }, (_, i) => `q 1 0 0 1 ${20 + 90 * i} 780 cm /E${i} Do Q`).join(
      "\n",
    );
    drawOnPageOne(
      doc,
      `/OC /MC0 BDC\nEMC\n/Span <</MCID 0>> BDC\nEMC\nq 0.5 0 0 0.5 100 300 cm /Line Do Q /Line Do\n${fields}`,
      { Line: line, ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`E${i}`, empty])) },
    );
    const input = save(doc, "");
    const out = await compressed(input);
    const page = openPdf(out).findPage(0);
    const content = page.get("Contents").readStream().asString();
    expect(content).not.toMatch(/\/E\d Do/);
    expect(content).not.toContain("/OC /MC0");
    expect(content).toContain("/Line Do");
    expect(content).toContain("/Span <</MCID 0>> BDC");
    const names: string[] = [];
    page.get("Resources", "XObject").forEach((_value, key) => {
      names.push(String(key));
    });
    expect(names).toEqual(["Line"]);
    expect(page.get("Resources", "Properties").isNull()).toBe(true);
    expect(differingSamples(pageOnePixels(out), pageOnePixels(input))).toBe(0);
    expect(pageTexts(openPdf(out))).toEqual(["Flattened page 1"]);
  });
});

describe("compressPdf on forms drawn once", () => {
  it("draws in place a form one page draws once, clipped and placed as the form was, and keeps the others", async () => {
    const doc = textPdfDocument("Inlined", 2);
    const colour = doc.addObject({ Type: "ExtGState", ca: 0.5 });
    // Drawn once, with a matrix, a clip smaller than what it paints and a resource of its own.
    const once = doc.addStream("/Half gs 0 0 1 rg 0 0 300 300 re f BT /F1 12 Tf 10 10 Td (Inside) Tj ET", {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 120, 80],
      Matrix: [1.5, 0, 0, 1.5, 10, 20],
      Resources: {
        ExtGState: { Half: colour },
        Font: { F1: doc.findPage(0).get("Resources", "Font", "F1") },
      },
    });
    const shared = doc.addStream("1 0 0 rg 0 0 40 40 re f", {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 40, 40],
    });
    const grouped = doc.addStream("0 1 0 rg 0 0 40 40 re f", {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 40, 40],
      Group: { S: "Transparency" },
    });
    drawOnPageOne(doc, "q 1 0 0 1 100 400 cm /Once Do Q q 1 0 0 1 400 400 cm /Shared Do Q /Grouped Do", {
      Once: once,
      Shared: shared,
      Grouped: grouped,
    });
    // The second page draws the shared form too.
    const second = doc.findPage(1);
    second.get("Resources").put("XObject", doc.newDictionary());
    second.get("Resources", "XObject").put("Shared", shared);
    second.get("Contents").writeStream(`${second.get("Contents").readStream().asString()} /Shared Do`);
    const input = save(doc, "");
    const out = await compressed(input);
    const page = openPdf(out).findPage(0);
    expect(page.get("Resources", "XObject", "Once").isNull()).toBe(true);
    expect(page.get("Resources", "XObject", "Shared").isNull()).toBe(false);
    expect(page.get("Resources", "XObject", "Grouped").isNull()).toBe(false);
    expect(page.get("Resources", "ExtGState", "Half").get("ca").asNumber()).toBe(0.5);
    expect(page.get("Contents").readStream().asString()).toContain("1.5 0 0 1.5 10 20 cm 0 0 120 80 re W n");
    expect(differingSamples(pageOnePixels(out), pageOnePixels(input))).toBe(0);
    expect(pageTexts(openPdf(out))).toEqual(pageTexts(openPdf(input)));
  });
});

describe("compressPdf on a form drawn inside a text object", () => {
  it("leaves a form a page draws between BT and ET a form (q and re are not allowed there)", async () => {
    const doc = textPdfDocument("Text object", 1);
    const drawn = formOf(doc, "0 0 1 rg 0 0 40 40 re f", [0, 0, 40, 40]);
    drawOnPageOne(doc, "BT /F1 12 Tf 100 500 Td (Before) Tj /Inside Do (After) Tj ET", { Inside: drawn });
    const out = await compressed(save(doc, ""));
    const page = openPdf(out).findPage(0);
    expect(page.get("Resources", "XObject", "Inside").isStream()).toBe(true);
    expect(page.get("Contents").readStream().asString()).toMatch(/\/Inside\s+Do/);
  });
});

describe("compressPdf on Type 3 glyphs that draw with the page's resources", () => {
  it("keeps the images and forms a Type 3 font without resources of its own draws, and draws the same", async () => {
    const doc = textPdfDocument("Glyphs", 1);
    const image = doc.addRawStream(
      Uint8Array.from({ length: 8 * 8 * 3 }, (_, i) => (i * 37) % 256),
      {
        Type: "XObject",
        Subtype: "Image",
        Width: 8,
        Height: 8,
        ColorSpace: "DeviceRGB",
        BitsPerComponent: 8,
      },
    );
    const square = doc.addStream("0 0 1 rg 0 0 600 600 re f", {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 1000, 1000],
    });
    // PDF 1.2-era glyphs: no /Resources in the font, so /Im0 and /Fm0 are the page's.
    const font = doc.addObject({
      Type: "Font",
      Subtype: "Type3",
      FontBBox: [0, 0, 1000, 1000],
      FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
      CharProcs: {
        a: doc.addStream("1000 0 d0 q 800 0 0 800 100 100 cm /Im0 Do Q", {}),
        b: doc.addStream("1000 0 d0 /Fm0 Do", {}),
      },
      Encoding: { Type: "Encoding", Differences: [97, "a", "b"] },
      FirstChar: 97,
      LastChar: 98,
      Widths: [1000, 1000],
    });
    doc.findPage(0).get("Resources", "Font").put("T3", font);
    // The page draws the form once itself: it must not be drawn in place (and dropped) either.
    drawOnPageOne(doc, "BT /T3 60 Tf 100 500 Td (abab) Tj ET q 1 0 0 1 300 300 cm /Fm0 Do Q", {
      Im0: image,
      Fm0: square,
    });
    const input = save(doc, "");
    const out = await compressed(input);
    const page = openPdf(out).findPage(0);
    expect(page.get("Resources", "XObject", "Im0").isNull()).toBe(false);
    expect(page.get("Resources", "XObject", "Fm0").isNull()).toBe(false);
    expect(differingSamples(pageOnePixels(out), pageOnePixels(input))).toBe(0);
  });
});

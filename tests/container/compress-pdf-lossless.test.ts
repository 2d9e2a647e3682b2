/**
 * Compress PDF on images kept exactly or in their own colours, and on data no viewer reads: a
 * spot-colour gradient re-coded with a PNG predictor, an Indexed (CMYK palette) drawing resampled
 * back into its palette, path coordinates written with six decimals, colour spaces tied to an
 * embedded sRGB profile, document XMP stored as plain text, a LibreOffice hybrid PDF's source
 * document, pdfTeX's notes on included figures, and JavaScript stored as UTF-16 text. PDFs built
 * in code.
 */
import { deflateSync } from "node:zlib";
import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { compressPdf } from "../../engines/pdf/compress.ts";
import { ssim } from "../support/ssim.ts";
import { openPdf, pageTexts, pdfInput, save, textPdfDocument } from "./fixtures.ts";

/** A one-page text PDF that draws `image` (named /Im) with the `cm` matrix `placement`. */
function pdfDrawing(
  label: string,
  image: (doc: mupdf.PDFDocument) => mupdf.PDFObject,
  placement: string,
): Uint8Array {
  const doc = textPdfDocument(label, 1);
  const page = doc.findPage(0);
  const xobjects = doc.newDictionary();
  xobjects.put("Im", image(doc));
  page.get("Resources").put("XObject", xobjects);
  const contents = page.get("Contents");
  contents.writeStream(`q ${placement} cm /Im Do Q ${contents.readStream().asString()}`);
  return save(doc, "compress");
}

async function compressed(bytes: Uint8Array): Promise<Uint8Array> {
  const { bytes: out } = await compressPdf([pdfInput("in.pdf", bytes)], { quality: "medium" }, () => {});
  return out;
}

function pageOne(bytes: Uint8Array) {
  const pixmap = openPdf(bytes)
    .loadPage(0)
    .toPixmap(mupdf.Matrix.scale(100 / 72, 100 / 72), mupdf.ColorSpace.DeviceRGB, false, true);
  const view = { width: pixmap.getWidth(), height: pixmap.getHeight(), channels: 3 as const };
  return { ...view, data: pixmap.getPixels().slice() };
}

function drawnImage(bytes: Uint8Array): mupdf.PDFObject {
  return openPdf(bytes).findPage(0).get("Resources", "XObject", "Im");
}

describe("compressPdf on images stored losslessly", () => {
  it("re-codes a spot-colour gradient with a predictor, keeping its colour space and every sample", async () => {
    const side = 256;
    // Two inks mixed into RGB by a PostScript function: a smooth gradient, deflated without a predictor.
    const samples = Uint8Array.from({ length: side * side * 2 }, (_, i) =>
      i % 2 === 0 ? (i >> 1) % side : Math.floor(i / 2 / side),
    );
    const input = pdfDrawing(
      "Gradient",
      (doc) => {
        const tint = doc.addStream("{ 0.5 exch }", {
          FunctionType: 4,
          Domain: [0, 1, 0, 1],
          Range: [0, 1, 0, 1, 0, 1],
        });
        return doc.addRawStream(deflateSync(samples, { level: 9 }), {
          Type: "XObject",
          Subtype: "Image",
          Width: side,
          Height: side,
          BitsPerComponent: 8,
          ColorSpace: ["DeviceN", ["Cyan", "Rose"], "DeviceRGB", tint],
          Filter: "FlateDecode",
        });
      },
      `${side} 0 0 ${side} 72 400`,
    );
    const before = drawnImage(input).readRawStream().getLength();
    const out = await compressed(input);
    const image = drawnImage(out);
    expect(image.get("ColorSpace", 0).asName()).toBe("DeviceN");
    expect(image.get("DecodeParms", "Predictor").asNumber()).toBe(15);
    expect(image.readRawStream().getLength()).toBeLessThan(before / 10);
    expect(image.readStream().asUint8Array()).toEqual(samples);
    expect(ssim(pageOne(input), pageOne(out))).toBeGreaterThanOrEqual(0.99);
  });

  it("resamples an Indexed drawing with a CMYK palette into its own palette, one byte a pixel", async () => {
    const [width, height] = [1600, 1200];
    // Four CMYK inks in bands and a diagonal: a chart or map, drawn 200 pt wide (576 ppi).
    const palette = Uint8Array.from([0, 0, 0, 0, 255, 0, 0, 0, 0, 200, 255, 0, 0, 0, 0, 255]);
    const indices = Uint8Array.from({ length: width * height }, (_, i) => {
      const [x, y] = [i % width, Math.floor(i / width)];
      return Math.abs(x - y) < 40 ? 3 : Math.floor(x / 400) % 3;
    });
    const input = pdfDrawing(
      "Palette",
      (doc) =>
        doc.addStream(indices, {
          Type: "XObject",
          Subtype: "Image",
          Width: width,
          Height: height,
          BitsPerComponent: 8,
          ColorSpace: ["Indexed", "DeviceCMYK", 3, doc.newByteString(palette)],
        }),
      "200 0 0 150 72 400",
    );
    const out = await compressed(input);
    const image = drawnImage(out);
    // 200 pt = 2.78 in at 150 ppi.
    expect(image.get("Width").asNumber()).toBe(417);
    expect(image.get("ColorSpace", 0).asName()).toBe("Indexed");
    expect(image.get("ColorSpace", 1).asName()).toBe("DeviceCMYK");
    expect(image.get("BitsPerComponent").asNumber()).toBe(8);
    const after = image.readStream().asUint8Array();
    expect(after.length).toBe(417 * image.get("Height").asNumber());
    expect(after.every((index) => index <= 3)).toBe(true);
    expect(ssim(pageOne(input), pageOne(out))).toBeGreaterThanOrEqual(0.95);
    expect(pageTexts(openPdf(out))).toEqual(pageTexts(openPdf(input)));
  });
});

describe("compressPdf on content streams", () => {
  it("writes path coordinates with 5 significant digits and leaves other operands as they were", async () => {
    const doc = textPdfDocument("Plot", 1);
    // A plotted curve, as CAD and plotting programs write it: six decimals a coordinate.
    const points = Array.from({ length: 6000 }, (_, i) => {
      const x = 72 + (i * 468) / 6000 + 0.000001 * (i % 7);
      const y = 500 + 120 * Math.sin(i / 150) + 0.0000013 * (i % 11);
      return `${x.toFixed(6)} ${y.toFixed(6)} ${i === 0 ? "m" : "l"}`;
    });
    const page = doc.findPage(0);
    const contents = page.get("Contents");
    const drawing = `q 1.000001 0 0 1.000001 0.123456 0 cm 0.501234 w ${points.join("\n")} S Q\n`;
    contents.writeStream(drawing + contents.readStream().asString());
    const input = save(doc, "compress");
    const before = openPdf(input).findPage(0).get("Contents").readRawStream().getLength();
    const out = await compressed(input);
    const content = openPdf(out).findPage(0).get("Contents");
    expect(content.readRawStream().getLength()).toBeLessThan(before * 0.8);
    const text = content.readStream().asString();
    // The first point, rounded; the matrix and the line width exactly as written.
    expect(text).toContain("72 500 m");
    expect(text).toContain("1.000001 0 0 1.000001 0.123456 0 cm 0.501234 w");
    expect(text).not.toMatch(/\d\.\d{5,} \d+\.\d+ l/);
    expect(ssim(pageOne(input), pageOne(out))).toBeGreaterThanOrEqual(0.99);
    expect(pageTexts(openPdf(out))).toEqual(pageTexts(openPdf(input)));
  });
});

/**
 * A matrix/TRC RGB display profile (ICC v2) with the sRGB primaries and white point (D50) and a
 * 2.2 gamma, described as `name`.
 */
function rgbProfile(name: string): Uint8Array {
  const xyz = (x: number, y: number, z: number) => {
    const tag = new DataView(new ArrayBuffer(20));
    tag.setUint32(0, 0x58595a20);
    [x, y, z].forEach((value, i) => {
      tag.setInt32(8 + 4 * i, Math.round(value * 65536));
    });
    return new Uint8Array(tag.buffer);
  };
  const desc = new Uint8Array(92 + name.length);
  new DataView(desc.buffer).setUint32(0, 0x64657363);
  new DataView(desc.buffer).setUint32(8, name.length + 1);
  desc.set(new TextEncoder().encode(name), 12);
  const curve = Uint8Array.from([0x63, 0x75, 0x72, 0x76, 0, 0, 0, 0, 0, 0, 0, 1, 0x02, 0x33, 0, 0]);
  const tags: [string, Uint8Array][] = [
    ["desc", desc],
    ["wtpt", xyz(0.9642, 1, 0.8249)],
    ["rXYZ", xyz(0.4361, 0.2225, 0.0139)],
    ["gXYZ", xyz(0.3851, 0.7169, 0.0971)],
    ["bXYZ", xyz(0.1431, 0.0606, 0.7141)],
    ["rTRC", curve],
    ["gTRC", curve],
    ["bTRC", curve],
  ];
  let at = 132 + 12 * tags.length;
  const placed = tags.map(([signature, data]) => {
    const offset = at;
    at += Math.ceil(data.length / 4) * 4;
    return { signature, data, offset };
  });
  const profile = new Uint8Array(at);
  const view = new DataView(profile.buffer);
  const ascii = (offset: number, text: string) => profile.set(new TextEncoder().encode(text), offset);
  view.setUint32(0, at);
  view.setUint32(8, 0x02100000);
  ascii(12, "mntrRGB XYZ ");
  ascii(36, "acsp");
  view.setInt32(68, Math.round(0.9642 * 65536));
  view.setInt32(72, 65536);
  view.setInt32(76, Math.round(0.8249 * 65536));
  view.setUint32(128, tags.length);
  for (const [index, { signature, data, offset }] of placed.entries()) {
    ascii(132 + 12 * index, signature);
    view.setUint32(136 + 12 * index, offset);
    view.setUint32(140 + 12 * index, data.length);
    profile.set(data, offset);
  }
  return profile;
}

describe("compressPdf on colour spaces", () => {
  const profiled = (name: string) =>
    pdfDrawing(
      "Profiled",
      (doc) => {
        const space = doc.addObject(doc.newArray());
        space.push(doc.newName("ICCBased"));
        space.push(doc.addStream(rgbProfile(name), { N: 3 }));
        const page = doc.findPage(0);
        const spaces = doc.newDictionary();
        spaces.put("CS0", space);
        page.get("Resources").put("ColorSpace", spaces);
        const contents = page.get("Contents");
        contents.writeStream(`/CS0 cs 0.2 0.5 0.8 sc 72 300 200 80 re f ${contents.readStream().asString()}`);
        const pixels = Uint8Array.from({ length: 64 * 64 * 3 }, (_, i) => (i * 7) % 256);
        return doc.addStream(pixels, {
          Type: "XObject",
          Subtype: "Image",
          Width: 64,
          Height: 64,
          BitsPerComponent: 8,
          ColorSpace: space,
        });
      },
      "64 0 0 64 300 300",
    );

  it("draws colours tied to an embedded sRGB profile as DeviceRGB, and drops the profile", async () => {
    const input = profiled("sRGB IEC61966-2.1");
    const out = await compressed(input);
    const page = openPdf(out).findPage(0);
    expect(page.get("Resources", "ColorSpace", "CS0").asName()).toBe("DeviceRGB");
    expect(page.get("Resources", "XObject", "Im", "ColorSpace").asName()).toBe("DeviceRGB");
    expect(out.length).toBeLessThan(input.length - 300);
    expect(ssim(pageOne(input), pageOne(out))).toBeGreaterThanOrEqual(0.99);
  });

  it("keeps a profile of another RGB space", async () => {
    const out = await compressed(profiled("Adobe RGB (1998)"));
    const space = openPdf(out).findPage(0).get("Resources", "ColorSpace", "CS0");
    expect(space.get(0).asName()).toBe("ICCBased");
  });
});

describe("compressPdf on data no viewer reads", () => {
  it("drops a hybrid PDF's source document (trailer /AdditionalStreams)", async () => {
    const doc = textPdfDocument("Hybrid", 1);
    let seed = 11;
    // 200 KB of incompressible bytes (xorshift), as a zipped ODF package is.
    const source = Uint8Array.from({ length: 200_000 }, () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed & 0xff;
    });
    const stream = doc.addStream(source, {}).asIndirect();
    // MuPDF writes only the standard trailer keys: the entry goes into the trailer as text.
    const saved = Buffer.from(save(doc, "compress")).toString("latin1");
    const entry = `/AdditionalStreams[/application#2Fvnd.oasis.opendocument.text ${stream} 0 R]`;
    const input = new Uint8Array(Buffer.from(saved.replace(/trailer\s*<</, `trailer\n<<${entry}`), "latin1"));
    expect(openPdf(input).getTrailer().get("AdditionalStreams").isArray()).toBe(true);
    expect(input.length).toBeGreaterThan(source.length);
    const out = await compressed(input);
    expect(out.length).toBeLessThan(input.length - source.length * 0.9);
    expect(openPdf(out).getTrailer().get("AdditionalStreams").isNull()).toBe(true);
    expect(pageTexts(openPdf(out))).toEqual(pageTexts(openPdf(input)));
  });

  it("drops the notes pdfTeX leaves on a form made from an included PDF (/PTEX.*)", async () => {
    const input = pdfDrawing(
      "Figure",
      (doc) =>
        doc.addStream("0 0 1 rg 0 0 100 50 re f", {
          Type: "XObject",
          Subtype: "Form",
          BBox: [0, 0, 100, 50],
          "PTEX.FileName": doc.newString("/home/author/thesis/figures/secret-draft-figure.pdf"),
          "PTEX.PageNumber": 1,
          "PTEX.InfoDict": doc.addObject({
            Producer: doc.newString("Mac OS X 10.8.2 Quartz PDFContext"),
            CreationDate: doc.newString("D:20121211030158Z00'00'"),
          }),
        }),
      // Drawn twice, so that it stays a form (a form drawn once is drawn in place).
      "2 0 0 2 72 400 cm /Im Do Q q 1 0 0 1 300 100",
    );
    const out = await compressed(input);
    const form = drawnImage(out);
    const keys: string[] = [];
    form.forEach((_value, key) => {
      keys.push(String(key));
    });
    expect(keys.some((key) => key.startsWith("PTEX."))).toBe(false);
    // The copied document information is no object of the output any more.
    const pdf = openPdf(out);
    const producers = Array.from({ length: pdf.countObjects() - 1 }, (_, i) => pdf.newIndirect(i + 1)).filter(
      (object) => object.isDictionary() && !object.get("Producer").isNull(),
    );
    expect(producers).toEqual([]);
    expect(form.readStream().asString()).toBe("0 0 1 rg 0 0 100 50 re f");
    expect(ssim(pageOne(input), pageOne(out))).toBeGreaterThanOrEqual(0.999);
  });

  it("deflates the document's XMP, unless the file claims PDF/A-1 (which forbids a filter there)", async () => {
    const withXmp = (claim: string, attributes = "") => {
      const doc = textPdfDocument("Described", 1);
      const subjects = Array.from({ length: 400 }, (_, i) => `<rdf:li>subject ${i}</rdf:li>`).join("");
      const xml = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""${attributes} xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">${claim}<dc:subject><rdf:Bag>${subjects}</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
      const stream = doc.addRawStream(new TextEncoder().encode(xml), { Type: "Metadata", Subtype: "XML" });
      doc.getTrailer().get("Root").put("Metadata", stream);
      return { input: save(doc, "compress"), xml };
    };
    const archival = withXmp("<pdfaid:part>1</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>");
    const kept = openPdf(await compressed(archival.input))
      .getTrailer()
      .get("Root", "Metadata");
    expect(kept.get("Filter").isNull()).toBe(true);
    expect(kept.readStream().asString()).toBe(archival.xml);
    // No claim; PDF/A-2, -3 and -4 only ask for well-formed UTF-8 XMP (no rule on its filter),
    // claimed as an element or as an attribute of the description.
    const deflatable = [
      withXmp(""),
      withXmp("<pdfaid:part>4</pdfaid:part><pdfaid:rev>2020</pdfaid:rev>"),
      withXmp("", ' pdfaid:part="2" pdfaid:conformance="U"'),
    ];
    for (const { input, xml } of deflatable) {
      const metadata = openPdf(await compressed(input))
        .getTrailer()
        .get("Root", "Metadata");
      expect(metadata.get("Filter").asName()).toBe("FlateDecode");
      expect(metadata.readRawStream().getLength()).toBeLessThan(xml.length / 4);
      expect(metadata.readStream().asString()).toBe(xml);
    }
  });
});

describe("compressPdf on document JavaScript", () => {
  /** `text` as a UTF-16BE text string's bytes (byte-order mark first). */
  const utf16 = (text: string) =>
    Uint8Array.from([
      0xfe,
      0xff,
      ...[...text].flatMap((char) => [char.charCodeAt(0) >> 8, char.charCodeAt(0) & 0xff]),
    ]);

  it("stores scripts written as UTF-16 text of ASCII characters as one byte a character, and keeps the others", async () => {
    const doc = textPdfDocument("Scripted", 1);
    // Over the 32,767 bytes of a string once narrowed: the script stays a stream (shorter ones become strings).
    const body = Array.from(
      { length: 600 },
      (_, i) =>
        `function check${i}(field) {\n\tif (field.value > ${(i * 7919) % 100003}) app.alert("Over ${(i * 104729) % 1000003}");\r\n}\n`,
    ).join("");
    const ascii = doc.addObject({ S: doc.newName("JavaScript"), JS: doc.addStream(utf16(body), {}) });
    const accented = doc.addObject({
      S: doc.newName("JavaScript"),
      JS: doc.newByteString(utf16('app.alert("Résumé");')),
    });
    const names = doc.addObject({
      Names: [doc.newString("checks"), ascii, doc.newString("accented"), accented],
    });
    doc
      .getTrailer()
      .get("Root")
      .put("Names", doc.addObject({ JavaScript: names }));
    // A link running a script held in a string of its own action dictionary.
    const link = doc.addObject({
      Type: doc.newName("Annot"),
      Subtype: doc.newName("Link"),
      Rect: [72, 600, 200, 620],
      A: { S: doc.newName("JavaScript"), JS: doc.newByteString(utf16("this.print({bUI: true});")) },
      AA: doc.addObject({
        E: { S: doc.newName("JavaScript"), JS: doc.newByteString(utf16("app.beep(0);")) },
      }),
    });
    doc.findPage(0).put("Annots", doc.newArray());
    doc.findPage(0).get("Annots").push(link);
    const input = save(doc, "compress");
    const scripts = (bytes: Uint8Array) => {
      const pdf = openPdf(bytes);
      const tree = pdf.getTrailer().get("Root", "Names", "JavaScript", "Names");
      return {
        stream: tree.get(1, "JS"),
        accented: tree.get(3, "JS").asByteString(),
        link: pdf.findPage(0).get("Annots", 0, "A", "JS").asByteString(),
        entered: pdf.findPage(0).get("Annots", 0, "AA", "E", "JS").asByteString(),
      };
    };
    const before = scripts(input);
    const after = scripts(await compressed(input));
    expect(new TextDecoder("latin1").decode(after.stream.readStream().asUint8Array())).toBe(body);
    expect(after.stream.readRawStream().getLength()).toBeLessThan(
      before.stream.readRawStream().getLength() * 0.9,
    );
    expect(new TextDecoder("latin1").decode(after.link)).toBe("this.print({bUI: true});");
    expect(new TextDecoder("latin1").decode(after.entered)).toBe("app.beep(0);");
    expect([...after.accented]).toEqual([...before.accented]);
  });
});

/**
 * Test inputs built in code: PDFs made with MuPDF (pages with distinguishable text, bookmarks,
 * links, a note, a form field; encrypted; damaged in repairable and irreparable ways) and PNGs
 * made with sharp. Plus readers that check real properties of outputs.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import type { EngineInput } from "../../engines/types.ts";

export interface PdfOptions {
  /** Bookmarks: [title, 0-based page, children]. */
  readonly outline?: readonly OutlineSpec[];
  /** Each page i links to page (i + 1) % pages, and to https://example.com/<label>. */
  readonly links?: boolean;
  /** A sticky note on the first page with this text. */
  readonly note?: string;
  /** A text form field on the first page: [field name, value]. */
  readonly field?: readonly [string, string];
  /** A signed signature field whose value references the catalog (a DocMDP signature does). */
  readonly signed?: boolean;
  /** The document's language (the catalog's /Lang). */
  readonly lang?: string;
}

export type OutlineSpec = readonly [title: string, page: number, children?: readonly OutlineSpec[]];

/** Text drawn on page `index` (0-based) of a fixture labelled `label`. */
export function pageText(label: string, index: number): string {
  return `${label} page ${index + 1}`;
}

export function textPdfDocument(label: string, pages: number, options: PdfOptions = {}): mupdf.PDFDocument {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font("Helvetica"));
  for (let i = 0; i < pages; i++) {
    const resources = doc.addObject({ Font: { F1: font } });
    const contents = `BT /F1 24 Tf 72 720 Td (${pageText(label, i)}) Tj ET`;
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, contents));
  }
  if (options.links) {
    for (let i = 0; i < pages; i++) {
      const page = doc.loadPage(i);
      page.createLink([72, 100, 300, 130], `#page=${((i + 1) % pages) + 1}`);
      page.createLink([72, 200, 300, 230], `https://example.com/${label}`);
    }
  }
  if (options.outline) {
    const iterator = doc.outlineIterator();
    const insert = (items: readonly OutlineSpec[]) => {
      for (const [title, page, children] of items) {
        iterator.insert({ title, uri: `#page=${page + 1}`, open: true });
        if (!children?.length) continue;
        iterator.prev();
        iterator.down();
        insert(children);
        iterator.up();
        iterator.next();
      }
    };
    insert(options.outline);
  }
  if (options.note) {
    const note = doc.loadPage(0).createAnnotation("Text");
    note.setRect([400, 700, 420, 720]);
    note.setContents(options.note);
    note.update();
  }
  if (options.field) addTextField(doc, options.field[0], options.field[1]);
  if (options.signed) addSignedField(doc);
  if (options.lang) doc.getTrailer().get("Root").put("Lang", doc.newString(options.lang));
  return doc;
}

/** A text field with its widget on the first page, written as plain PDF objects. */
/**
 * Three pages; page 1 links to page 3 by the string destination "chapter-3" (a GoTo link and a
 * GoTo action). With `nameTree` the catalog's /Names /Dests tree defines it; without, the catalog
 * has no /Names at all, as `qpdf --empty --pages … --` and many page-extraction tools write.
 */
export function namedDestinationPdf(label: string, nameTree: boolean): Uint8Array {
  const doc = textPdfDocument(label, 3);
  const page = doc.findPage(0);
  const annots = doc.newArray();
  annots.push(
    doc.addObject({
      Type: "Annot",
      Subtype: "Link",
      Rect: [72, 100, 300, 130],
      Dest: doc.newString("chapter-3"),
    }),
  );
  annots.push(
    doc.addObject({
      Type: "Annot",
      Subtype: "Link",
      Rect: [72, 200, 300, 230],
      A: { S: "GoTo", D: doc.newString("chapter-3") },
    }),
  );
  page.put("Annots", annots);
  if (nameTree) {
    const target = doc.newArray();
    target.push(doc.findPage(2));
    target.push(doc.newName("Fit"));
    const names = doc.newArray();
    names.push(doc.newString("chapter-3"));
    names.push(target);
    doc
      .getTrailer()
      .get("Root")
      .put("Names", doc.addObject({ Dests: { Names: names } }));
  }
  return save(doc);
}

function addTextField(doc: mupdf.PDFDocument, name: string, value: string): void {
  addField(doc, "Tx", name, doc.newString(value));
}

function addSignedField(doc: mupdf.PDFDocument): void {
  const reference = doc.newDictionary();
  reference.put("Type", doc.newName("SigRef"));
  reference.put("TransformMethod", doc.newName("DocMDP"));
  reference.put("Data", doc.getTrailer().get("Root"));
  const signature = doc.addObject(doc.newDictionary());
  signature.put("Type", doc.newName("Sig"));
  signature.put("Filter", doc.newName("Adobe.PPKLite"));
  signature.put("Reference", [reference]);
  addField(doc, "Sig", "signature", signature);
}

function addField(doc: mupdf.PDFDocument, type: string, name: string, value: mupdf.PDFObject): void {
  const page = doc.findPage(0);
  const widget = doc.addObject(doc.newDictionary());
  widget.put("Type", doc.newName("Annot"));
  widget.put("Subtype", doc.newName("Widget"));
  widget.put("FT", doc.newName(type));
  widget.put("T", doc.newString(name));
  widget.put("V", value);
  widget.put("Rect", [72, 400, 300, 430]);
  widget.put("P", page);
  const annots = page.get("Annots");
  if (annots.isArray()) annots.push(widget);
  else page.put("Annots", [widget]);
  const root = doc.getTrailer().get("Root");
  const fields = root.get("AcroForm", "Fields");
  if (fields.isArray()) {
    fields.push(widget);
    return;
  }
  const form = doc.newDictionary();
  form.put("Fields", [widget]);
  form.put("DA", doc.newString("/Helv 12 Tf 0 g"));
  root.put("AcroForm", form);
}

export function save(doc: mupdf.PDFDocument, options = "compress"): Uint8Array {
  return doc.saveToBuffer(options).asUint8Array().slice();
}

export function textPdf(label: string, pages: number, options: PdfOptions = {}): Uint8Array {
  return save(textPdfDocument(label, pages, options));
}

export function encryptedPdf(): Uint8Array {
  return save(textPdfDocument("Secret", 2), "encrypt=aes-256,user-password=x,owner-password=y");
}

/** A valid PDF whose cross-reference offsets are all wrong: MuPDF rebuilds them on open. */
export function repairablePdf(label: string, pages: number): Uint8Array {
  const text = new TextDecoder("latin1").decode(save(textPdfDocument(label, pages), ""));
  const broken = text
    .replace(/^(\d{10}) (\d{5}) n/gm, (_, _offset, generation) => `0000000009 ${generation} n`)
    .replace(/startxref\s+\d+/, "startxref\n123");
  return Uint8Array.from(broken, (c) => c.charCodeAt(0));
}

/** A PDF header followed by bytes that hold no PDF objects at all. */
export function irreparablePdf(): Uint8Array {
  const bytes = new Uint8Array(4096);
  let seed = 42;
  for (let i = 0; i < bytes.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = seed & 0xff;
  }
  bytes.set(new TextEncoder().encode("%PDF-1.7\n"), 0);
  return bytes;
}

/** A well-formed PDF whose page tree is empty. */
export function emptyPdf(): Uint8Array {
  return save(new mupdf.PDFDocument(), "");
}

/** A PDF whose one page draws a large grey image of random (incompressible) bytes. */
export function heavyPdf(megabytes: number, seed: number): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const side = Math.floor(Math.sqrt(megabytes * 1024 * 1024));
  const pixels = new Uint8Array(side * side);
  let state = seed;
  for (let i = 0; i < pixels.length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = state >> 16;
  }
  const image = doc.addRawStream(pixels, {
    Type: "XObject",
    Subtype: "Image",
    Width: side,
    Height: side,
    ColorSpace: "DeviceGray",
    BitsPerComponent: 8,
  });
  const resources = doc.addObject({ XObject: { Im1: image } });
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, "q 595 0 0 842 0 0 cm /Im1 Do Q"));
  return save(doc, "");
}

export function pdfInput(name: string, bytes: Uint8Array): EngineInput {
  return { name, kind: "pdf", bytes };
}

export function openPdf(bytes: Uint8Array): mupdf.PDFDocument {
  return new mupdf.PDFDocument(bytes);
}

/** The text of every page, trimmed. */
export function pageTexts(doc: mupdf.PDFDocument): string[] {
  const texts: string[] = [];
  for (let i = 0; i < doc.countPages(); i++) {
    texts.push(doc.loadPage(i).toStructuredText("preserve-whitespace").asText().trim());
  }
  return texts;
}

export interface FlatBookmark {
  readonly title: string;
  readonly page: number | undefined;
  readonly depth: number;
}

export function flatOutline(doc: mupdf.PDFDocument): FlatBookmark[] {
  const flat: FlatBookmark[] = [];
  const walk = (items: ReturnType<mupdf.Document["loadOutline"]>, depth: number) => {
    for (const item of items ?? []) {
      flat.push({ title: item.title ?? "", page: item.page, depth });
      walk(item.down ?? null, depth + 1);
    }
  };
  walk(doc.loadOutline(), 0);
  return flat;
}

/** Objects of type /Page anywhere in the file: more than the page count means copied-along pages. */
export function countPageObjects(doc: mupdf.PDFDocument): number {
  let count = 0;
  for (let i = 1; i < doc.countObjects(); i++) {
    const object = doc.newIndirect(i).resolve();
    if (object.isDictionary() && object.get("Type").asName() === "Page") count++;
  }
  return count;
}

/** An RGBA PNG: left half opaque red, right half fully transparent (hidden colour: black). */
export async function halfTransparentPng(width: number, height: number): Promise<Uint8Array> {
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width / 2; x++) pixels.set([255, 0, 0, 255], (y * width + x) * 4);
  }
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

/** An opaque PNG stored landscape with EXIF orientation 6 (display rotated 90° clockwise). */
export async function rotatedPng(width: number, height: number): Promise<Uint8Array> {
  const png = await sharp({ create: { width, height, channels: 3, background: { r: 0, g: 90, b: 200 } } })
    .png()
    .withMetadata({ orientation: 6 })
    .toBuffer();
  return new Uint8Array(png);
}

/**
 * A scanned-fax PDF: page 1 a JBIG2 image, page 2 the same picture as a CCITT Group 4 image, both
 * 1-bit, black where `scannedFaxBlack` says (a block in the top-left quarter), white elsewhere.
 * sharp writes the Group 4 (T.6) data as a one-tile TIFF; the JBIG2 stream is that data wrapped as
 * an MMR generic region (T.88: a page information segment, then an immediate lossless generic
 * region with MMR set), so no encoder is written here.
 */
export async function scannedFaxPdf(): Promise<Uint8Array> {
  const { width, height, block } = scannedFaxBlack;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/><rect x="${block.x}" y="${block.y}" width="${block.width}" height="${block.height}" fill="black"/></svg>`;
  const grey = await sharp(Buffer.from(svg)).flatten({ background: "#fff" }).greyscale().raw().toBuffer();
  const tiff = await sharp(grey, { raw: { width, height, channels: 1 } })
    .toColourspace("b-w")
    .tiff({
      compression: "ccittfax4",
      bitdepth: 1,
      miniswhite: true,
      tile: true,
      tileWidth: width,
      tileHeight: height,
    })
    .toBuffer();
  const g4 = onlyTiffTile(new Uint8Array(tiff));
  const u32 = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
  // Segment header: number, type, no referred-to segments, page 1, data length.
  const segment = (number: number, type: number, data: readonly number[]) => [
    ...u32(number),
    type,
    0,
    1,
    ...u32(data.length),
    ...data,
  ];
  const jbig2 = new Uint8Array([
    ...segment(0, 48, [...u32(width), ...u32(height), ...u32(0), ...u32(0), 0, 0, 0]),
    ...segment(1, 39, [...u32(width), ...u32(height), ...u32(0), ...u32(0), 0, 1, ...g4]),
  ]);
  const doc = new mupdf.PDFDocument();
  const images = [
    { Filter: "JBIG2Decode", bytes: jbig2 },
    { Filter: "CCITTFaxDecode", bytes: g4, DecodeParms: { K: -1, Columns: width, Rows: height } },
  ];
  for (const { bytes, ...filter } of images) {
    const image = doc.addRawStream(bytes, {
      Type: "XObject",
      Subtype: "Image",
      Width: width,
      Height: height,
      ColorSpace: "DeviceGray",
      BitsPerComponent: 1,
      ...filter,
    });
    const resources = doc.addObject({ XObject: { Im1: image } });
    const [w, h] = [(width * 72) / 100, (height * 72) / 100];
    doc.insertPage(-1, doc.addPage([0, 0, w, h], 0, resources, `q ${w} 0 0 ${h} 0 0 cm /Im1 Do Q`));
  }
  return save(doc, "");
}

/** The picture of `scannedFaxPdf`, in pixels (100 dpi): sides multiples of 16 (one TIFF tile). */
export const scannedFaxBlack = { width: 592, height: 800, block: { x: 48, y: 48, width: 224, height: 304 } };

/** The bytes of a TIFF's single tile (TileOffsets 324 and TileByteCounts 325, one value each). */
function onlyTiffTile(tiff: Uint8Array): Uint8Array {
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49;
  const ifd = view.getUint32(4, little);
  const values = new Map<number, number>();
  for (let i = 0; i < view.getUint16(ifd, little); i++) {
    const entry = ifd + 2 + i * 12;
    const short = view.getUint16(entry + 2, little) === 3;
    values.set(
      view.getUint16(entry, little),
      short ? view.getUint16(entry + 8, little) : view.getUint32(entry + 8, little),
    );
  }
  const offset = values.get(324) ?? 0;
  return tiff.slice(offset, offset + (values.get(325) ?? 0));
}

/** The lines every page of `unreadableTextPdf` draws. */
export const UNREADABLE_LINES = [
  "Quarterly report",
  "Sales grew in every region",
  "The new office opened in May",
];

/**
 * A PDF whose pages draw UNREADABLE_LINES in 24-point Helvetica (visible, real glyphs) with a
 * ToUnicode map per page: `private-use` maps every code to U+E000 and on (as some subset fonts
 * do), `replacement` every code to U+FFFD, `readable` has no map (WinAnsi, read as drawn).
 */
export function unreadableTextPdf(
  pages: readonly ("private-use" | "replacement" | "readable")[],
): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const hex4 = (code: number) => `<${code.toString(16).toUpperCase().padStart(4, "0")}>`;
  const maps = {
    "private-use": "1 beginbfrange <20> <7E> <E020> endbfrange",
    replacement: `1 beginbfrange <20> <7E> [${Array.from({ length: 0x5f }, () => hex4(0xfffd)).join(" ")}] endbfrange`,
  };
  for (const kind of pages) {
    const font: Record<string, unknown> = {
      Type: "Font",
      Subtype: "Type1",
      BaseFont: "Helvetica",
      Encoding: "WinAnsiEncoding",
    };
    if (kind !== "readable") {
      const cmap = `/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Unreadable def /CMapType 2 def
1 begincodespacerange <00> <FF> endcodespacerange
${maps[kind]}
endcmap CMapName currentdict /CMap defineresource pop end end`;
      font.ToUnicode = doc.addStream(cmap, {});
    }
    const resources = doc.addObject({ Font: { F1: doc.addObject(font) } });
    const content = UNREADABLE_LINES.map(
      (line, i) => `BT /F1 24 Tf 72 ${720 - i * 48} Td (${line}) Tj ET`,
    ).join("\n");
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, content));
  }
  return save(doc, "");
}

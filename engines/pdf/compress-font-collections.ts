import type * as mupdf from "mupdf";
import { everyObject } from "./every-object.ts";

/** The tag a TrueType collection (several fonts in one file, e.g. Cambria.ttc) starts with. */
const COLLECTION_TAG = 0x74746366; // "ttcf"
/** Name table record id of a font's PostScript name. */
const POSTSCRIPT_NAME_ID = 6;

/**
 * Replaces each embedded TrueType collection (a .ttc file embedded whole: Word embeds the 1.8 MB
 * Cambria.ttc for one Cambria Math equation) by the one font of it the PDF font names, as a plain
 * TrueType file: the subsetter only reads plain TrueType, so collections stayed whole. The face
 * is the one whose PostScript name is the font's /BaseFont (as PDF.js chooses), else the first.
 * Returns how many collections were replaced.
 */
export function extractFontCollections(pdf: mupdf.PDFDocument): number {
  let replaced = 0;
  for (const { object: font } of everyObject(pdf)) {
    try {
      if (!font.isDictionary() || font.get("Type").asName() !== "FontDescriptor") continue;
      const file = font.get("FontFile2");
      if (!file.isStream()) continue;
      const data = file.readStream().asUint8Array();
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      if (data.length < 16 || view.getUint32(0) !== COLLECTION_TAG) continue;
      const name = font.get("FontName").isName()
        ? font
            .get("FontName")
            .asName()
            .replace(/^[A-Z]{6}\+/, "")
        : "";
      const single = singleFont(view, name);
      if (single === null) continue;
      file.writeStream(single);
      file.put("Length1", single.length);
      replaced++;
    } catch {
      // A font that does not read as a collection is left as it is.
    }
  }
  return replaced;
}

/** The face of the collection named `name` (or the first) as a standalone TrueType file. */
function singleFont(view: DataView, name: string): Uint8Array | null {
  const faces = view.getUint32(8);
  const offsets = Array.from({ length: faces }, (_, index) => view.getUint32(12 + 4 * index));
  const face = offsets.find((offset) => postScriptName(view, offset) === name) ?? offsets[0];
  if (face === undefined) return null;
  const tables = Array.from({ length: view.getUint16(face + 4) }, (_, index) => {
    const record = face + 12 + 16 * index;
    return {
      record,
      offset: view.getUint32(record + 8),
      length: view.getUint32(record + 12),
    };
  });
  const headerLength = 12 + 16 * tables.length;
  let size = headerLength;
  for (const table of tables) size += (table.length + 3) & ~3;
  const out = new Uint8Array(size);
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const outView = new DataView(out.buffer);
  out.set(bytes.subarray(face, face + 12), 0);
  let at = headerLength;
  for (const [index, table] of tables.entries()) {
    if (table.offset + table.length > bytes.length) return null;
    out.set(bytes.subarray(table.record, table.record + 8), 12 + 16 * index);
    outView.setUint32(12 + 16 * index + 8, at);
    outView.setUint32(12 + 16 * index + 12, table.length);
    out.set(bytes.subarray(table.offset, table.offset + table.length), at);
    at += (table.length + 3) & ~3;
  }
  return out;
}

/**
 * The PostScript name (name id 6) of the face at `face`, from its Macintosh Roman or Windows
 * Unicode record, or "".
 */
export function postScriptName(view: DataView, face: number): string {
  const tables = view.getUint16(face + 4);
  for (let index = 0; index < tables; index++) {
    const record = face + 12 + 16 * index;
    if (view.getUint32(record) !== 0x6e616d65) continue; // "name"
    const table = view.getUint32(record + 8);
    const records = view.getUint16(table + 2);
    const strings = table + view.getUint16(table + 4);
    for (let r = 0; r < records; r++) {
      const at = table + 6 + 12 * r;
      const platform = view.getUint16(at);
      if ((platform !== 1 && platform !== 3) || view.getUint16(at + 6) !== POSTSCRIPT_NAME_ID) continue;
      const length = view.getUint16(at + 8);
      const start = strings + view.getUint16(at + 10);
      const bytes = new Uint8Array(view.buffer, view.byteOffset + start, length);
      if (platform === 1) return String.fromCharCode(...bytes);
      return String.fromCharCode(
        ...Array.from({ length: length >> 1 }, (_, i) => view.getUint16(start + 2 * i)),
      );
    }
  }
  return "";
}

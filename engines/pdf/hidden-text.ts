/**
 * Text MuPDF's structured text misses on a page where it finds none, though other extractors
 * (pdftotext) read it:
 * - an operator inside a `TJ` array (`[(Grandes) 0.0 Tc -250 (Clientèles)] TJ`, written by some
 *   producers): MuPDF's content parser drops the whole array, so the page shows no text at all.
 *   Poppler skips the stray operator; so does `withoutOperatorsInArrays`, on a copy of the page's
 *   content used only while its text is read;
 * - text shown in render mode 7 (`7 Tr`: added to the clipping path, not painted), which MuPDF's
 *   text device does not collect: `clipText` reads it as if it were painted.
 */
import * as mupdf from "mupdf";
import { ContentLexer, isObjectKeyword } from "./content-lexer.ts";
import { contentStreams } from "./content-operations.ts";

/**
 * The content stream (latin-1 text) with every operator that stands inside an array removed, or
 * null when it has none. Strings, hex strings, comments, dictionaries and inline image data are
 * passed through as they are.
 */
export function withoutOperatorsInArrays(content: string): string | null {
  let out = "";
  let copiedTo = 0;
  let depth = 0;
  const lexer = new ContentLexer(content);
  while (lexer.next()) {
    if (lexer.kind === "[") depth++;
    else if (lexer.kind === "]") depth = Math.max(0, depth - 1);
    else if (lexer.kind !== "word") continue;
    else if (depth > 0 && !isObjectKeyword(lexer.text)) {
      out += `${content.slice(copiedTo, lexer.start)} `;
      copiedTo = lexer.end;
    } else if (depth === 0 && lexer.text === "ID") lexer.imageData();
  }
  return copiedTo === 0 ? null : out + content.slice(copiedTo);
}

/**
 * Runs `read` while the page's content is replaced by a copy without operators inside arrays;
 * returns null (and does not run it) when the content has none. The page's own content object is
 * put back afterwards (the copy is never saved).
 */
export function withArraysRepaired<T>(page: mupdf.PDFPage, read: () => T): T | null {
  const object = page.getObject();
  const contents = object.get("Contents");
  const decoder = new TextDecoder("latin1");
  const text = contentStreams(object)
    .map((stream) => decoder.decode(stream.readStream().asUint8Array()))
    .join("\n");
  const repaired = withoutOperatorsInArrays(text);
  if (repaired === null) return null;
  const bytes = Uint8Array.from(repaired, (char) => char.charCodeAt(0));
  object.put("Contents", page._doc.addStream(bytes, {}));
  try {
    return read();
  } finally {
    object.put("Contents", contents);
  }
}

/**
 * The page's text shown in clipping mode (`7 Tr`, or stroked into a clip), as structured text, or
 * null when it has none. The page is run itself: its display list leaves out a clip whose glyphs
 * have no outline (a font whose glyphs cannot be loaded: recursiveCompositGlyf.pdf).
 */
export function clipText(page: mupdf.Page, options: string): mupdf.StructuredText | null {
  const list = new mupdf.DisplayList(page.getBounds());
  const target = new mupdf.DisplayListDevice(list);
  let found = false;
  const collect = (text: mupdf.Text, ctm: mupdf.Matrix) => {
    found = true;
    // As painted black: MuPDF's text device keeps no text it is told to ignore.
    target.fillText(text, ctm, mupdf.ColorSpace.DeviceGray, [0], 1);
  };
  const device = new mupdf.Device({
    clipText: collect,
    clipStrokeText: (text, _stroke, ctm) => collect(text, ctm),
  });
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
    target.close();
    return found ? list.toStructuredText(options) : null;
  } finally {
    device.destroy();
    target.destroy();
    list.destroy();
  }
}

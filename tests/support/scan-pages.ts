/**
 * Scanned pages made in code: text typeset with the Noto fonts the project ships (Markdown to PDF),
 * drawn in grey at a scanner's resolution, optionally turned (a page fed sideways or upside down),
 * saved as JPEG, and placed one per page in a PDF of images only (no text layer), the way a
 * scanner writes a PDF.
 */
import * as mupdf from "mupdf";
import sharp from "sharp";
import { markdownToPdf } from "../../engines/markdown/markdown-to-pdf.ts";

export interface ScanPage {
  readonly markdown: string;
  /** Clockwise turn of the scanned image, in degrees. */
  readonly turn?: 0 | 90 | 180 | 270;
}

/** The first page of the typeset Markdown as a grey JPEG at `dpi`, turned by `turn`. */
export async function scanImage(page: ScanPage, dpi = 200): Promise<Uint8Array> {
  const typeset = await markdownToPdf(
    [{ name: "page.md", kind: "markdown", bytes: new TextEncoder().encode(page.markdown) }],
    { page_size: "a4" },
    () => {},
  );
  const doc = mupdf.Document.openDocument(typeset.bytes, "application/pdf");
  try {
    const pixmap = doc
      .loadPage(0)
      .toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false);
    const png = pixmap.asPNG().slice();
    pixmap.destroy();
    const jpeg = await sharp(png)
      .rotate(page.turn ?? 0)
      .withMetadata({ density: dpi })
      .jpeg({ quality: 85 })
      .toBuffer();
    return new Uint8Array(jpeg);
  } finally {
    doc.destroy();
  }
}

/** A PDF whose pages are the JPEGs as they are (DCT streams), each page the image's size at `dpi`. */
export function scanPdf(jpegs: readonly Uint8Array[], dpi = 200): Uint8Array {
  const doc = new mupdf.PDFDocument();
  try {
    for (const jpeg of jpegs) {
      const image = new mupdf.Image(jpeg);
      const width = (image.getWidth() * 72) / dpi;
      const height = (image.getHeight() * 72) / dpi;
      const ref = doc.addImage(image);
      const content = `q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q`;
      doc.insertPage(-1, doc.addPage([0, 0, width, height], 0, { XObject: { Im0: ref } }, content));
    }
    const buffer = doc.saveToBuffer("compress");
    const bytes = buffer.asUint8Array().slice();
    buffer.destroy();
    return bytes;
  } finally {
    doc.destroy();
  }
}

/** The images of a PDF's pages, raw stream bytes in page order (to check they are unchanged). */
export function pageImageStreams(bytes: Uint8Array): Uint8Array[] {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf").asPDF();
  if (doc === null) throw new Error("not a PDF");
  try {
    const streams: Uint8Array[] = [];
    for (let index = 0; index < doc.countPages(); index++) {
      doc
        .findPage(index)
        .getInheritable("Resources")
        .get("XObject")
        .forEach((xobject) => {
          if (xobject.get("Subtype").asName() === "Image")
            streams.push(xobject.readRawStream().asUint8Array().slice());
        });
    }
    return streams;
  } finally {
    doc.destroy();
  }
}

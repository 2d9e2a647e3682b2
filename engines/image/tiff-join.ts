/**
 * Several single-page classic TIFFs (as libvips writes them, metadata stripped) joined into one
 * multi-page TIFF: each file is kept whole, one after the other, its offsets moved by where it now
 * starts, and each page's directory chained to the next. libvips writes a multi-page TIFF only from
 * pages of one size; a scan of A4 and Letter pages, or portrait and landscape, has pages of several.
 */
import { TYPE_SIZE } from "./tiff-header.ts";

const LONG = 4;
/** Tags whose values are offsets into the file (strips, tiles). */
const OFFSET_TAGS = new Set([273, 324]);
/** Tags pointing to directories of their own (sub-images, EXIF, GPS, interoperability): not moved here. */
const DIRECTORY_TAGS = new Set([330, 34665, 34853, 40965]);

export function joinTiffPages(pages: readonly Uint8Array[]): Uint8Array {
  const total = pages.reduce((sum, page) => sum + page.length + (page.length % 2), 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const little = pages[0]?.[0] === 0x49;
  let base = 0;
  /** Where the last directory's next-directory pointer is, to chain the next page to. */
  let previousNext = -1;
  for (const page of pages) {
    const order = page[0] === 0x49 ? 0x49 : page[0] === 0x4d ? 0x4d : 0;
    if (order === 0 || order !== (little ? 0x49 : 0x4d))
      throw new Error("not a TIFF of the first page's byte order");
    out.set(page, base);
    if (view.getUint16(base + 2, little) !== 42) throw new Error("not a classic TIFF");
    const ifd = view.getUint32(base + 4, little);
    const count = view.getUint16(base + ifd, little);
    for (let i = 0; i < count; i++) {
      const at = base + ifd + 2 + i * 12;
      const tag = view.getUint16(at, little);
      const type = view.getUint16(at + 2, little);
      const values = view.getUint32(at + 4, little);
      if (DIRECTORY_TAGS.has(tag)) throw new Error(`tag ${tag} points to a directory`);
      const inline = (TYPE_SIZE[type] ?? 1) * values <= 4;
      if (!inline) view.setUint32(at + 8, view.getUint32(at + 8, little) + base, little);
      if (OFFSET_TAGS.has(tag)) {
        if (type !== LONG) throw new Error(`tag ${tag} is not of LONG values`);
        const valuesAt = inline ? at + 8 : view.getUint32(at + 8, little);
        for (let v = 0; v < values; v++)
          view.setUint32(valuesAt + v * 4, view.getUint32(valuesAt + v * 4, little) + base, little);
      }
    }
    const next = base + ifd + 2 + count * 12;
    if (view.getUint32(next, little) !== 0) throw new Error("a page file holds more than one directory");
    if (previousNext < 0) view.setUint32(4, ifd, little);
    else view.setUint32(previousNext, base + ifd, little);
    previousNext = next;
    base += page.length + (page.length % 2);
  }
  return out;
}

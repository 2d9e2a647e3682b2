import type * as mupdf from "mupdf";
import type { DestinationRewriter } from "./graft-destinations.ts";
import { detachOutline, OutlineBuilder, type OutlineNode } from "./graft-outline.ts";

/**
 * Builds the merged outline: each file's own bookmarks in file order (grafted as PDF objects, so
 * titles, styles, colours and destinations stay exact), or, for a file without bookmarks, one
 * entry titled by its file name that opens its first page.
 */
export class OutlineMerger {
  readonly #target: mupdf.PDFDocument;
  readonly #builder: OutlineBuilder;

  constructor(target: mupdf.PDFDocument) {
    this.#target = target;
    this.#builder = new OutlineBuilder(target);
  }

  /** Top-level entries so far. */
  get entryCount(): number {
    return this.#builder.entryCount;
  }

  /** Reads and detaches the bookmarks of a source (see graft-outline.ts). */
  detach(source: mupdf.PDFDocument, rewriter: DestinationRewriter): OutlineNode[] {
    return detachOutline(source, rewriter);
  }

  /** Appends one file's bookmarks (grafted item by item), or a file-name entry for its first page. */
  append(
    topLevel: readonly OutlineNode[],
    map: mupdf.PDFGraftMap,
    fileName: string,
    firstPage: mupdf.PDFObject | null,
  ): void {
    if (topLevel.length > 0) {
      this.#builder.append(topLevel, map);
      return;
    }
    const entry = this.#target.addObject(this.#target.newDictionary());
    entry.put("Title", this.#target.newString(titleFromFileName(fileName)));
    const destination = this.#target.newArray();
    destination.push(firstPage);
    destination.push(this.#target.newName("Fit"));
    entry.put("Dest", destination);
    this.#builder.appendItem(entry);
  }

  /** Writes /Outlines into the catalog when there is any entry. */
  finish(): void {
    this.#builder.finish();
  }
}

/** "Annual report.pdf" → "Annual report"; a name that is only an extension stays as it is. */
export function titleFromFileName(fileName: string): string {
  const withoutExtension = fileName.replace(/\.pdf$/i, "");
  return withoutExtension === "" ? fileName : withoutExtension;
}

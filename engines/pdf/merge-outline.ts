import type * as mupdf from "mupdf";
import type { DestinationRewriter } from "./merge-destinations.ts";

/** Upper bound on bookmarks read from one file: outline chains of a hostile file may loop. */
const MAX_OUTLINE_ITEMS = 100_000;
/** The keys linking an outline item to its neighbours; /SE would drag the structure tree along. */
const TREE_KEYS = ["Parent", "Prev", "Next", "First", "Last", "SE"] as const;

/** A bookmark of a source, detached from its neighbours, with its children in order. */
export interface OutlineNode {
  readonly item: mupdf.PDFObject;
  readonly children: OutlineNode[];
}

/**
 * Builds the merged outline: each file's own bookmarks in file order (grafted as PDF objects, so
 * titles, styles, colours and destinations stay exact), or, for a file without bookmarks, one
 * entry titled by its file name that opens its first page.
 */
export class OutlineMerger {
  readonly #target: mupdf.PDFDocument;
  readonly #root: mupdf.PDFObject;
  #last: mupdf.PDFObject | undefined;
  #topLevel = 0;
  #visible = 0;

  constructor(target: mupdf.PDFDocument) {
    this.#target = target;
    this.#root = target.addObject(target.newDictionary());
    this.#root.put("Type", target.newName("Outlines"));
  }

  /** Top-level entries so far. */
  get entryCount(): number {
    return this.#topLevel;
  }

  /**
   * Reads the source's bookmark tree and detaches every item from its neighbours (/Next, /First…)
   * and its destinations, so each item can be grafted alone: grafting a chain would recurse once per
   * sibling and overflow MuPDF's exception stack on long outlines. Call before anything of the
   * source is grafted (see merge-destinations.ts). Returns the top-level items (empty: none).
   */
  detach(source: mupdf.PDFDocument, rewriter: DestinationRewriter): OutlineNode[] {
    const topLevel: OutlineNode[] = [];
    const seen = new Set<number>();
    const pending: { item: mupdf.PDFObject; siblings: OutlineNode[] }[] = [];
    const first = source.getTrailer().get("Root", "Outlines", "First");
    if (first.isDictionary()) pending.push({ item: first, siblings: topLevel });
    for (
      let next = pending.pop();
      next !== undefined && seen.size < MAX_OUTLINE_ITEMS;
      next = pending.pop()
    ) {
      const { item, siblings } = next;
      if (!item.isIndirect() || !item.isDictionary() || seen.has(item.asIndirect())) continue;
      seen.add(item.asIndirect());
      const node: OutlineNode = { item, children: [] };
      siblings.push(node);
      const sibling = item.get("Next");
      const child = item.get("First");
      for (const key of TREE_KEYS) item.delete(key);
      // A bookmark whose target is gone stays as a heading.
      rewriter.detach(item);
      if (sibling.isDictionary()) pending.push({ item: sibling, siblings });
      if (child.isDictionary()) pending.push({ item: child, siblings: node.children });
    }
    return topLevel;
  }

  /** Appends one file's bookmarks (grafted item by item), or a file-name entry for its first page. */
  append(
    topLevel: readonly OutlineNode[],
    map: mupdf.PDFGraftMap,
    fileName: string,
    firstPage: mupdf.PDFObject | null,
  ): void {
    if (topLevel.length === 0) {
      const entry = this.#target.addObject(this.#target.newDictionary());
      entry.put("Title", this.#target.newString(titleFromFileName(fileName)));
      const destination = this.#target.newArray();
      destination.push(firstPage);
      destination.push(this.#target.newName("Fit"));
      entry.put("Dest", destination);
      this.#link(entry);
      return;
    }
    const pending: { parent: mupdf.PDFObject; nodes: readonly OutlineNode[] }[] = [];
    for (const node of topLevel) {
      const item = map.graftObject(node.item);
      this.#link(item);
      if (node.children.length > 0) pending.push({ parent: item, nodes: node.children });
    }
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      let previous: mupdf.PDFObject | undefined;
      for (const node of next.nodes) {
        const item = map.graftObject(node.item);
        item.put("Parent", next.parent);
        if (previous === undefined) next.parent.put("First", item);
        else {
          previous.put("Next", item);
          item.put("Prev", previous);
        }
        previous = item;
        if (node.children.length > 0) pending.push({ parent: item, nodes: node.children });
      }
      if (previous !== undefined) next.parent.put("Last", previous);
    }
  }

  /** Writes /Outlines into the catalog when there is any entry. */
  finish(): void {
    if (this.#last === undefined) return;
    this.#root.put("Count", this.#visible);
    this.#target.getTrailer().get("Root").put("Outlines", this.#root);
  }

  #link(item: mupdf.PDFObject): void {
    item.put("Parent", this.#root);
    if (this.#last === undefined) {
      this.#root.put("First", item);
    } else {
      item.put("Prev", this.#last);
      this.#last.put("Next", item);
    }
    this.#root.put("Last", item);
    this.#last = item;
    this.#topLevel++;
    // /Count > 0 on an item: that many descendants are visible (the item is open).
    const count = item.get("Count");
    this.#visible += 1 + (count.isNumber() && count.asNumber() > 0 ? count.asNumber() : 0);
  }
}

/** "Annual report.pdf" → "Annual report"; a name that is only an extension stays as it is. */
export function titleFromFileName(fileName: string): string {
  const withoutExtension = fileName.replace(/\.pdf$/i, "");
  return withoutExtension === "" ? fileName : withoutExtension;
}

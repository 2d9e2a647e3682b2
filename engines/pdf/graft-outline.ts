import type * as mupdf from "mupdf";
import type { DestinationRewriter } from "./graft-destinations.ts";

/** Upper bound on bookmarks read from one file: outline chains of a hostile file may loop. */
const MAX_OUTLINE_ITEMS = 100_000;
/** The keys linking an outline item to its neighbours; /SE would drag the structure tree along. */
const TREE_KEYS = ["Parent", "Prev", "Next", "First", "Last", "SE"] as const;

/** A bookmark to graft, with its children in order. */
export interface OutlineEntry {
  readonly item: mupdf.PDFObject;
  readonly children: readonly OutlineEntry[];
  /** Shown with its children unfolded (/Count > 0 in the source). */
  readonly open: boolean;
  /** Its target is not in the new document: it stays as a heading without a destination. */
  readonly heading?: boolean;
}

/** A bookmark of a source, detached from its neighbours, with the source pages it targets. */
export interface OutlineNode extends OutlineEntry {
  readonly children: OutlineNode[];
  readonly pages: readonly number[];
}

/**
 * Reads the source's bookmark tree and detaches every item from its neighbours (/Next, /First…)
 * and its destinations, so each item can be grafted alone: grafting a chain would recurse once per
 * sibling and overflow MuPDF's exception stack on long outlines. Call before anything of the source
 * is grafted (see graft-destinations.ts). Returns the top-level items (empty: none).
 */
export function detachOutline(source: mupdf.PDFDocument, rewriter: DestinationRewriter): OutlineNode[] {
  const topLevel: OutlineNode[] = [];
  const seen = new Set<number>();
  const pending: { item: mupdf.PDFObject; siblings: OutlineNode[] }[] = [];
  const first = source.getTrailer().get("Root", "Outlines", "First");
  if (first.isDictionary()) pending.push({ item: first, siblings: topLevel });
  for (let next = pending.pop(); next !== undefined && seen.size < MAX_OUTLINE_ITEMS; next = pending.pop()) {
    const { item, siblings } = next;
    if (!item.isIndirect() || !item.isDictionary() || seen.has(item.asIndirect())) continue;
    seen.add(item.asIndirect());
    const sibling = item.get("Next");
    const child = item.get("First");
    const count = item.get("Count");
    for (const key of TREE_KEYS) item.delete(key);
    // A bookmark whose target is gone stays as a heading.
    const { pages } = rewriter.detach(item);
    const node: OutlineNode = { item, children: [], open: count.isNumber() && count.asNumber() > 0, pages };
    siblings.push(node);
    if (sibling.isDictionary()) pending.push({ item: sibling, siblings });
    if (child.isDictionary()) pending.push({ item: child, siblings: node.children });
  }
  return topLevel;
}

/**
 * The outline of a new document: top-level entries appended in order, each grafted item by item
 * with its children linked again and every /Count recomputed from the entries actually written.
 */
export class OutlineBuilder {
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

  /** Appends a top-level item that already belongs to the target and has no children. */
  appendItem(item: mupdf.PDFObject): void {
    this.#link(item, 1);
  }

  /** Grafts `entries` (trees of source items) as the next top-level entries. */
  append(entries: readonly OutlineEntry[], map: mupdf.PDFGraftMap): void {
    // Preorder list of (entry, grafted item); walked backwards, children come before parents.
    const order: { entry: OutlineEntry; item: mupdf.PDFObject; parent: mupdf.PDFObject | null }[] = [];
    const pending: { entry: OutlineEntry; parent: mupdf.PDFObject | null }[] = [];
    for (let i = entries.length - 1; i >= 0; i--)
      pending.push({ entry: entries[i] as OutlineEntry, parent: null });
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const item = map.graftObject(next.entry.item);
      if (next.entry.heading) {
        item.delete("Dest");
        item.delete("A");
      }
      order.push({ entry: next.entry, item, parent: next.parent });
      const { children } = next.entry;
      for (let i = children.length - 1; i >= 0; i--)
        pending.push({ entry: children[i] as OutlineEntry, parent: item });
    }
    // Visible descendants of each item if it were open, computed bottom-up.
    const visible = new Map<OutlineEntry, number>();
    for (let i = order.length - 1; i >= 0; i--) {
      const { entry, item } = order[i] as (typeof order)[number];
      let count = 0;
      for (const child of entry.children) count += 1 + (child.open ? (visible.get(child) ?? 0) : 0);
      visible.set(entry, count);
      if (count === 0) item.delete("Count");
      else item.put("Count", entry.open ? count : -count);
    }
    const lastChild = new Map<mupdf.PDFObject, mupdf.PDFObject>();
    for (const { entry, item, parent } of order) {
      if (parent === null) {
        this.#link(item, 1 + (entry.open ? (visible.get(entry) ?? 0) : 0));
        continue;
      }
      item.put("Parent", parent);
      const previous = lastChild.get(parent);
      if (previous === undefined) parent.put("First", item);
      else {
        previous.put("Next", item);
        item.put("Prev", previous);
      }
      parent.put("Last", item);
      lastChild.set(parent, item);
    }
  }

  /** Writes /Outlines into the catalog when there is any entry. */
  finish(): void {
    if (this.#last === undefined) return;
    this.#root.put("Count", this.#visible);
    this.#target.getTrailer().get("Root").put("Outlines", this.#root);
  }

  #link(item: mupdf.PDFObject, visible: number): void {
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
    this.#visible += visible;
  }
}

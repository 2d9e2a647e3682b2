import type * as mupdf from "mupdf";

/**
 * Page references inside grafted objects. Grafting an object copies everything it references; a
 * GoTo destination references its target page, whose /Parent is the whole source page tree, so a
 * naive graft of one link would copy every page of its file again. Before grafting, each
 * destination (explicit, or named: the name tree is not copied) is replaced by an indirect copy in
 * the source whose page entry is null; after grafting, each copy's counterpart in the merged
 * document gets the reference to the merged page. MuPDF JS objects cost a wrapper each, so the work
 * per destination is kept to a few calls (one shared copy per named destination). A merge keeps
 * every page; a split keeps some, so each holder also learns the pages its destinations target.
 */
export class DestinationRewriter {
  readonly #source: mupdf.PDFDocument;
  readonly #pageIndex = new Map<number, number>();
  readonly #named = new Map<string, mupdf.PDFObject | null>();
  readonly #shared = new Map<number, mupdf.PDFObject | null>();
  /** The indirect copies made in the source and the page index each one targets. */
  readonly #detached: { readonly copy: mupdf.PDFObject; readonly page: number }[] = [];
  /** Object number of each detached copy → the 0-based source page it targets. */
  readonly #copies = new Map<number, number>();
  #nameTree: Map<string, mupdf.PDFObject> | undefined;

  constructor(source: mupdf.PDFDocument, sourcePages: readonly mupdf.PDFObject[]) {
    this.#source = source;
    for (const [index, page] of sourcePages.entries()) {
      if (page.isIndirect()) this.#pageIndex.set(page.asIndirect(), index);
    }
  }

  /**
   * Detaches the destinations of a link, widget, field or bookmark: /Dest, and GoTo actions in /A,
   * /AA and /Next chains. `resolves` is false when its own target (/Dest or /A) does not resolve to
   * a page; `pages` lists the 0-based source pages its destinations target. Detaching a holder again
   * makes no new copies and answers the same pages.
   */
  detach(holder: mupdf.PDFObject): DetachedHolder {
    const pages: number[] = [];
    let resolves = true;
    const dest = holder.get("Dest");
    if (!dest.isNull()) resolves = this.#replace(dest, pages, (copy) => holder.put("Dest", copy));
    const action = holder.get("A");
    if (action.isDictionary()) resolves = this.#detachAction(action, pages) && resolves;
    const additional = holder.get("AA");
    if (additional.isDictionary()) {
      additional.forEach((value) => {
        this.#detachAction(value, pages);
      });
    }
    return { resolves, pages };
  }

  /**
   * Points every detached copy's counterpart in the new document at its new page: `targetPages[i]`
   * is where source page i landed (a split leaves the pages of other parts undefined).
   */
  attach(map: mupdf.PDFGraftMap, targetPages: readonly (mupdf.PDFObject | undefined)[]): void {
    for (const { copy, page } of this.#detached) {
      const target = targetPages[page];
      if (target !== undefined) map.graftObject(copy).put(0, target);
    }
  }

  #detachAction(first: mupdf.PDFObject, pages: number[]): boolean {
    let resolves = true;
    const pending = [first];
    // A bound on visited actions: /Next chains of a hostile file may loop.
    for (
      let visited = 0, action = pending.pop();
      action !== undefined && visited < 256;
      action = pending.pop()
    ) {
      visited++;
      if (!action.isDictionary()) continue;
      if (action.get("S").asName() === "GoTo") {
        const target = action;
        resolves = this.#replace(action.get("D"), pages, (copy) => target.put("D", copy)) && resolves;
      }
      const next = action.get("Next");
      if (next.isDictionary()) pending.push(next);
      else if (next.isArray()) for (let i = 0; i < next.length; i++) pending.push(next.get(i));
    }
    return resolves;
  }

  #replace(dest: mupdf.PDFObject, pages: number[], put: (copy: mupdf.PDFObject | null) => void): boolean {
    const copy = this.#detachedCopy(dest);
    put(copy);
    const page = copy === null ? undefined : this.#copies.get(copy.asIndirect());
    if (page !== undefined) pages.push(page);
    return copy !== null;
  }

  /** The detached copy for a destination, made once per named or indirect destination. */
  #detachedCopy(dest: mupdf.PDFObject): mupdf.PDFObject | null {
    if (dest.isName() || dest.isString()) {
      const name = dest.isName() ? `name:${dest.asName()}` : `string:${dest.asString()}`;
      let copy = this.#named.get(name);
      if (copy === undefined) {
        copy = this.#copyExplicit(this.#lookup(dest));
        this.#named.set(name, copy);
      }
      return copy;
    }
    if (dest.isIndirect()) {
      const number = dest.asIndirect();
      // Objects reachable twice (a widget is both an annotation and a field) are met detached.
      if (this.#copies.has(number)) return dest;
      let copy = this.#shared.get(number);
      if (copy === undefined) {
        copy = this.#copyExplicit(dest);
        this.#shared.set(number, copy);
      }
      return copy;
    }
    return this.#copyExplicit(dest);
  }

  #copyExplicit(explicit: mupdf.PDFObject | undefined): mupdf.PDFObject | null {
    if (explicit === undefined || !explicit.isArray() || explicit.length === 0) return null;
    const page = explicit.get(0);
    // Explicit destinations name a page object; some producers write a 0-based page number.
    const index = page.isIndirect()
      ? this.#pageIndex.get(page.asIndirect())
      : page.isInteger()
        ? page.asNumber()
        : undefined;
    if (index === undefined || index < 0 || index >= this.#pageIndex.size) return null;
    const copy = this.#source.newArray();
    copy.push(null);
    for (let i = 1; i < explicit.length; i++) copy.push(explicit.get(i));
    const indirect = this.#source.addObject(copy);
    this.#detached.push({ copy: indirect, page: index });
    this.#copies.set(indirect.asIndirect(), index);
    return indirect;
  }

  /** Named destinations: the /Dests name tree, or the PDF 1.1 /Dests dictionary for names. */
  #lookup(name: mupdf.PDFObject): mupdf.PDFObject | undefined {
    let value: mupdf.PDFObject | undefined;
    if (name.isName()) value = this.#source.getTrailer().get("Root", "Dests", name.asName());
    else {
      this.#nameTree ??= destinationNames(this.#source);
      value = this.#nameTree.get(name.asString());
    }
    return value?.isDictionary() ? value.get("D") : value;
  }
}

/** Nodes of a name tree read at most: a hostile tree may be huge or loop through its /Kids. */
const MAX_NAME_TREE_NODES = 100_000;

/**
 * The catalog's /Names /Dests tree as a map; empty when the catalog has no /Names or no /Dests
 * (no destination is defined, the file is not damaged). MuPDF.js's loadNameTree fails with a
 * TypeError on a catalog without /Names and recurses without bound through looping /Kids.
 */
function destinationNames(document: mupdf.PDFDocument): Map<string, mupdf.PDFObject> {
  const names = new Map<string, mupdf.PDFObject>();
  const root = document.getTrailer().get("Root", "Names", "Dests");
  const seen = new Set<number>();
  const pending = root.isDictionary() ? [root] : [];
  for (
    let node = pending.pop(), visited = 0;
    node !== undefined && visited < MAX_NAME_TREE_NODES;
    node = pending.pop()
  ) {
    visited++;
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) continue;
      seen.add(node.asIndirect());
    }
    if (!node.isDictionary()) continue;
    const pairs = node.get("Names");
    if (pairs.isArray()) {
      for (let i = 0; i + 1 < pairs.length; i += 2) {
        const key = pairs.get(i);
        if (key.isString() && !names.has(key.asString())) names.set(key.asString(), pairs.get(i + 1));
      }
    }
    const kids = node.get("Kids");
    if (kids.isArray()) for (let i = kids.length - 1; i >= 0; i--) pending.push(kids.get(i));
  }
  return names;
}

/** What detaching one holder found: whether its own target resolves, and the pages targeted. */
export interface DetachedHolder {
  readonly resolves: boolean;
  readonly pages: readonly number[];
}

/** Visits every dictionary of a field tree once (field trees can contain cycles). */
export function walkFields(fields: mupdf.PDFObject, visit: (field: mupdf.PDFObject) => void): void {
  const seen = new Set<number>();
  const pending: mupdf.PDFObject[] = [];
  for (let i = 0; i < fields.length; i++) pending.push(fields.get(i));
  for (let field = pending.pop(); field !== undefined; field = pending.pop()) {
    if (field.isIndirect()) {
      if (seen.has(field.asIndirect())) continue;
      seen.add(field.asIndirect());
    }
    if (!field.isDictionary()) continue;
    visit(field);
    const kids = field.get("Kids");
    if (kids.isArray()) for (let i = 0; i < kids.length; i++) pending.push(kids.get(i));
  }
}

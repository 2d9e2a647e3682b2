/**
 * MuPDF's page rearrangement (pdf_rearrange_pages) with what it loses put back.
 *
 * MuPDF.js 1.28 rewrites the catalog with only /Type, /Pages, /Outlines, /OCProperties and the named
 * destinations of kept pages: every form (/AcroForm), attachment and document script (/Names),
 * the document's language, XMP metadata, tags, viewer preferences and open action went, even when
 * every page stayed. And it copies each inherited page attribute onto the pages as the same direct
 * object, which a compacting save renumbers once per page: a /Resources dictionary that lived on
 * the page tree's root lost its fonts (`/Font << >>`) after its second renumbering.
 */
import type * as mupdf from "mupdf";
import { annotationsOf } from "../../engines/pdf/page-annotations.ts";

/** Page attributes a page can inherit from the page tree (ISO 32000-1, 7.7.3.4). */
const INHERITED_KEYS = ["Resources", "MediaBox", "CropBox", "Rotate"];
/** Catalog entries that depend on the pages' order, not only on which pages there are. */
const ORDER_KEYS = new Set(["PageLabels"]);
/** Objects a catalog entry is followed through before it is taken to reach a removed page. */
const MAX_WALK = 200_000;

/**
 * `value`, which `holder[key]` holds, as something two places may hold: a direct dictionary or
 * array is made an indirect object (which `holder` then refers to), since a compacting save
 * renumbers the references inside a shared direct object once per place that holds it.
 */
export function shareable(
  doc: mupdf.PDFDocument,
  holder: mupdf.PDFObject,
  key: string,
  value: mupdf.PDFObject,
): mupdf.PDFObject {
  if (value.isIndirect() || !(value.isDictionary() || value.isArray())) return value;
  const shared = doc.addObject(value);
  holder.put(key, shared);
  return shared;
}

/** Rearranges the pages to `indices` (0-based, as rearrangePages takes them), keeping the catalog. */
export function rearrangePages(doc: mupdf.PDFDocument, indices: readonly number[]): void {
  const annots = annotationsByPage(doc);
  shareInheritedValues(doc);
  destinationsAsNameTree(doc);
  const saved = new Map<string, mupdf.PDFObject>();
  doc
    .getTrailer()
    .get("Root")
    .forEach((value, key) => {
      saved.set(String(key), value);
    });
  doc.rearrangePages([...indices]);
  const kept = new Set(annotationsByPage(doc).keys());
  const gone: Removed = { pages: new Set(), annots: new Set(), kept };
  for (const [page, numbers] of annots) {
    if (kept.has(page)) continue;
    gone.pages.add(page);
    for (const number of numbers) gone.annots.add(number);
  }
  const inOrder = indices.length === annots.size && indices.every((index, i) => index === i);
  const catalog = doc.getTrailer().get("Root");
  for (const [key, value] of saved) {
    if (key === "Names") restoreNameTrees(doc, catalog, value, gone);
    else if (!catalog.get(key).isNull()) continue;
    else if (key === "AcroForm") restoreForm(doc, catalog, value, gone);
    else if (ORDER_KEYS.has(key) && !inOrder) continue;
    else if (!reachesRemoved(value, gone)) catalog.put(key, value);
  }
}

/**
 * The catalog's /Dests dictionary (PDF 1.1's named destinations, which Chromium writes) moved into
 * the /Names /Dests tree: MuPDF's rearrangement keeps the tree's destinations of kept pages and
 * the links that use them, but drops the dictionary first, and with it every link that named one.
 */
function destinationsAsNameTree(doc: mupdf.PDFDocument): void {
  const catalog = doc.getTrailer().get("Root");
  const dictionary = catalog.get("Dests");
  if (!dictionary.isDictionary()) return;
  const all = new Map<string, mupdf.PDFObject>();
  dictionary.forEach((value, key) => {
    all.set(String(key), value);
  });
  // MuPDF.js's loadNameTree throws on a catalog without /Names: the tree is read here.
  nameTreeEntries(catalog.get("Names", "Dests"), all, 0, new Set());
  const names = doc.newArray();
  for (const key of [...all.keys()].sort()) {
    names.push(doc.newString(key));
    names.push(all.get(key) as mupdf.PDFObject);
  }
  let trees = catalog.get("Names");
  if (!trees.isDictionary()) {
    trees = doc.addObject(doc.newDictionary());
    catalog.put("Names", trees);
  }
  const tree = doc.newDictionary();
  tree.put("Names", names);
  trees.put("Dests", doc.addObject(tree));
  catalog.delete("Dests");
  // A destination named by a name object is one of the dictionary's, by a string one of the tree's:
  // MuPDF keeps only the latter (a link with "/Dest /s1" was dropped as going nowhere).
  for (let i = 0; i < doc.countPages(); i++) {
    for (const annot of annotationsOf(doc.findPage(i))) namedAsString(doc, annot);
  }
  const seen = new Set<number>();
  const pending = [catalog.get("Outlines", "First")];
  while (pending.length > 0 && seen.size < MAX_WALK) {
    const item = pending.pop() as mupdf.PDFObject;
    if (!item.isDictionary() || (item.isIndirect() && seen.has(item.asIndirect()))) continue;
    if (item.isIndirect()) seen.add(item.asIndirect());
    namedAsString(doc, item);
    pending.push(item.get("First"), item.get("Next"));
  }
}

/** An annotation's or outline item's /Dest, or its GoTo action's /D, that is a name, as a string. */
function namedAsString(doc: mupdf.PDFDocument, holder: mupdf.PDFObject): void {
  if (!holder.isDictionary()) return;
  const dest = holder.get("Dest");
  if (dest.isName()) holder.put("Dest", doc.newString(dest.asName()));
  const action = holder.get("A");
  if (action.isDictionary() && action.get("S").asName() === "GoTo" && action.get("D").isName())
    action.put("D", doc.newString(action.get("D").asName()));
}

/** Deeper than any real name tree; a deeper one is read no further. */
const MAX_TREE_DEPTH = 32;

/**
 * The entries of the name tree under `node` into `into` (the tree's own win over what is there).
 * Each node is read once (`seen`): a node that is its own kid twice would be read 2^depth times.
 */
function nameTreeEntries(
  node: mupdf.PDFObject,
  into: Map<string, mupdf.PDFObject>,
  depth: number,
  seen: Set<number>,
): void {
  if (!node.isDictionary() || depth > MAX_TREE_DEPTH || !firstVisit(node, seen)) return;
  const kids = node.get("Kids");
  if (kids.isArray())
    for (let i = 0; i < kids.length; i++) nameTreeEntries(kids.get(i), into, depth + 1, seen);
  const names = node.get("Names");
  if (!names.isArray()) return;
  for (let i = 0; i + 1 < names.length; i += 2) {
    const key = names.get(i);
    if (key.isString()) into.set(key.asString(), names.get(i + 1));
  }
}

/** What the rearrangement removed: page objects and the annotations their /Annots held. */
interface Removed {
  readonly pages: Set<number>;
  readonly annots: Set<number>;
  /** The pages still in the document. */
  readonly kept: Set<number>;
}

/** Each page's object number, with the object numbers of the annotations its /Annots holds. */
function annotationsByPage(doc: mupdf.PDFDocument): Map<number, number[]> {
  const pages = new Map<number, number[]>();
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    const numbers = [...annotationsOf(page)]
      .filter((annot) => annot.isIndirect())
      .map((annot) => annot.asIndirect());
    pages.set(page.asIndirect(), numbers);
  }
  return pages;
}

/**
 * Makes each direct dictionary or array that the page tree's inner nodes hand down to their pages
 * an indirect object (see shareable).
 */
export function shareInheritedValues(doc: mupdf.PDFDocument): void {
  shareInheritedOf(doc, doc.getTrailer().get("Root", "Pages"), new Set());
}

function shareInheritedOf(doc: mupdf.PDFDocument, node: mupdf.PDFObject, seen: Set<number>): void {
  if (!node.isDictionary() || node.get("Type").asName() === "Page") return;
  if (node.isIndirect()) {
    if (seen.has(node.asIndirect())) return;
    seen.add(node.asIndirect());
  }
  for (const key of INHERITED_KEYS) {
    const value = node.get(key);
    if (!value.isNull()) shareable(doc, node, key, value);
  }
  const kids = node.get("Kids");
  if (!kids.isArray()) return;
  for (let i = 0; i < kids.length; i++) shareInheritedOf(doc, kids.get(i), seen);
}

/**
 * Whether following `value` (its dictionaries, arrays and references) leads to a removed page or
 * one of its annotations: such an entry would keep that page, and what it shows, in the file. A
 * page still in the document is not followed further; a walk over MAX_WALK objects counts as
 * reaching one.
 */
function reachesRemoved(value: mupdf.PDFObject, gone: Removed): boolean {
  if (gone.pages.size === 0) return false;
  const seen = new Set<number>();
  const pending = [value];
  let walked = 0;
  while (pending.length > 0) {
    const object = pending.pop() as mupdf.PDFObject;
    if (++walked > MAX_WALK) return true;
    if (object.isIndirect()) {
      const number = object.asIndirect();
      if (gone.pages.has(number) || gone.annots.has(number)) return true;
      if (gone.kept.has(number) || seen.has(number)) continue;
      seen.add(number);
    }
    if (object.isDictionary() || object.isArray())
      object.forEach((child) => {
        pending.push(child);
      });
  }
  return false;
}

/**
 * The name trees MuPDF dropped (attachments, document scripts, …) back beside the destinations it
 * kept, each unless it reaches a removed page. The destinations are MuPDF's: those of kept pages.
 */
function restoreNameTrees(
  doc: mupdf.PDFDocument,
  catalog: mupdf.PDFObject,
  names: mupdf.PDFObject,
  gone: Removed,
): void {
  if (!names.isDictionary()) return;
  let target = catalog.get("Names");
  names.forEach((tree, key) => {
    if (key === "Dests" || reachesRemoved(tree, gone)) return;
    if (!target.isDictionary()) {
      target = doc.addObject(doc.newDictionary());
      catalog.put("Names", target);
    }
    if (target.get(String(key)).isNull()) target.put(String(key), tree);
  });
}

/**
 * The form back, without the fields whose every widget was on a removed page (and without such
 * widgets in their fields' /Kids); a field without widgets stays.
 */
function restoreForm(
  doc: mupdf.PDFDocument,
  catalog: mupdf.PDFObject,
  form: mupdf.PDFObject,
  gone: Removed,
): void {
  const fields = form.get("Fields");
  if (gone.pages.size > 0 && fields.isArray()) {
    const kept = doc.newArray();
    const seen = new Map<number, boolean>();
    for (let i = 0; i < fields.length; i++) {
      const field = fields.get(i);
      if (keepField(doc, field, gone, 0, seen)) kept.push(field);
    }
    if (kept.length === 0) return;
    form.put("Fields", kept);
  }
  catalog.put("AcroForm", form);
}

/** Deeper than any real field hierarchy; a deeper one is kept as it is. */
const MAX_FIELD_DEPTH = 32;

/**
 * Whether `field` keeps a widget (or never had one); drops its kids that were removed pages'
 * widgets. A field met again is not read again (`seen`: its answer, or kept while it is being read,
 * in a cycle): a field that is its own kid twice would be read 2^depth times.
 */
function keepField(
  doc: mupdf.PDFDocument,
  field: mupdf.PDFObject,
  gone: Removed,
  depth: number,
  seen: Map<number, boolean>,
): boolean {
  if (!field.isDictionary() || depth > MAX_FIELD_DEPTH) return true;
  const number = field.isIndirect() ? field.asIndirect() : -1;
  const known = seen.get(number);
  if (known !== undefined) return known;
  if (number >= 0) seen.set(number, true);
  const keep = (() => {
    const kids = field.get("Kids");
    if (!kids.isArray() || kids.length === 0) {
      const page = field.get("P");
      if (page.isIndirect() && gone.pages.has(page.asIndirect())) return false;
      return !gone.annots.has(number);
    }
    const kept = doc.newArray();
    for (let i = 0; i < kids.length; i++) {
      const kid = kids.get(i);
      if (keepField(doc, kid, gone, depth + 1, seen)) kept.push(kid);
    }
    if (kept.length === 0) return false;
    if (kept.length < kids.length) field.put("Kids", kept);
    return true;
  })();
  if (number >= 0) seen.set(number, keep);
  return keep;
}

/** Whether `object` is met for the first time (a direct object always is), noting it in `seen`. */
function firstVisit(object: mupdf.PDFObject, seen: Set<number>): boolean {
  if (!object.isIndirect()) return true;
  if (seen.has(object.asIndirect())) return false;
  seen.add(object.asIndirect());
  return true;
}

import type * as mupdf from "mupdf";
import type { DestinationRewriter } from "./graft-destinations.ts";

/** The /AcroForm of a new document, with an empty /Fields array, created in its catalog. */
export function newAcroForm(target: mupdf.PDFDocument): mupdf.PDFObject {
  const form = target.addObject(target.newDictionary());
  form.put("Fields", target.newArray());
  target.getTrailer().get("Root").put("AcroForm", form);
  return form;
}

/**
 * Copies a source form's default appearance, default resources (fonts) and NeedAppearances into a
 * new document's form, key by key, keeping what the new form already has.
 */
export function copyFormDefaults(
  form: mupdf.PDFObject,
  sourceForm: mupdf.PDFObject,
  map: mupdf.PDFGraftMap,
): void {
  const appearance = sourceForm.get("DA");
  if (appearance.isString() && form.get("DA").isNull()) form.put("DA", map.graftObject(appearance));
  if (sourceForm.get("NeedAppearances").asBoolean()) form.put("NeedAppearances", true);
  const resources = sourceForm.get("DR");
  if (!resources.isDictionary()) return;
  const merged = form.get("DR");
  if (!merged.isDictionary()) {
    form.put("DR", map.graftObject(resources));
    return;
  }
  resources.forEach((entries, category) => {
    if (!entries.isDictionary()) return;
    const target = merged.get(category);
    if (!target.isDictionary()) {
      merged.put(category, map.graftObject(entries));
      return;
    }
    entries.forEach((value, key) => {
      if (target.get(key).isNull()) target.put(key, map.graftObject(value));
    });
  });
}

/** A field (or widget) of a source's field tree, detached from its parent and kids. */
interface FieldNode {
  readonly item: mupdf.PDFObject;
  readonly parent: FieldNode | undefined;
  readonly children: FieldNode[];
  /** Source pages its own actions target (see graft-destinations.ts). */
  readonly pages: readonly number[];
}

/** Upper bound on field dictionaries read from one file: field trees of a hostile file may loop. */
const MAX_FIELDS = 200_000;

/**
 * The field tree of a source, for documents that keep some of its pages (a split): every node is
 * cut from its /Parent and /Kids, so grafting a widget copies that widget alone instead of its
 * whole form. `graft` then rebuilds, in a new document, the part of the tree whose widgets it kept.
 * Call after the annotations are detached (graft-annotations.ts) and before anything is grafted.
 */
export class DetachedFieldTree {
  readonly #form: mupdf.PDFObject | undefined;
  readonly #roots: FieldNode[] = [];
  readonly #nodes = new Map<number, FieldNode>();

  constructor(source: mupdf.PDFDocument, rewriter: DestinationRewriter) {
    const form = source.getTrailer().get("Root", "AcroForm");
    const fields = form.isDictionary() ? form.get("Fields") : undefined;
    if (form.isDictionary()) this.#form = form;
    if (fields === undefined || !fields.isArray()) return;
    const pending: { item: mupdf.PDFObject; parent: FieldNode | undefined }[] = [];
    for (let i = fields.length - 1; i >= 0; i--) pending.push({ item: fields.get(i), parent: undefined });
    for (
      let next = pending.pop();
      next !== undefined && this.#nodes.size < MAX_FIELDS;
      next = pending.pop()
    ) {
      const { item, parent } = next;
      // Fields are indirect objects (ISO 32000 12.7.4); anything else cannot be a page's widget.
      if (!item.isIndirect() || !item.isDictionary() || this.#nodes.has(item.asIndirect())) continue;
      const kids = item.get("Kids");
      item.delete("Kids");
      item.delete("Parent");
      // Already detached with the annotations: this only reads the pages its actions target.
      const node: FieldNode = { item, parent, children: [], pages: rewriter.detach(item).pages };
      this.#nodes.set(item.asIndirect(), node);
      (parent?.children ?? this.#roots).push(node);
      if (kids.isArray())
        for (let i = kids.length - 1; i >= 0; i--) pending.push({ item: kids.get(i), parent: node });
    }
  }

  /**
   * Grafts the fields of the kept widgets (source object numbers) into `target`'s new /AcroForm:
   * each widget with its ancestors, linked again, in the source's order. A field whose actions go
   * to a page that is not kept loses those actions. Returns the number of top-level fields.
   */
  graft(
    target: mupdf.PDFDocument,
    map: mupdf.PDFGraftMap,
    widgets: Iterable<number>,
    isKept: (page: number) => boolean,
  ): number {
    const kept = new Set<FieldNode>();
    for (const widget of widgets) {
      for (let node = this.#nodes.get(widget); node !== undefined && !kept.has(node); node = node.parent) {
        kept.add(node);
      }
    }
    if (kept.size === 0 || this.#form === undefined) return 0;
    const form = newAcroForm(target);
    const fields = form.get("Fields");
    const pending: { node: FieldNode; parent: mupdf.PDFObject | undefined }[] = [];
    const push = (nodes: readonly FieldNode[], parent: mupdf.PDFObject | undefined) => {
      for (let i = nodes.length - 1; i >= 0; i--) {
        const node = nodes[i] as FieldNode;
        if (kept.has(node)) pending.push({ node, parent });
      }
    };
    push(this.#roots, undefined);
    let topLevel = 0;
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const { node, parent } = next;
      const item = map.graftObject(node.item);
      if (!node.pages.every(isKept)) {
        item.delete("A");
        item.delete("AA");
      }
      if (parent === undefined) {
        fields.push(item);
        topLevel++;
      } else {
        item.put("Parent", parent);
        const kids = parent.get("Kids");
        if (kids.isArray()) kids.push(item);
        else parent.put("Kids", [item]);
      }
      push(node.children, item);
    }
    copyFormDefaults(form, this.#form, map);
    return topLevel;
  }
}

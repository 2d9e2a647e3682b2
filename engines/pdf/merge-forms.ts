import type * as mupdf from "mupdf";
import { copyFormDefaults, newAcroForm } from "./graft-forms.ts";

/**
 * Interactive form fields survive a merge: each file's field tree is grafted through the same
 * graft map as its widgets (so both point at the same copies) and appended to the merged
 * /AcroForm. Top-level field names that collide with an earlier file's get a suffix, so merging
 * two copies of one form keeps two independent sets of values. XFA is not carried over: viewers
 * fall back to the AcroForm fields.
 */
export class FormMerger {
  readonly #target: mupdf.PDFDocument;
  readonly #names = new Set<string>();
  #form: mupdf.PDFObject | undefined;
  #fields = 0;

  constructor(target: mupdf.PDFDocument) {
    this.#target = target;
  }

  /** Number of top-level fields in the merged form. */
  get fieldCount(): number {
    return this.#fields;
  }

  /** Adds the fields of one source, detached beforehand (see graft-annotations.ts), with its map. */
  add(source: mupdf.PDFDocument, map: mupdf.PDFGraftMap, fileIndex: number): void {
    const sourceForm = source.getTrailer().get("Root", "AcroForm");
    if (!sourceForm.isDictionary()) return;
    const sourceFields = sourceForm.get("Fields");
    if (!sourceFields.isArray() || sourceFields.length === 0) return;
    const form = this.#targetForm();
    const grafted = map.graftObject(sourceFields);
    const fields = form.get("Fields");
    for (let i = 0; i < grafted.length; i++) {
      const field = grafted.get(i);
      this.#claimName(field, fileIndex);
      fields.push(field);
      this.#fields++;
    }
    copyFormDefaults(form, sourceForm, map);
  }

  #targetForm(): mupdf.PDFObject {
    this.#form ??= newAcroForm(this.#target);
    return this.#form;
  }

  #claimName(field: mupdf.PDFObject, fileIndex: number): void {
    const title = field.get("T");
    if (!title.isString()) return;
    const name = title.asString();
    let unique = name;
    for (let n = 0; this.#names.has(unique); n++) {
      unique = n === 0 ? `${name}_${fileIndex + 1}` : `${name}_${fileIndex + 1}_${n}`;
    }
    if (unique !== name) field.put("T", this.#target.newString(unique));
    this.#names.add(unique);
  }
}

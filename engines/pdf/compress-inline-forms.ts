import type * as mupdf from "mupdf";
import { rectangle } from "./compress-redundant-entries.ts";
import * as content from "./content-operations.ts";
import { everyObject } from "./every-object.ts";
import { isNamed } from "./object-kinds.ts";

type Operation = content.Operation;

/** Keys a form may have to be drawn in place: none that a group, layer, structure or reference adds. */
const PLAIN_FORM_KEYS = new Set([
  "Type",
  "Subtype",
  "FormType",
  "BBox",
  "Matrix",
  "Resources",
  "Filter",
  "DecodeParms",
  "Length",
]);
/** Larger forms are left as objects: the saving is the dictionary's, a few hundred bytes. */
const MAX_FORM_TEXT = 16 * 1024;
/** Resource categories a form's content names, merged into the page's. */
const CATEGORIES = ["ExtGState", "ColorSpace", "Pattern", "Shading", "XObject", "Font", "Properties"];

/**
 * Draws in place, in the page's content, a form XObject that one page draws once and nothing else
 * refers to, as Ghostscript writes its output: `q <Matrix> cm <BBox> re W n <form's content> Q` is
 * what drawing the form does (ISO 32000-1, 8.10.1), without the form's own object, dictionary and
 * cross-reference entry (about 200 bytes each: Illustrator and iText wrap single drawings in forms).
 * Forms with a group, a layer, structure, a reference to another file or metadata, an inline
 * image, unbalanced `q`/`Q` or `BT`/`ET`, or resources whose names the page gives to other objects
 * stay forms. Returns how many forms were drawn in place.
 */
export function inlineSingleUseForms(pdf: mupdf.PDFDocument): number {
  const { candidates, borrowed } = plainForms(pdf);
  if (candidates.size === 0) return 0;
  const references = countReferences(pdf);
  let inlined = 0;
  for (let index = 0; index < pdf.countPages(); index++) {
    try {
      inlined += inlineOnPage(pdf, pdf.findPage(index), { candidates, borrowed, references });
    } catch {
      // A page that does not read is left as it is.
    }
  }
  return inlined;
}

interface PlainForm {
  readonly text: string;
  readonly operations: readonly Operation[];
}

interface Found {
  /** Forms that could be drawn in place, by object number. */
  readonly candidates: Map<number, PlainForm>;
  /**
   * Names that contents without resources of their own use (forms, and Type 3 glyphs, which draw
   * with the resources of where they are drawn): a page's form of such a name stays. "*" when
   * such a content does not read.
   */
  readonly borrowed: Set<string>;
  readonly references: Map<number, number>;
}

function plainForms(pdf: mupdf.PDFDocument): Omit<Found, "references"> {
  const candidates = new Map<number, PlainForm>();
  const borrowed = new Set<string>();
  const borrow = (stream: mupdf.PDFObject) => {
    const read = stream.isStream() ? content.readOperations(stream) : null;
    if (read === null) borrowed.add("*");
    for (const op of read?.operations ?? []) for (const operand of op.operands) borrowed.add(operand);
  };
  for (const { num, object } of everyObject(pdf)) {
    try {
      const subtype = object.get("Subtype");
      if (isNamed(subtype, "Type3") && object.get("Resources").isNull())
        object.get("CharProcs").forEach((glyph) => {
          borrow(glyph);
        });
      if (!object.isStream() || subtype.asName() !== "Form") continue;
      if (object.get("Resources").isNull()) borrow(object);
      let plain = true;
      object.forEach((_value, key) => {
        if (!PLAIN_FORM_KEYS.has(String(key))) plain = false;
      });
      if (!plain || rectangle(object.get("BBox")) === null) continue;
      const read = content.readOperations(object);
      if (read === null || read.text.length > MAX_FORM_TEXT || !balanced(read.operations)) continue;
      candidates.set(num, read);
    } catch {
      // A form that does not read stays a form.
      borrowed.add("*");
    }
  }
  return { candidates, borrowed };
}

/** Whether `q`/`Q` and `BT`/`ET` pair up and never close more than was opened. */
function balanced(operations: readonly Operation[]): boolean {
  let saves = 0;
  let text = 0;
  for (const { operator } of operations) {
    if (operator === "q") saves++;
    else if (operator === "Q" && --saves < 0) return false;
    else if (operator === "BT") text++;
    else if (operator === "ET" && --text < 0) return false;
  }
  return saves === 0 && text === 0;
}

/** How many references to each object the document holds (the trailer's included). */
function countReferences(pdf: mupdf.PDFDocument): Map<number, number> {
  const counts = new Map<number, number>();
  const walk = (value: mupdf.PDFObject, depth: number) => {
    if (value.isIndirect()) counts.set(value.asIndirect(), (counts.get(value.asIndirect()) ?? 0) + 1);
    else walkInside(value, depth);
  };
  // The entries of an array or dictionary (an indirect one read through its reference).
  const walkInside = (value: mupdf.PDFObject, depth: number) => {
    if (depth > 32) return;
    if (value.isArray()) for (let i = 0; i < value.length; i++) walk(value.get(i), depth + 1);
    else if (value.isDictionary())
      value.forEach((item) => {
        walk(item, depth + 1);
      });
  };
  walkInside(pdf.getTrailer(), 0);
  for (const { object } of everyObject(pdf)) {
    try {
      walkInside(object, 0);
    } catch {
      // An object that does not load refers to nothing.
    }
  }
  return counts;
}

/** Draws in place the forms of one page that qualify; returns how many. */
function inlineOnPage(pdf: mupdf.PDFDocument, page: mupdf.PDFObject, found: Found): number {
  const { candidates, borrowed, references } = found;
  if (borrowed.has("*")) return 0;
  const only = (object: mupdf.PDFObject) => !object.isIndirect() || references.get(object.asIndirect()) === 1;
  const contents = page.get("Contents");
  const resources = content.pageResources(page);
  const xobjects = resources.get("XObject");
  if (!contents.isStream() || !only(contents) || !only(resources) || !only(xobjects)) return 0;
  if (!page.get("Resources").isDictionary()) return 0;
  const read = content.readOperations(contents);
  if (read === null) return 0;
  const uses = new Map<string, number>();
  for (const op of read.operations)
    if (op.operator === "Do") uses.set(op.operands[0] ?? "", (uses.get(op.operands[0] ?? "") ?? 0) + 1);
  const edits: { op: Operation; text: string }[] = [];
  const added = new Map<string, mupdf.PDFObject>();
  const inlinedNames: string[] = [];
  // A `Do` inside a text object (not allowed there, but written by some producers) stays: `q` and
  // `re` are not allowed there either, and readers differ in what they make of them.
  let inText = 0;
  for (const op of read.operations) {
    if (op.operator === "BT") inText++;
    else if (op.operator === "ET") inText = Math.max(0, inText - 1);
    const name = op.operands[0] ?? "";
    if (op.operator !== "Do" || inText > 0 || uses.get(name) !== 1 || borrowed.has(name)) continue;
    const form = xobjects.get(name.slice(1));
    const plain = form.isIndirect() ? candidates.get(form.asIndirect()) : undefined;
    if (plain === undefined || references.get(form.asIndirect()) !== 1) continue;
    if (!addResources(resources, form.get("Resources"), added)) continue;
    edits.push({ op, text: drawnInPlace(form, plain.text) });
    inlinedNames.push(name.slice(1));
  }
  // The forms' objects go: their data (and dictionaries, not counted) is what the page may grow by.
  const allowance = inlinedNames.reduce(
    (sum, name) => sum + xobjects.get(name).readRawStream().getLength(),
    0,
  );
  const text = content.withEdits(read.text, edits);
  if (edits.length === 0 || !content.writeContent(pdf, contents, text, allowance)) return 0;
  for (const [key, value] of added) {
    const [category = "", name = ""] = key.split("/");
    if (resources.get(category).isNull()) resources.put(category, pdf.newDictionary());
    resources.get(category).put(name, value);
  }
  for (const name of inlinedNames) xobjects.delete(name);
  let left = 0;
  xobjects.forEach(() => {
    left++;
  });
  if (left === 0) resources.delete("XObject");
  return edits.length;
}

/** The operators that draw `form` where its `Do` stood. */
function drawnInPlace(form: mupdf.PDFObject, operators: string): string {
  const [left, bottom, right, top] = rectangle(form.get("BBox")) as [number, number, number, number];
  const matrix = form.get("Matrix");
  const numbers: number[] = [];
  if (matrix.isArray()) for (let i = 0; i < matrix.length; i++) numbers.push(matrix.get(i).asNumber());
  const identity = numbers.length !== 6 || numbers.join(" ") === "1 0 0 1 0 0";
  const cm = identity ? "" : `${numbers.map(exactPdfNumber).join(" ")} cm `;
  const clip = [left, bottom, right - left, top - bottom].map(exactPdfNumber).join(" ");
  return `q ${cm}${clip} re W n\n${operators}\nQ`;
}

/**
 * A number read from the file, written back exactly (no exponent): the shortest decimal that reads
 * back as the same single-precision value (MuPDF keeps reals so: 169.04 reads as 169.039993…).
 */
function exactPdfNumber(value: number): string {
  if (Math.abs(value) < 1e-6) return "0";
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === Math.fround(value)) return String(shorter);
  }
  return String(Number(value.toPrecision(9)));
}

/**
 * Adds to `added` ("category/name" → object) the form's resources the page lacks; false (and
 * nothing added) when the page, or a form drawn in place before, gives one of those names to
 * another object.
 */
function addResources(
  page: mupdf.PDFObject,
  form: mupdf.PDFObject,
  added: Map<string, mupdf.PDFObject>,
): boolean {
  if (form.isNull()) return true;
  if (!form.isDictionary()) return false;
  const additions: [string, mupdf.PDFObject][] = [];
  let clash = false;
  form.forEach((entries, category) => {
    if (!CATEGORIES.includes(String(category))) return;
    if (!entries.isDictionary()) {
      clash = true;
      return;
    }
    entries.forEach((value, name) => {
      const key = `${String(category)}/${String(name)}`;
      const pending = added.get(key);
      const held = pending ?? page.get(String(category), String(name));
      if (held.isNull()) additions.push([key, value]);
      else if (!held.isIndirect() || !value.isIndirect() || held.asIndirect() !== value.asIndirect())
        clash = true;
    });
  });
  if (clash) return false;
  for (const [key, value] of additions) added.set(key, value);
  return true;
}

import type * as mupdf from "mupdf";

/** Whether `value` is the name `name` (a value of any other type is not). */
export function isNamed(value: mupdf.PDFObject, name: string): boolean {
  return value.isName() && value.asName() === name;
}

/** Whether `value` is the number `number` (a value of any other type is not). */
export function isNumbered(value: mupdf.PDFObject, number: number): boolean {
  return value.isNumber() && value.asNumber() === number;
}

/** A Type 3 font: a dictionary whose /Subtype is /Type3. */
export function isType3Font(object: mupdf.PDFObject): boolean {
  return object.isDictionary() && isNamed(object.get("Subtype"), "Type3");
}

/** A form XObject or a tiling pattern (/PatternType 1): streams of content operators like a page's. */
export function isContentXObject(stream: mupdf.PDFObject): boolean {
  return isNamed(stream.get("Subtype"), "Form") || isNumbered(stream.get("PatternType"), 1);
}

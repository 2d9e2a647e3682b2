import type * as mupdf from "mupdf";
import {
  type Operation,
  pageResources,
  readOperations,
  withEdits,
  writeContent,
} from "./content-operations.ts";
import { everyObject } from "./every-object.ts";

/**
 * Operators that change only the graphics state (text state, colours, clipping and the current
 * path included) or open and close a text object: inside `q … Q` with nothing painted, they have no
 * effect once the `Q` restores the state (ISO 32000-1, 8.4.2 and table 51).
 */
const STATE_OPERATORS = new Set(
  [
    ["cm", "w", "J", "j", "M", "d", "ri", "i", "gs"],
    ["CS", "cs", "SC", "SCN", "sc", "scn", "G", "g", "RG", "rg", "K", "k"],
    ["m", "l", "c", "v", "y", "h", "re", "W", "W*", "n"],
    ["BT", "ET", "Tc", "Tw", "Tz", "TL", "Tf", "Tr", "Ts", "Td", "TD", "Tm", "T*"],
  ].flat(),
);
/** What may stand in a form's content besides state operators, the form still painting nothing. */
const NESTING_OPERATORS = new Set(["q", "Q", "BMC", "BDC", "EMC", "MP", "DP"]);
const MARKED_OPEN = new Set(["BMC", "BDC"]);

/**
 * Removes from page and form contents what draws nothing: `Do` of a form XObject whose content
 * paints nothing (flattened empty form fields: iText leaves `/Tx BMC EMC` appearances of every
 * empty text field, drawn at their place on the page), then `q … Q` groups left with state changes
 * only, and marked-content sequences with nothing inside (`/OC /MC0 BDC EMC`, an empty layer; a
 * sequence with an inline property list, which may carry a structure tree's MCID, stays). The
 * forms and layers no longer named go with the unused resources. A content with an inline image,
 * unbalanced groups or a filter other than plain ones is left whole. Returns the operators removed.
 */
export function removeEmptyDrawings(pdf: mupdf.PDFDocument): number {
  const emptyForms = new Set<number>();
  const holders: { stream: mupdf.PDFObject; resources: mupdf.PDFObject }[] = [];
  for (const { num, object } of everyObject(pdf)) {
    try {
      if (!object.isStream() || object.get("Subtype").asName() !== "Form") continue;
      const read = readOperations(object);
      if (read !== null && paintsNothing(read.operations)) emptyForms.add(num);
      if (object.get("Resources").isDictionary())
        holders.push({ stream: object, resources: object.get("Resources") });
    } catch {
      // A form that does not read is left as it is.
    }
  }
  for (let index = 0; index < pdf.countPages(); index++) {
    try {
      const page = pdf.findPage(index);
      const contents = page.get("Contents");
      if (contents.isStream()) holders.push({ stream: contents, resources: pageResources(page) });
    } catch {
      // A page that does not load is left as it is.
    }
  }
  let removed = 0;
  for (const { stream, resources } of holders) {
    try {
      removed += removeFromContent(pdf, stream, (name) => {
        const form = resources.get("XObject", name);
        return form.isIndirect() && emptyForms.has(form.asIndirect());
      });
    } catch {
      // A content that does not read is left as it is.
    }
  }
  return removed;
}

/** Whether a form's operations paint nothing (and carry no property list a structure tree could point into). */
function paintsNothing(operations: readonly Operation[]): boolean {
  return operations.every(
    (op) => !op.inlineDictionary && (STATE_OPERATORS.has(op.operator) || NESTING_OPERATORS.has(op.operator)),
  );
}

/**
 * Rewrites the content without the `Do` operations `isEmptyForm` names and the groups they leave
 * empty; returns how many operations went.
 */
function removeFromContent(
  pdf: mupdf.PDFDocument,
  stream: mupdf.PDFObject,
  isEmptyForm: (name: string) => boolean,
): number {
  const read = readOperations(stream);
  if (read === null) return 0;
  const { operations } = read;
  const gone = operations.map(
    (op) => op.operator === "Do" && op.operands.length === 1 && isEmptyForm(op.operands[0]?.slice(1) ?? ""),
  );
  const open: number[] = [];
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i] as Operation;
    if (op.operator === "q" || MARKED_OPEN.has(op.operator)) open.push(i);
    if (op.operator !== "Q" && op.operator !== "EMC") continue;
    const from = open.pop();
    if (from === undefined) return 0;
    const opener = operations[from] as Operation;
    if ((op.operator === "Q") !== (opener.operator === "q")) return 0;
    const inside = operations.slice(from + 1, i);
    const empty =
      op.operator === "Q"
        ? inside.every((item, k) => gone[from + 1 + k] || STATE_OPERATORS.has(item.operator))
        : !opener.inlineDictionary && inside.every((_, k) => gone[from + 1 + k]);
    if (empty) gone.fill(true, from, i + 1);
  }
  const removed = gone.filter(Boolean).length;
  if (removed === 0) return 0;
  const edits = operations.flatMap((op, i) => (gone[i] ? [{ op, text: "" }] : []));
  return writeContent(pdf, stream, withEdits(read.text, edits)) ? removed : 0;
}

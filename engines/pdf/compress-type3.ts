import type * as mupdf from "mupdf";
import { deleteEntriesExcept } from "./compress-resources.ts";
import { everyObject } from "./every-object.ts";
import { isType3Font } from "./object-kinds.ts";

/** The name MuPDF gives a Type 3 font it loads: its object, as glyphs drawn are recorded. */
const type3Name = (num: number) => `Type3 (${num} 0 R)`;

/** Whether the document has a Type 3 font (its glyphs are worth a run over the pages). */
export function hasType3Fonts(pdf: mupdf.PDFDocument): boolean {
  for (const { object } of everyObject(pdf)) if (isType3Font(object)) return true;
  return false;
}

/**
 * Drops the glyph procedures (/CharProcs) of Type 3 fonts that no page draws: a producer may give
 * a Type 3 font every glyph of a typeface to draw three (bug1245391: 758 procedures, 256 KB, for a
 * page that shows three glyphs; Ghostscript's output kept those three). `drawn` holds the codes a
 * run of every page drew, per font name (MuPDF draws a Type 3 glyph by its code). A font is left
 * whole when the run did not see it draw (it may be drawn where the run does not look), when it is
 * in `untouchable` (form and annotation fonts), when its codes cannot be read from its
 * /Differences, or when it shares its /CharProcs with another font. Returns the procedures dropped.
 */
export function pruneType3Glyphs(
  pdf: mupdf.PDFDocument,
  drawn: ReadonlyMap<string, ReadonlySet<number>>,
  untouchable: ReadonlySet<number>,
): number {
  const fonts: number[] = [];
  const procsUsers = new Map<number, number>();
  for (const { num, object: font } of everyObject(pdf)) {
    if (!isType3Font(font)) continue;
    fonts.push(num);
    const procs = font.get("CharProcs");
    if (procs.isIndirect()) procsUsers.set(procs.asIndirect(), (procsUsers.get(procs.asIndirect()) ?? 0) + 1);
  }
  let dropped = 0;
  for (const num of fonts) {
    const codes = drawn.get(type3Name(num));
    if (codes === undefined || untouchable.has(num)) continue;
    const font = pdf.newIndirect(num);
    const procs = font.get("CharProcs");
    const differences = font.get("Encoding", "Differences");
    if (!procs.isDictionary() || !differences.isArray()) continue;
    if (procs.isIndirect() && (procsUsers.get(procs.asIndirect()) ?? 0) > 1) continue;
    const kept = new Set<string>();
    let code = 0;
    for (let i = 0; i < differences.length; i++) {
      const item = differences.get(i);
      if (item.isNumber()) code = item.asNumber();
      else if (item.isName()) {
        if (codes.has(code)) kept.add(item.asName());
        code++;
      }
    }
    dropped += deleteEntriesExcept(procs, kept);
  }
  return dropped;
}

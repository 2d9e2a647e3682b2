import type * as mupdf from "mupdf";
import { annotationsOf } from "./page-annotations.ts";

/** Resource categories whose entries have content (and resources) of their own. */
const NESTED = ["XObject", "Pattern"] as const;
const APPEARANCES = ["N", "R", "D"] as const;

interface Cut {
  readonly category: (typeof NESTED)[number];
  readonly dictionary: mupdf.PDFObject;
  readonly name: string;
  readonly value: mupdf.PDFObject;
}

/**
 * Runs `run` with the resource loops of the document cut open: a form XObject or tiling pattern
 * whose resources lead back to itself (X1 draws X0, which draws X1). A viewer stops at the repeat
 * and draws each content once, but MuPDF's font subsetter follows the loop until its stack runs
 * out: the job ends in a WebAssembly trap (or spins for minutes). Each entry that closes a loop (a
 * back edge of a depth-first walk from the pages and their annotations' appearances) names an
 * empty form or pattern for the duration of `run` and its own object again afterwards, so `run`
 * sees every content once, and the document keeps its structure. (Removing the entry is not
 * enough: the subsetter, not finding the name, looked it up in the page's resources and looped.)
 */
export function withResourceCyclesCut<T>(pdf: mupdf.PDFDocument, run: () => T): T {
  const cuts = resourceCycles(pdf);
  for (const { category, dictionary, name } of cuts) dictionary.put(name, emptyContent(pdf, category));
  try {
    return run();
  } finally {
    for (const { dictionary, name, value } of cuts) dictionary.put(name, value);
  }
}

/** The entries closing a loop in the resources reachable from the pages, found without changing them. */
export function resourceCycles(pdf: mupdf.PDFDocument): Cut[] {
  const cuts: Cut[] = [];
  const onPath = new Set<number>();
  const finished = new Set<number>();
  const visitResources = (resources: mupdf.PDFObject) => {
    if (!resources.isDictionary()) return;
    for (const category of NESTED) {
      const dictionary = resources.get(category);
      if (!dictionary.isDictionary()) continue;
      const entries: [string, mupdf.PDFObject][] = [];
      dictionary.forEach((value, name) => {
        entries.push([String(name), value]);
      });
      for (const [name, value] of entries) {
        if (!value.isIndirect()) continue;
        const num = value.asIndirect();
        if (onPath.has(num)) cuts.push({ category, dictionary, name, value });
        else visit(value);
      }
    }
  };
  // Only indirect objects are followed, so the walk itself ends on any file.
  const visit = (object: mupdf.PDFObject) => {
    if (!object.isIndirect()) return;
    const num = object.asIndirect();
    if (finished.has(num) || onPath.has(num)) return;
    onPath.add(num);
    visitResources(object.get("Resources"));
    onPath.delete(num);
    finished.add(num);
  };
  const visitAppearance = (appearance: mupdf.PDFObject) => {
    if (appearance.isStream()) visit(appearance);
    else if (appearance.isDictionary())
      appearance.forEach((state) => {
        visit(state);
      });
  };
  for (let index = 0; index < pdf.countPages(); index++) {
    const page = pdf.findPage(index);
    visitResources(page.getInheritable("Resources"));
    for (const annotation of annotationsOf(page)) {
      const appearances = annotation.get("AP");
      if (!appearances.isDictionary()) continue;
      for (const kind of APPEARANCES) visitAppearance(appearances.get(kind));
    }
  }
  return cuts;
}

/** A form XObject or a tiling pattern that draws nothing. */
function emptyContent(pdf: mupdf.PDFDocument, category: (typeof NESTED)[number]): mupdf.PDFObject {
  const dictionary = pdf.newDictionary();
  dictionary.put("BBox", [0, 0, 1, 1]);
  dictionary.put("Resources", pdf.newDictionary());
  if (category === "XObject") {
    dictionary.put("Type", pdf.newName("XObject"));
    dictionary.put("Subtype", pdf.newName("Form"));
  } else {
    dictionary.put("Type", pdf.newName("Pattern"));
    for (const [key, value] of [
      ["PatternType", 1],
      ["PaintType", 1],
      ["TilingType", 1],
      ["XStep", 1],
      ["YStep", 1],
    ] as const)
      dictionary.put(key, value);
  }
  return pdf.addStream("", dictionary);
}

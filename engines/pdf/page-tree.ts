import type * as mupdf from "mupdf";
import type { EngineInput } from "../types.ts";
import { isNamed } from "./object-kinds.ts";
import { openPdfDocument } from "./open-pdf.ts";
import { editedPdf } from "./write-pdf.ts";

/** Page attributes a page inherits from its ancestors (ISO 32000-1, 7.7.3.4). */
const INHERITED = ["Resources", "MediaBox", "CropBox", "Rotate"] as const;
/** Deeper than any real page tree (a balanced tree of 10 kids a node holds 10^32 pages at 32). */
const MAX_DEPTH = 64;

interface PageWalk {
  /** Every page reached, in order, with the attributes it inherits that it lacks itself. */
  readonly pages: { readonly page: mupdf.PDFObject; readonly inherited: Map<string, mupdf.PDFObject> }[];
  /** False when the tree is malformed: a node reached twice (a cycle), a root that is a page, a
   *  node neither page nor tree, or deeper than MAX_DEPTH. */
  readonly sound: boolean;
}

/**
 * Inputs whose page tree MuPDF cannot walk, rewritten with a flat tree of the pages that can be
 * reached: a tree with a reference cycle (MuPDF counts its pages but throws "cycle in page tree" on
 * the one behind the loop: PDF_DAMAGED in every tool), or a catalog whose /Pages is a page itself
 * (MuPDF reads no pages). poppler and qpdf read such files; the pages reached are kept in order,
 * each with the attributes it inherited, and a loop adds nothing. A sound tree whose page count
 * MuPDF agrees with passes as it is, as do locked and unreadable files.
 */
export function withReadablePageTree(inputs: readonly EngineInput[]): EngineInput[] {
  return inputs.map((input) => {
    if (input.kind !== "pdf") return input;
    const rebuilt = rebuildPageTree(input.bytes);
    return rebuilt === undefined ? input : { ...input, bytes: rebuilt };
  });
}

function rebuildPageTree(bytes: Uint8Array): Uint8Array | undefined {
  let reached = 0;
  const rebuilt = editedPdf(bytes, (pdf) => {
    const root = pdf.getTrailer().get("Root");
    const walk = walkPages(root.get("Pages"));
    reached = walk.pages.length;
    if (reached === 0 || (walk.sound && reached === countPages(pdf))) return false;
    const tree = pdf.addObject(pdf.newDictionary());
    const kids = pdf.newArray();
    for (const { page, inherited } of walk.pages) {
      for (const [key, value] of inherited) page.put(key, value);
      page.put("Parent", tree);
      kids.push(page);
    }
    tree.put("Type", pdf.newName("Pages"));
    tree.put("Kids", kids);
    tree.put("Count", reached);
    root.put("Pages", tree);
    return true;
  });
  return rebuilt !== undefined && countPagesOf(rebuilt) === reached ? rebuilt : undefined;
}

/** The pages reached from the tree's root, depth first, each node visited once. */
function walkPages(treeRoot: mupdf.PDFObject): PageWalk {
  const pages: PageWalk["pages"] = [];
  const seen = new Set<number>();
  let sound = isNamed(treeRoot.get("Type"), "Pages");
  const visit = (node: mupdf.PDFObject, inherited: Map<string, mupdf.PDFObject>, depth: number) => {
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) {
        sound = false;
        return;
      }
      seen.add(node.asIndirect());
    }
    const kids = node.get("Kids");
    if (depth > MAX_DEPTH || !node.isDictionary()) {
      sound = false;
    } else if (!isNamed(node.get("Type"), "Page") && kids.isArray()) {
      const passed = new Map(inherited);
      for (const key of INHERITED) {
        const value = node.get(key);
        if (!value.isNull()) passed.set(key, value);
      }
      for (let i = 0; i < kids.length; i++) visit(kids.get(i), passed, depth + 1);
    } else if (isNamed(node.get("Type"), "Page") || !node.get("Type").isName()) {
      const lacking = new Map([...inherited].filter(([key]) => node.get(key).isNull()));
      pages.push({ page: node, inherited: lacking });
    } else {
      sound = false;
    }
  };
  visit(treeRoot, new Map(), 0);
  return { pages, sound };
}

/** MuPDF's page count, -1 when it cannot count. */
function countPages(pdf: mupdf.PDFDocument): number {
  try {
    return pdf.countPages();
  } catch {
    return -1;
  }
}

function countPagesOf(bytes: Uint8Array): number {
  const pdf = openPdfDocument(bytes, 0);
  try {
    return countPages(pdf);
  } finally {
    pdf.destroy();
  }
}

import type * as mupdf from "mupdf";

/** Upper bound on number-tree nodes read: the tree of a hostile file may loop. */
const MAX_NODES = 10_000;

/** One label range of a source: from 0-based page `start`, numbered as `label` says (/S, /P, /St). */
export interface LabelRange {
  readonly start: number;
  readonly label: mupdf.PDFObject;
}

/** The page label ranges of a document (/PageLabels number tree), sorted by first page. */
export function readPageLabels(document: mupdf.PDFDocument): LabelRange[] {
  const ranges: LabelRange[] = [];
  const root = document.getTrailer().get("Root", "PageLabels");
  const pending = root.isDictionary() ? [root] : [];
  for (
    let visited = 0, node = pending.pop();
    node !== undefined && visited < MAX_NODES;
    node = pending.pop()
  ) {
    visited++;
    const nums = node.get("Nums");
    if (nums.isArray()) {
      for (let i = 0; i + 1 < nums.length; i += 2) {
        const start = nums.get(i);
        const label = nums.get(i + 1);
        if (start.isInteger() && label.isDictionary()) ranges.push({ start: start.asNumber(), label });
      }
    }
    const kids = node.get("Kids");
    if (kids.isArray()) for (let i = 0; i < kids.length; i++) pending.push(kids.get(i));
  }
  return ranges.sort((a, b) => a.start - b.start);
}

/**
 * Gives `target`, made of source pages `from`..`to` (0-based, inclusive) in order, the labels those
 * pages had: page "iii" stays "iii" and page "A-4" stays "A-4". Nothing is written when the source
 * had no labels.
 */
export function writePageLabels(
  target: mupdf.PDFDocument,
  ranges: readonly LabelRange[],
  from: number,
  to: number,
): void {
  const nums = target.newArray();
  const firstLabelled = ranges[0]?.start;
  if (firstLabelled !== undefined && firstLabelled > from && firstLabelled <= to) {
    // The tree must label page 0: pages before the source's first range keep their numbers.
    const plain = target.newDictionary();
    plain.put("S", target.newName("D"));
    if (from > 0) plain.put("St", from + 1);
    nums.push(0);
    nums.push(plain);
  }
  for (const [i, range] of ranges.entries()) {
    const next = ranges[i + 1]?.start ?? Number.POSITIVE_INFINITY;
    if (range.start > to || next <= from) continue;
    const first = Math.max(range.start, from);
    const label = target.newDictionary();
    const style = range.label.get("S");
    if (style.isName()) label.put("S", target.newName(style.asName()));
    const prefix = range.label.get("P");
    if (prefix.isString()) label.put("P", target.newString(prefix.asString()));
    const start = range.label.get("St");
    const number = (start.isInteger() ? start.asNumber() : 1) + (first - range.start);
    if (number !== 1) label.put("St", number);
    nums.push(first - from);
    nums.push(label);
  }
  if (nums.length === 0) return;
  const tree = target.newDictionary();
  tree.put("Nums", nums);
  target.getTrailer().get("Root").put("PageLabels", tree);
}

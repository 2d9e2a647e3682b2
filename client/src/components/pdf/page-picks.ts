import { formatPageRanges, rangesOfPages } from "../../lib/contract";

/**
 * The ranges text after a click on a page thumbnail: a click toggles the page; a shift-click adds
 * every page from the last clicked one (`anchor`) to this one. Contiguous pages join into one range.
 */
export function toggledRanges(
  selected: ReadonlySet<number>,
  page: number,
  shift: boolean,
  anchor: number | null,
): string {
  const next = new Set(selected);
  if (shift && anchor !== null) {
    const [from, to] = anchor <= page ? [anchor, page] : [page, anchor];
    for (let p = from; p <= to; p++) next.add(p);
  } else if (next.has(page)) next.delete(page);
  else next.add(page);
  return formatPageRanges(rangesOfPages(next));
}

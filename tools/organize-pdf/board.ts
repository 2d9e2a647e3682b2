/**
 * The pages on the Organize PDF screen and what the user does to them, as pure functions over an
 * immutable list (each step is one undo entry). A page is a source page or a blank page, with the
 * turn added to it; its `key` stays with it through moves and is new for every copy.
 */
import type { OrderedPage, QuarterTurn } from "./page-order.ts";

export interface BoardPage extends OrderedPage {
  readonly key: string;
}

let counter = 0;
const nextKey = () => `p${++counter}`;

export function initialPages(pageCount: number): BoardPage[] {
  return Array.from({ length: pageCount }, (_, index) => ({ key: nextKey(), source: index + 1, rotate: 0 }));
}

const turn = (rotate: QuarterTurn, by: 90 | -90): QuarterTurn => ((rotate + by + 360) % 360) as QuarterTurn;

/** The pages in `keys` turned by a quarter, clockwise (90) or anticlockwise (-90). */
export function rotatePages(
  pages: readonly BoardPage[],
  keys: ReadonlySet<string>,
  by: 90 | -90,
): BoardPage[] {
  return pages.map((page) => (keys.has(page.key) ? { ...page, rotate: turn(page.rotate, by) } : page));
}

export function deletePages(pages: readonly BoardPage[], keys: ReadonlySet<string>): BoardPage[] {
  return pages.filter((page) => !keys.has(page.key));
}

/** Each page in `keys` followed by a copy of itself. */
export function duplicatePages(pages: readonly BoardPage[], keys: ReadonlySet<string>): BoardPage[] {
  return pages.flatMap((page) => (keys.has(page.key) ? [page, { ...page, key: nextKey() }] : [page]));
}

/** A blank page after the last page in `keys`, or at the end when none is. */
export function insertBlank(pages: readonly BoardPage[], keys: ReadonlySet<string>): BoardPage[] {
  let at = pages.length;
  pages.forEach((page, index) => {
    if (keys.has(page.key)) at = index + 1;
  });
  const blank: BoardPage = { key: nextKey(), source: 0, rotate: 0 };
  return [...pages.slice(0, at), blank, ...pages.slice(at)];
}

/** The page at `from` moved to `to` (indices in the list). */
export function movePage(pages: readonly BoardPage[], from: number, to: number): BoardPage[] {
  const moved = [...pages];
  const [page] = moved.splice(from, 1);
  if (page === undefined) return moved;
  moved.splice(to, 0, page);
  return moved;
}

/**
 * The selection after a click on `key`: toggled alone, or with shift the run from the last clicked
 * page (the anchor) to this one added.
 */
export function toggleSelection(
  pages: readonly BoardPage[],
  selected: ReadonlySet<string>,
  key: string,
  anchor: string | null,
  shift: boolean,
): Set<string> {
  const next = new Set(selected);
  const from = anchor === null ? -1 : pages.findIndex((page) => page.key === anchor);
  const to = pages.findIndex((page) => page.key === key);
  if (shift && from >= 0 && to >= 0) {
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      const page = pages[i];
      if (page !== undefined) next.add(page.key);
    }
    return next;
  }
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

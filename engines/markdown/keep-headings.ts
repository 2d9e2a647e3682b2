/**
 * No heading left alone at the foot of a page. MuPDF's layout ignores `page-break-after: avoid`
 * (measured: 1 of 20 documents ended a page on a heading), so the layout is checked instead: a
 * heading whose top lies in the last lines of its page gets a page break in front of it, and the
 * document is laid out again (a few rounds at most: each break moves what follows).
 */
import type * as mupdf from "mupdf";

/** A heading starting this close to the page's foot (points) leaves no room for two lines under it. */
const FOOT_ROOM = 90;
const MAX_ROUNDS = 3;

type OutlineItem = NonNullable<ReturnType<mupdf.Document["loadOutline"]>>[number];

/** The ids of headings that start within the last lines of their page. */
function headingsAtFoot(source: mupdf.Document, height: number): string[] {
  const ids: string[] = [];
  const visit = (items: readonly OutlineItem[]) => {
    for (const item of items) {
      const uri = item.uri ?? "";
      if (uri.startsWith("#") && uri.length > 1) {
        try {
          const dest = source.resolveLinkDestination(uri);
          // Not the first thing on its page, and too low to keep a line of text under it.
          if (dest.y > 1 && dest.y > height - FOOT_ROOM) ids.push(uri.slice(1));
        } catch {
          // A heading MuPDF cannot place is left as it is.
        }
      }
      visit(item.down ?? []);
    }
  };
  visit(source.loadOutline() ?? []);
  return ids;
}

/** The HTML with a page break before each heading of `ids` (matched by its id attribute). */
function breakBefore(html: string, ids: readonly string[]): string {
  let result = html;
  for (const id of ids) {
    const quoted = `id="${id.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}"`;
    result = result.replace(
      new RegExp(`<(h[1-6])([^>]*?)\\s${escapeRegExp(quoted)}`),
      (match) => `<div class="page-break"></div>${match}`,
    );
  }
  return result;
}

function escapeRegExp(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Lays `html` out with `open` (which builds and lays out a document) until no heading stands at a
 * page's foot; returns the last document, which the caller owns.
 */
export function layoutKeepingHeadings(
  html: string,
  height: number,
  open: (html: string) => mupdf.Document,
  tooLong: (document: mupdf.Document) => boolean,
): mupdf.Document {
  let current = html;
  let source = open(current);
  for (let round = 0; round < MAX_ROUNDS && !tooLong(source); round++) {
    const ids = headingsAtFoot(source, height);
    if (ids.length === 0) break;
    const next = breakBefore(current, ids);
    if (next === current) break;
    source.destroy();
    current = next;
    source = open(current);
  }
  return source;
}

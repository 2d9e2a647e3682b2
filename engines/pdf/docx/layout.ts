/**
 * One page as blocks in reading order: ruled tables first take the text inside them, then the
 * remaining lines, tables and pictures are put in reading order (columns) and the lines of each
 * column become paragraphs.
 */
import { findRuledGrids, type RuledGrid } from "../ruled-grid.ts";
import { type Box, type PageText, unionBox } from "../structured-text.ts";
import type { Block, Line, PageModel, Picture, Table, TableCell } from "./model.ts";
import { buildParagraphs } from "./paragraphs.ts";
import { readingOrder } from "./reading-order.ts";
import { distributeText, splitLevelCells, splitStackedRows } from "./table-text.ts";

type Piece = { readonly box: Box } & ({ kind: "line"; line: Line } | { kind: "block"; block: Block });

/** Lays out a page from its visual lines (running heads already taken out) and pictures. */
export function layoutPage(page: PageText, lines: readonly Line[], pictures: readonly Picture[]): PageModel {
  const { found, free, cells } = gridsAndText(findRuledGrids(page.rules), lines);
  // A grid that holds no text is a drawing (boxes, frames), not a table.
  const tables = found.flatMap((grid, g) => {
    const inCells = cells[g] ?? [];
    if (!inCells.some((cell) => cell.length > 0)) return [];
    const level = splitLevelCells(grid, inCells);
    const split = splitStackedRows(level.grid, level.lines);
    return [tableOf(split.grid, split.lines, page)];
  });
  const pieces: Piece[] = [
    ...free.map((line) => ({ kind: "line" as const, line, box: line.box, text: line.text })),
    ...tables.map((block) => ({ kind: "block" as const, block, box: block.box })),
    ...pictures.map((block) => ({ kind: "block" as const, block, box: block.box })),
  ];
  const blocks: Block[] = [];
  for (const region of readingOrder(pieces, gutterWidth(free))) {
    let run: Line[] = [];
    const flush = () => {
      if (run.length === 0) return;
      // Lines set under a column of text above them are measured against its width.
      const column = {
        left: Math.min(...run.map((l) => l.box[0]), region.under?.[0] ?? Number.POSITIVE_INFINITY),
        right: Math.max(...run.map((l) => l.box[2]), region.under?.[1] ?? Number.NEGATIVE_INFINITY),
      };
      blocks.push(...buildParagraphs(run, column));
      run = [];
    };
    for (const piece of region) {
      if (piece.kind === "line") {
        run.push(piece.line);
      } else {
        flush();
        blocks.push(piece.block);
      }
    }
    flush();
  }
  return {
    index: page.index,
    width: page.width,
    height: page.height,
    content: pieces.length === 0 ? null : unionBox(pieces.map((piece) => piece.box)),
    blocks,
    scanned: lines.length === 0 && pictures.length > 0,
  };
}

/**
 * The ruled grids that are tables, with the text in their cells and the text outside them. A grid
 * most of whose text is parts of lines running on outside it is a form's boxes drawn at the end
 * of its lines (leaders running to a line number and an amount box): its text stays in its lines.
 */
function gridsAndText(grids: readonly RuledGrid[], lines: readonly Line[]) {
  const first = distributeText(lines, grids);
  const found = grids.filter((_, g) => {
    const pieces = (first.cells[g] ?? []).reduce((sum, cell) => sum + cell.length, 0);
    return (first.crossing[g] ?? 0) * 2 < pieces;
  });
  return { found, ...(found.length === grids.length ? first : distributeText(lines, found)) };
}

/** Narrowest gap between columns: a little less than the usual font size, at least 6 points. */
export function gutterWidth(lines: readonly Line[]): number {
  const sizes = lines.map((line) => line.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 10;
  return Math.max(6, median * 0.9);
}

function tableOf(grid: RuledGrid, lines: readonly (readonly Line[])[], page: PageText): Table {
  const rows = grid.ys.length - 1;
  const cells: (TableCell & { column: number })[][] = Array.from({ length: rows }, () => []);
  grid.cells.forEach((cell, c) => {
    const paragraphs = buildParagraphs(lines[c] ?? [], { left: cell.box[0] + 1, right: cell.box[2] - 1 });
    const fill = page.fills.find((f) => covers(f.box, cell.box) && f.color !== "FFFFFF")?.color ?? null;
    cells[cell.row]?.push({
      column: cell.column,
      columnSpan: cell.columnSpan,
      rowSpan: cell.rowSpan,
      paragraphs,
      fill,
    });
  });
  for (const row of cells) row.sort((a, b) => a.column - b.column);
  const columns = grid.xs.slice(1).map((x, i) => x - (grid.xs[i] ?? 0));
  const heights = grid.ys.slice(1).map((y, i) => y - (grid.ys[i] ?? 0));
  return { type: "table", box: grid.box, columns, rows: heights, cells };
}

function covers(outer: Box, box: Box): boolean {
  const w = Math.min(outer[2], box[2]) - Math.max(outer[0], box[0]);
  const h = Math.min(outer[3], box[3]) - Math.max(outer[1], box[1]);
  return w > 0 && h > 0 && w * h >= (box[2] - box[0]) * (box[3] - box[1]) * 0.8;
}

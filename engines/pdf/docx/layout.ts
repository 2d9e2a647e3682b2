/**
 * One page as blocks in reading order: ruled tables first take the text inside them, then the
 * remaining lines, tables and pictures are put in reading order (columns) and the lines of each
 * column become paragraphs.
 */
import { findRuledGrids, type RuledGrid } from "../ruled-grid.ts";
import { type Box, type PageText, unionBox } from "../structured-text.ts";
import { sliceLine } from "./lines.ts";
import type { Block, Line, PageModel, Picture, Table, TableCell } from "./model.ts";
import { buildParagraphs } from "./paragraphs.ts";
import { readingOrder } from "./reading-order.ts";

type Piece = { readonly box: Box } & ({ kind: "line"; line: Line } | { kind: "block"; block: Block });

/** Lays out a page from its visual lines (running heads already taken out) and pictures. */
export function layoutPage(page: PageText, lines: readonly Line[], pictures: readonly Picture[]): PageModel {
  const grids = findRuledGrids(page.rules).filter((grid) => lines.some((line) => inside(line.box, grid.box)));
  const tables = grids.map((grid) =>
    tableOf(
      grid,
      lines.filter((line) => overlaps(line.box, grid.box)),
      page,
    ),
  );
  const free = lines.filter((line) => !grids.some((grid) => inside(line.box, grid.box)));
  const pieces: Piece[] = [
    ...free.map((line) => ({ kind: "line" as const, line, box: line.box })),
    ...tables.map((block) => ({ kind: "block" as const, block, box: block.box })),
    ...pictures.map((block) => ({ kind: "block" as const, block, box: block.box })),
  ];
  const blocks: Block[] = [];
  for (const region of readingOrder(pieces, gutterOf(free))) {
    let run: Line[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const column = {
        left: Math.min(...run.map((l) => l.box[0])),
        right: Math.max(...run.map((l) => l.box[2])),
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

/** Narrowest gap between columns: a little less than the usual font size, at least 6 points. */
function gutterOf(lines: readonly Line[]): number {
  const sizes = lines.map((line) => line.size).sort((a, b) => a - b);
  const median = sizes[Math.floor(sizes.length / 2)] ?? 10;
  return Math.max(6, median * 0.9);
}

function inside(box: Box, outer: Box): boolean {
  const x = (box[0] + box[2]) / 2;
  const y = (box[1] + box[3]) / 2;
  return x >= outer[0] - 1 && x <= outer[2] + 1 && y >= outer[1] - 1 && y <= outer[3] + 1;
}

function overlaps(a: Box, b: Box): boolean {
  return a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1];
}

function tableOf(grid: RuledGrid, lines: readonly Line[], page: PageText): Table {
  const rows = grid.ys.length - 1;
  const cells: (TableCell & { column: number })[][] = Array.from({ length: rows }, () => []);
  for (const cell of grid.cells) {
    const inCell = lines
      .map((line) => sliceLine(line, cell.box))
      .filter((line): line is Line => line !== null)
      .sort((a, b) => a.baseline - b.baseline || a.box[0] - b.box[0]);
    const paragraphs = buildParagraphs(inCell, { left: cell.box[0] + 1, right: cell.box[2] - 1 });
    const fill = page.fills.find((f) => covers(f.box, cell.box) && f.color !== "FFFFFF")?.color ?? null;
    cells[cell.row]?.push({
      column: cell.column,
      columnSpan: cell.columnSpan,
      rowSpan: cell.rowSpan,
      paragraphs,
      fill,
    });
  }
  const columns = grid.xs.slice(1).map((x, i) => x - (grid.xs[i] ?? 0));
  const heights = grid.ys.slice(1).map((y, i) => y - (grid.ys[i] ?? 0));
  return { type: "table", box: grid.box, columns, rows: heights, cells };
}

function covers(outer: Box, box: Box): boolean {
  const w = Math.min(outer[2], box[2]) - Math.max(outer[0], box[0]);
  const h = Math.min(outer[3], box[3]) - Math.max(outer[1], box[1]);
  return w > 0 && h > 0 && w * h >= (box[2] - box[0]) * (box[3] - box[1]) * 0.8;
}

/**
 * Reading order of a page's pieces (lines, tables, images): a recursive XY cut. The page is cut
 * into horizontal bands (pieces overlapping vertically); consecutive bands that share an empty
 * vertical gutter form a multi-column region, read column by column (each column recursively);
 * other bands are read top to bottom. A heading or figure spanning the columns ends the region,
 * so text above it is read before it and text below after it.
 *
 * Within a band, pieces are read line by line, each line left to right; a tall piece (a brace
 * beside several lines) comes at its top and does not merge the lines beside it into one.
 *
 * Two kinds of side-by-side text are rows rather than columns: a column of numbers (a table of
 * contents' page numbers, a form's line numbers in either margin, a price list's amounts, a
 * table's figures under a header row) goes with the column of text it numbers, which is then read
 * line by line (the whole region when the other columns' lines are level with them: a table),
 * and a band whose only side pieces are numbers is no band of columns; and a region cut by at
 * least two empty horizontal strips across all its columns into short rows (a borderless table:
 * a label beside a few lines of text) is read row by row, each row column by column. A narrow
 * first column of labels whose every block starts level with a line beside it (a form's section
 * labels, a contents page's "Appendix B") cuts the region into sections, each read label first.
 */
import type { Box } from "../structured-text.ts";

export interface Placed {
  readonly box: Box;
  /** The piece's text, when it is a line (numbers-only columns are found by it). */
  readonly text?: string;
}

/** A page number, amount or figure: digits with separators, or a roman numeral. */
const NUMBER = /^[([]?[-+–]?[$€£¥]?(\d[\d.,:/–-]*|[ivxlcdm]+|[IVXLCDM]+)%?[)\]]?$/u;
/**
 * A cell of figures: numbers with at most two letters of unit or label ("2.20x", "8a", "5 kg"
 * is two cells), or a dash for an empty cell, separated by spaces.
 */
const FIGURE = /^[([]?[-+–]?[$€£¥]?\d[\d.,:/–-]*[\p{L}%]{0,2}[)\]]?$|^[-–—]$/u;
/** Share of a column's lines level with lines of the next column in a table. */
const LEVEL_SHARE = 0.8;
/** Cells of a borderless table hold at most this many lines on average. */
const MAX_CELL_LINES = 4;

/**
 * Pieces read in a row. `under`: the left and right of the column of text above whose pieces
 * they are set under, when they come after that column's region (its lines' width for theirs).
 */
export type Region<T> = T[] & { under?: readonly [number, number] };

/** The pieces in reading order, as regions (columns or single-column runs) in order. */
export function readingOrder<T extends Placed>(pieces: readonly T[], gutter: number): Region<T>[] {
  if (pieces.length <= 1) return pieces.length === 0 ? [] : [[...pieces]];
  const regions: Region<T>[] = [];
  let group: { pieces: T[]; columns: boolean; under?: readonly [number, number] } | null = null;
  const flush = () => {
    if (group === null) return;
    if (!group.columns) {
      const region: Region<T> = group.pieces;
      if (group.under !== undefined) region.under = group.under;
      regions.push(region);
    } else {
      const split = splitColumns(group.pieces, gutter);
      const columns = withNumbersAttached(split);
      const rows = columns.length > 1 ? tableRows(group.pieces, columns) : null;
      // A column of numbers is read with the text on its line; so is a table around it.
      const numbered = columns.length < split.length;
      if (columns.length <= 1 || (numbered && levelColumns(columns))) regions.push(group.pieces);
      else if (rows !== null) for (const row of rows) regions.push(...readingOrder(row, gutter));
      else {
        const sections = labelSections(group.pieces, columns);
        for (const part of sections ?? columns) regions.push(...readingOrder(part, gutter));
      }
    }
    group = null;
  };
  let last: T[] = [];
  for (const band of bands(pieces)) {
    // A band is cut into columns by a gutter, unless all beside its text are numbers (a line
    // number or page number on the text's line).
    const banded =
      gutterOf(band, gutter) !== null && withNumbersAttached(splitColumns(band, gutter)).length > 1;
    const previous = last;
    last = band;
    let under: readonly [number, number] | undefined;
    if (group !== null) {
      if (group.columns && gutterOf([...group.pieces, ...band], gutter) !== null) {
        under = banded ? undefined : belowColumns(group.pieces, previous, band, gutter);
        if (under === undefined) {
          group.pieces.push(...band);
          continue;
        }
      }
      if (!group.columns && !banded) {
        group.pieces.push(...band);
        continue;
      }
    }
    flush();
    group = { pieces: [...band], columns: banded, ...(under === undefined ? {} : { under }) };
  }
  flush();
  return regions;
}

/**
 * The band, lying under one column only, comes after the columns rather than in the one above it:
 * every column ends in the band before (balanced columns, as a browser lays out CSS columns, end
 * level) and more white than a line's height separates them (a paragraph's gap, not the next line).
 * Then the left and right of the column it lies under, else undefined.
 */
function belowColumns<T extends Placed>(
  pieces: readonly T[],
  previous: readonly T[],
  band: readonly T[],
  gutter: number,
): readonly [number, number] | undefined {
  const columns = withNumbersAttached(splitColumns(pieces, gutter));
  if (columns.length < 2 || !columns.every((column) => column.some((piece) => previous.includes(piece))))
    return undefined;
  const line = Math.max(...previous.map((piece) => piece.box[3] - piece.box[1]));
  const gap =
    Math.min(...band.map((piece) => piece.box[1])) - Math.max(...previous.map((piece) => piece.box[3]));
  if (gap <= line) return undefined;
  const left = Math.min(...band.map((piece) => piece.box[0]));
  const above = columns.find((column) => column.some((piece) => piece.box[2] > left)) ?? [];
  const extent = [...above, ...band];
  return [Math.min(...extent.map((piece) => piece.box[0])), Math.max(...extent.map((piece) => piece.box[2]))];
}

/** Groups of pieces whose vertical extents overlap, top to bottom, each sorted left to right. */
function bands<T extends Placed>(pieces: readonly T[]): T[][] {
  const sorted = [...pieces].sort((a, b) => a.box[1] - b.box[1]);
  const result: T[][] = [];
  let current: T[] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const piece of sorted) {
    const height = piece.box[3] - piece.box[1];
    // Overlapping the band by more than a third of the piece's height: the same band. So is a
    // piece that overlaps it less but only beside its pieces at that height, never under them
    // (a sidebar's line set between two lines of the text column has a band of its own otherwise,
    // and the sidebar is read in the middle of the text).
    const beside = () =>
      current.every(
        (other) =>
          other.box[3] <= piece.box[1] || other.box[2] <= piece.box[0] || other.box[0] >= piece.box[2],
      );
    if (
      current.length > 0 &&
      (bottom - piece.box[1] > height * 0.33 || (bottom > piece.box[1] && beside()))
    ) {
      current.push(piece);
      bottom = Math.max(bottom, piece.box[3]);
      continue;
    }
    if (current.length > 0) result.push(current);
    current = [piece];
    bottom = piece.box[3];
  }
  if (current.length > 0) result.push(current);
  return result.map(inLines);
}

/** Pieces taller than this many usual line heights (a brace, a drop cap) are no line of text. */
const TALL = 2;

/**
 * A band's pieces by line, top to bottom, each line left to right: a piece is on a line when its
 * middle is within half a height of the line's first piece. A tall piece (a brace spanning the
 * band's lines) comes at its top on a line of its own, so the lines beside it stay in order.
 */
function inLines<T extends Placed>(band: T[]): T[] {
  const height = (piece: Placed) => piece.box[3] - piece.box[1];
  const middle = (piece: Placed) => (piece.box[1] + piece.box[3]) / 2;
  const heights = band.map(height).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)] ?? 0;
  const lines: T[][] = [];
  for (const piece of [...band].sort((a, b) => a.box[1] - b.box[1])) {
    const tall = height(piece) > usual * TALL;
    const line = tall
      ? undefined
      : lines.find((candidate) => {
          const first = candidate[0];
          return (
            first !== undefined &&
            height(first) <= usual * TALL &&
            Math.abs(middle(first) - middle(piece)) < Math.min(height(first), height(piece)) * 0.5
          );
        });
    if (line === undefined) lines.push([piece]);
    else line.push(piece);
  }
  return lines.flatMap((line) => line.sort((a, b) => a.box[0] - b.box[0]));
}

/** The widest empty vertical strip of at least `gutter` points between the pieces, or null. */
function gutterOf(pieces: readonly Placed[], gutter: number): [number, number] | null {
  const gaps = verticalGaps(pieces);
  let best: [number, number] | null = null;
  for (const gap of gaps) {
    if (gap[1] - gap[0] >= gutter && (best === null || gap[1] - gap[0] > best[1] - best[0])) best = gap;
  }
  return best;
}

function verticalGaps(pieces: readonly Placed[]): [number, number][] {
  const spans = pieces.map((piece) => [piece.box[0], piece.box[2]] as const).sort((a, b) => a[0] - b[0]);
  const gaps: [number, number][] = [];
  let right = spans[0]?.[1] ?? 0;
  for (const [x0, x1] of spans.slice(1)) {
    if (x0 > right) gaps.push([right, x0]);
    right = Math.max(right, x1);
  }
  return gaps;
}

/** Splits at every gutter-wide gap, left to right. */
function splitColumns<T extends Placed>(pieces: readonly T[], gutter: number): T[][] {
  const cuts = verticalGaps(pieces)
    .filter((gap) => gap[1] - gap[0] >= gutter)
    .map((gap) => (gap[0] + gap[1]) / 2);
  const columns: T[][] = cuts.map(() => []);
  columns.push([]);
  for (const piece of pieces) {
    const middle = (piece.box[0] + piece.box[2]) / 2;
    let index = cuts.findIndex((cut) => middle < cut);
    if (index < 0) index = cuts.length;
    columns[index]?.push(piece);
  }
  return columns.filter((column) => column.length > 0);
}

/**
 * The columns with each column of numbers joined to the column of text it numbers: the one on its
 * left (page numbers, a form's line numbers at the right margin, a table's figures), or for a
 * first column the one on its right (line numbers at the left margin).
 */
function withNumbersAttached<T extends Placed>(columns: readonly T[][]): T[][] {
  const result: T[][] = [];
  let leading: T[] = [];
  for (const column of columns) {
    const previous = result.at(-1);
    if (!numbersOnly(column)) {
      result.push([...leading, ...column]);
      leading = [];
    } else if (previous === undefined) leading.push(...column);
    else previous.push(...column);
  }
  if (leading.length > 0) result.push(leading);
  return result;
}

/**
 * Most lines of each column sit level with a line of the column beside it (centres within a
 * fifth of a line's height): the columns of a table, whose rows are read across. Text set beside
 * a form's rows at its own line spacing (a sidebar) is not.
 */
function levelColumns(columns: readonly (readonly Placed[])[]): boolean {
  const centre = (piece: Placed) => (piece.box[1] + piece.box[3]) / 2;
  const height = (piece: Placed) => piece.box[3] - piece.box[1];
  return columns.slice(1).every((column, c) => {
    const other = columns[c] ?? [];
    const [fewer, more] = column.length <= other.length ? [column, other] : [other, column];
    const level = fewer.filter((piece) =>
      more.some((o) => Math.abs(centre(o) - centre(piece)) <= Math.min(height(o), height(piece)) * 0.2),
    ).length;
    return level >= fewer.length * LEVEL_SHARE;
  });
}

/**
 * A column of page numbers or of figures (a table's column), under at most a header row: the
 * pieces level with its top piece may be any text.
 */
function numbersOnly(column: readonly Placed[]): boolean {
  // The bottom of the top row: pieces starting above it are in that row.
  const firstRow = Math.min(...column.map((piece) => piece.box[3]));
  const body = column.filter((piece) => piece.box[1] >= firstRow);
  const header = column.length - body.length;
  const numeric = (piece: Placed) => {
    const text = piece.text?.trim();
    if (text === undefined) return false;
    return NUMBER.test(text) || text.split(/\s+/).every((cell) => FIGURE.test(cell));
  };
  return column.every(numeric) || (header > 0 && body.length >= 2 && body.every(numeric));
}

/** Blocks of a label column begin after more white than this many of their line heights. */
const LABEL_BLOCK_GAP = 1;

/**
 * The region cut into sections at the top of each block of a narrow first column of labels (a
 * form's "Income" with its notes beside the income lines, a CV's dates beside each post), when
 * every block starts level with a line of the columns beside it: each section is then read on
 * its own, its label first. Otherwise null (columns of text are read whole).
 */
function labelSections<T extends Placed>(
  pieces: readonly T[],
  columns: readonly (readonly T[])[],
): T[][] | null {
  const labels = columns[0];
  if (labels === undefined || columns.length < 2) return null;
  const inLabels = new Set<T>(labels);
  const rest = pieces.filter((piece) => !inLabels.has(piece));
  const width = (list: readonly T[]) =>
    Math.max(...list.map((piece) => piece.box[2])) - Math.min(...list.map((piece) => piece.box[0]));
  if (rest.length === 0 || width(labels) * 3 > width(rest)) return null;
  const height = (piece: Placed) => piece.box[3] - piece.box[1];
  const tops: number[] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const piece of [...labels].sort((a, b) => a.box[1] - b.box[1])) {
    if (piece.box[1] - bottom > height(piece) * LABEL_BLOCK_GAP) tops.push(piece.box[1]);
    bottom = Math.max(bottom, piece.box[3]);
  }
  const level = (top: number) => rest.some((piece) => Math.abs(piece.box[1] - top) <= height(piece) * 0.5);
  if (tops.length < 2 || !tops.every(level)) return null;
  const cuts = tops.slice(1);
  const sections: T[][] = tops.map(() => []);
  for (const piece of pieces) {
    const section = cuts.filter((cut) => piece.box[1] >= cut - height(piece) * 0.5).length;
    sections[section]?.push(piece);
  }
  return sections.filter((section) => section.length > 0);
}

/**
 * The region cut at empty horizontal strips that cross all of it and are taller than its usual
 * line (the white between a table's rows), when that gives at least three rows of a few lines per
 * cell that each have text in two or more of the columns; otherwise null.
 */
function tableRows<T extends Placed>(pieces: readonly T[], columns: readonly (readonly T[])[]): T[][] | null {
  const heights = pieces.map((piece) => piece.box[3] - piece.box[1]).sort((a, b) => a - b);
  const line = heights[Math.floor(heights.length / 2)] ?? 0;
  if (line <= 0) return null;
  const sorted = [...pieces].sort((a, b) => a.box[1] - b.box[1]);
  const rows: T[][] = [];
  let bottom = Number.NEGATIVE_INFINITY;
  for (const piece of sorted) {
    if (rows.length === 0 || piece.box[1] - bottom > line) rows.push([]);
    rows.at(-1)?.push(piece);
    bottom = Math.max(bottom, piece.box[3]);
  }
  if (rows.length < 3 || pieces.length / (rows.length * columns.length) > MAX_CELL_LINES) return null;
  const columnOf = new Map<T, number>();
  columns.forEach((column, c) => {
    for (const piece of column) columnOf.set(piece, c);
  });
  const spread = rows.every((row) => new Set(row.map((piece) => columnOf.get(piece))).size >= 2);
  return spread ? rows : null;
}

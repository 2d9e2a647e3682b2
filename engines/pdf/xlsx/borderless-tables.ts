/**
 * Tables without lines (bank statements, invoices, reports): runs of text rows whose phrases stand
 * in the same columns. Columns are the x ranges covered by the phrases of the table's full rows
 * with the gaps between them; a header phrase over a gap spans the columns on both sides (a merged
 * header); a row with only text in columns the row above already fills, set tighter than the
 * table's rows, continues the cells above (a multi-line cell).
 */
import type { Box } from "../structured-text.ts";
import { centerY, type Phrase, phrasesOf, type Word } from "./page-words.ts";
import type { Table, TableCell, TableRow } from "./table-model.ts";

interface TextRow {
  readonly phrases: Phrase[];
  readonly top: number;
  readonly bottom: number;
  readonly size: number;
}

export interface BorderlessResult {
  readonly tables: Omit<Table, "headerRows">[];
  readonly rest: Word[];
}

/** A run of rows is no table when most phrases are this long: that is prose, perhaps in columns. */
const PROSE_WORDS = 6;
/** Words of a line of running text in a page column (a table cell's line is shorter). */
const LINE_WORDS = 8;

export function findBorderlessTables(
  page: number,
  words: readonly Word[],
  isValue: (text: string) => boolean,
): BorderlessResult {
  const rows = textRows(words);
  const tables: Omit<Table, "headerRows">[] = [];
  const used = new Set<TextRow>();
  for (const region of regions(rows)) {
    const table = tableOf(page, region, isValue);
    if (table === null) continue;
    tables.push(table);
    for (const row of region) used.add(row);
  }
  const rest = rows.filter((row) => !used.has(row)).flatMap((row) => row.phrases.flatMap((p) => p.words));
  return { tables, rest };
}

/** Words grouped into visual rows (vertical overlap), each row's words joined into phrases. */
export function textRows(words: readonly Word[]): TextRow[] {
  const sorted = [...words].sort((a, b) => centerY(a.box) - centerY(b.box));
  const groups: Word[][] = [];
  for (const word of sorted) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (group !== undefined && last !== undefined && overlapsVertically(last.box, word.box)) group.push(word);
    else groups.push([word]);
  }
  return groups.map((group) => {
    const phrases = phrasesOf(group.sort((a, b) => a.box[0] - b.box[0]));
    const sizes = group.map((word) => word.size).sort((a, b) => a - b);
    return {
      phrases,
      top: Math.min(...group.map((word) => word.box[1])),
      bottom: Math.max(...group.map((word) => word.box[3])),
      size: sizes[Math.floor(sizes.length / 2)] ?? 10,
    };
  });
}

function overlapsVertically(a: Box, b: Box): boolean {
  const overlap = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return overlap > 0.5 * Math.min(a[3] - a[1], b[3] - b[1]);
}

/**
 * Runs of rows with two or more phrases, close together; up to 3 one-phrase rows may stand among
 * them (continued cells, group titles), and 2 more after the last (the last row's continuation).
 */
function regions(rows: readonly TextRow[]): TextRow[][] {
  const out: TextRow[][] = [];
  let current: TextRow[] = [];
  let singles = 0;
  const close = () => {
    while (current.length > 0 && (current.at(-1)?.phrases.length ?? 0) < 2) current.pop();
    if (current.length >= 2) out.push(current);
    current = [];
    singles = 0;
  };
  for (const row of rows) {
    const previous = current.at(-1);
    const near =
      previous !== undefined && row.top - previous.bottom <= 2.2 * Math.max(row.size, previous.size);
    if (row.phrases.length >= 2) {
      if (!near) close();
      current.push(row);
      singles = 0;
    } else if (previous !== undefined && near && singles < 3) {
      current.push(row);
      singles++;
    } else {
      close();
    }
  }
  close();
  return out;
}

function tableOf(page: number, region: readonly TextRow[], isValue: (text: string) => boolean) {
  const phrases = region.flatMap((row) => row.phrases);
  const prose = phrases.filter((phrase) => phrase.words.length >= PROSE_WORDS).length;
  if (prose > phrases.length / 2) return null;
  const { bounds: columns, extents } = columnBounds(region, isValue);
  if (columns.length < 3) return null;
  const cols = columns.length - 1;
  const grid: { cells: Word[][]; row: TextRow }[] = [];
  let seenValue = false;
  const spans: { row: number; col: number; span: number }[] = [];
  for (const row of region) {
    const placed = row.phrases.map((phrase) => ({ ...placement(columns, phrase.box), phrase }));
    if (!seenValue) widenLabels(placed, extents, region[region.indexOf(row) + 1]);
    const previous = grid.at(-1);
    const values = row.phrases.some((phrase) => isValue(phrase.text));
    if (previous !== undefined && continues(previous, placed, row, values)) {
      for (const { best, phrase } of placed) previous.cells[best]?.push(...phrase.words);
      continue;
    }
    const cells: Word[][] = Array.from({ length: cols }, () => []);
    const index = grid.length;
    for (const { first, best, span, phrase } of placed) {
      // Only header rows (above the first number or date) hold cells across columns; elsewhere a
      // phrase reaching into a neighbour's gap belongs to the column it overlaps most.
      const spanning = span > 1 && !seenValue;
      cells[spanning ? first : best]?.push(...phrase.words);
      if (spanning) spans.push({ row: index, col: first, span });
    }
    seenValue ||= values;
    grid.push({ cells, row });
  }
  const multi = grid.filter(({ cells }) => cells.filter((c) => c.length > 0).length >= 2).length;
  if (multi < 2 || hasProseColumn(region, columns)) return null;
  const rows: TableRow[] = grid.map(({ cells }) => cells.map((words) => cellOf(words)));
  for (const { row, col, span } of spans) {
    const cell = rows[row]?.[col];
    if (cell === null || cell === undefined) continue;
    if (rows[row]?.slice(col + 1, col + span).some((other) => other !== null && other.text !== "")) continue;
    (rows[row] ?? [])[col] = { ...cell, colSpan: span };
    for (let k = col + 1; k < col + span; k++) (rows[row] ?? [])[k] = null;
  }
  const box: Box = [
    columns[0] ?? 0,
    Math.min(...region.map((row) => row.top)),
    columns.at(-1) ?? 0,
    Math.max(...region.map((row) => row.bottom)),
  ];
  return { page, box, columns, rows, ruled: false };
}

/**
 * Whether one column is running text (most of its lines are long), as a column of a two-column
 * page beside a listing or a figure: that is page layout, not a table.
 */
function hasProseColumn(region: readonly TextRow[], columns: readonly number[]): boolean {
  for (let c = 0; c + 1 < columns.length; c++) {
    const inside = region.flatMap((row) =>
      row.phrases.filter((p) => p.box[0] >= (columns[c] ?? 0) - 1 && p.box[2] <= (columns[c + 1] ?? 0) + 1),
    );
    const long = inside.filter((phrase) => phrase.words.length >= LINE_WORDS).length;
    if (inside.length >= 3 && long >= 0.6 * inside.length) return true;
  }
  return false;
}

function cellOf(words: readonly Word[]): TableCell {
  return {
    text: words.map((word) => word.text).join(" "),
    rowSpan: 1,
    colSpan: 1,
    bold: words.length > 0 && words.every((word) => word.bold),
  };
}

/**
 * Whether a row continues the cells of the row before: all its phrases are text, in columns the
 * row before fills, and it stands closer to that row than a row's height, or fills fewer columns.
 */
function continues(
  previous: { cells: Word[][]; row: TextRow },
  placed: readonly { best: number; phrase: Phrase }[],
  row: TextRow,
  values: boolean,
): boolean {
  if (values) return false;
  if (!placed.every(({ best }) => (previous.cells[best]?.length ?? 0) > 0)) return false;
  const filled = previous.cells.filter((cell) => cell.length > 0).length;
  const tight = row.top - previous.row.bottom < 0.45 * row.size;
  return placed.length < filled || tight;
}

/**
 * Column boundaries: the x ranges covered by the phrases of the region's fuller rows (at least as
 * many phrases as the median; rows with numbers or dates when there are several, so that header
 * labels do not widen the columns), split at the gaps no more than a tenth of those rows cross.
 */
function columnBounds(
  region: readonly TextRow[],
  isValue: (text: string) => boolean,
): { bounds: number[]; extents: [number, number][] } {
  const all = region.filter((row) => row.phrases.length >= 2);
  const valued = all.filter((row) => row.phrases.some((phrase) => isValue(phrase.text)));
  const multi = valued.length >= 2 ? valued : all;
  const counts = multi.map((row) => row.phrases.length).sort((a, b) => a - b);
  const median = counts[Math.floor(counts.length / 2)] ?? 2;
  const full = multi.filter((row) => row.phrases.length >= median);
  const tolerated = Math.floor(full.length / 10);
  const edges = [...new Set(full.flatMap((row) => row.phrases.flatMap((p) => [p.box[0], p.box[2]])))].sort(
    (a, b) => a - b,
  );
  const covered: [number, number][] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = edges[i] ?? 0;
    const to = edges[i + 1] ?? 0;
    const middle = (from + to) / 2;
    const rows = full.filter((row) =>
      row.phrases.some((p) => p.box[0] <= middle && p.box[2] >= middle),
    ).length;
    if (rows <= tolerated) continue;
    const last = covered.at(-1);
    if (last !== undefined && last[1] >= from) last[1] = to;
    else covered.push([from, to]);
  }
  // A column that is empty in every row of numbers still has its label in the last header row.
  const firstValued = valued[0];
  const labels = firstValued === undefined ? undefined : all[all.indexOf(firstValued) - 1];
  if (multi === valued && labels !== undefined && !valued.includes(labels)) {
    for (const phrase of labels.phrases) {
      if (covered.some(([from, to]) => phrase.box[0] < to && phrase.box[2] > from)) continue;
      covered.push([phrase.box[0], phrase.box[2]]);
    }
    covered.sort((a, b) => a[0] - b[0]);
  }
  if (covered.length < 2) return { bounds: [], extents: [] };
  const left = Math.min(...region.flatMap((row) => row.phrases.map((p) => p.box[0])));
  const right = Math.max(...region.flatMap((row) => row.phrases.map((p) => p.box[2])));
  const bounds = [Math.min(left, covered[0]?.[0] ?? left)];
  for (let i = 0; i + 1 < covered.length; i++)
    bounds.push(((covered[i]?.[1] ?? 0) + (covered[i + 1]?.[0] ?? 0)) / 2);
  bounds.push(Math.max(right, covered.at(-1)?.[1] ?? right));
  return { bounds, extents: covered };
}

/**
 * A header label centred over a group of columns may not reach into all of them (right-aligned
 * numbers below it): it spans the free neighbouring columns, labelled in the row below, while that
 * brings the group's middle closer to the label's middle.
 */
function widenLabels(
  placed: { first: number; span: number; phrase: Phrase }[],
  extents: readonly [number, number][],
  below: TextRow | undefined,
) {
  if (below === undefined) return;
  const taken = new Set(
    placed.flatMap(({ first, span }) => Array.from({ length: span }, (_, k) => first + k)),
  );
  const labelledBelow = (c: number) => {
    const extent = extents[c];
    return extent !== undefined && below.phrases.some((p) => p.box[0] < extent[1] && p.box[2] > extent[0]);
  };
  const middle = (from: number, to: number) => ((extents[from]?.[0] ?? 0) + (extents[to]?.[1] ?? 0)) / 2;
  for (const item of placed) {
    const center = (item.phrase.box[0] + item.phrase.box[2]) / 2;
    let from = item.first;
    let to = item.first + item.span - 1;
    // A label centred in the gap between two columns belongs to both.
    const gap = extents.findIndex((extent, c) => extent[1] < center && center < (extents[c + 1]?.[0] ?? 0));
    if (gap !== -1 && from === to && (from === gap || from === gap + 1)) {
      const other = from === gap ? gap + 1 : gap;
      if (!taken.has(other) && labelledBelow(other) && labelledBelow(from)) {
        from = gap;
        to = gap + 1;
        taken.add(other);
      }
    }
    for (;;) {
      const now = Math.abs(middle(from, to) - center);
      const right =
        !taken.has(to + 1) && labelledBelow(to + 1) ? Math.abs(middle(from, to + 1) - center) : now;
      const left =
        !taken.has(from - 1) && labelledBelow(from - 1) ? Math.abs(middle(from - 1, to) - center) : now;
      if (right < now && right <= left) to++;
      else if (left < now) from--;
      else break;
      taken.add(to).add(from);
    }
    item.first = from;
    item.span = to - from + 1;
  }
}

/** The first column a phrase overlaps, how many it covers, and the one it overlaps most. */
function placement(columns: readonly number[], box: Box): { first: number; span: number; best: number } {
  const hit: number[] = [];
  let best = 0;
  let most = Number.NEGATIVE_INFINITY;
  for (let c = 0; c + 1 < columns.length; c++) {
    const overlap = Math.min(box[2], columns[c + 1] ?? 0) - Math.max(box[0], columns[c] ?? 0);
    if (overlap > 1) hit.push(c);
    if (overlap > most) {
      most = overlap;
      best = c;
    }
  }
  const first = hit[0] ?? best;
  return { first, span: hit.length === 0 ? 1 : (hit.at(-1) ?? first) - first + 1, best };
}

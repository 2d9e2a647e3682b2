/** The largest code a format 4 subtable holds (0xFFFF ends its last segment). */
const LAST_BMP_CODE = 0xfffe;
const MAX_TABLE_LENGTH = 0xffff;
/** The last Unicode value: a format 12 group mapping codes past it does not read. */
const LAST_UNICODE = 0x10ffff;

/** One subtable's mappings: code → glyph id, with its language field (Macintosh subtables). */
interface Subtable {
  /** Written as format 12 (it was: some viewers expect it for the (3,10) encoding). */
  readonly wide: boolean;
  readonly language: number;
  readonly map: Map<number, number>;
}

/**
 * A TrueType `cmap` table keeping, in every subtable, only the codes whose glyph `keep` accepts:
 * each subtable written again (format 4, or format 12 when it maps codes past 0xFFFF) for the same
 * platform and encoding, in the same order, so a viewer picks the same subtable and finds the same
 * glyph for every code it keeps. A subset keeping a font's whole cmap kept 4.6 KB of mappings
 * (Tahoma) for 28 glyphs. Null when a subtable has a format not read here (2, 8, 10, 13, 14) or
 * the table does not read: the caller keeps the table as it is.
 */
export function pruneCmap(cmap: Uint8Array, keep: (glyph: number) => boolean): Uint8Array | null {
  try {
    const view = new DataView(cmap.buffer, cmap.byteOffset, cmap.byteLength);
    const count = view.getUint16(2);
    const records: { platform: number; encoding: number; offset: number }[] = [];
    for (let index = 0; index < count; index++) {
      const at = 4 + 8 * index;
      records.push({
        platform: view.getUint16(at),
        encoding: view.getUint16(at + 2),
        offset: view.getUint32(at + 4),
      });
    }
    const written = new Map<number, Uint8Array>();
    for (const { offset } of records) {
      if (written.has(offset)) continue;
      const subtable = readSubtable(view, offset);
      if (subtable === null) return null;
      for (const [code, glyph] of subtable.map) if (glyph === 0 || !keep(glyph)) subtable.map.delete(code);
      const bytes = writeSubtable(subtable);
      if (bytes === null) return null;
      written.set(offset, bytes);
    }
    const header = 4 + 8 * records.length;
    const placed = new Map<number, number>();
    let length = header;
    for (const [offset, bytes] of written) {
      placed.set(offset, length);
      length += bytes.length;
    }
    const out = new Uint8Array(length);
    const outView = new DataView(out.buffer);
    outView.setUint16(2, records.length);
    for (const [index, record] of records.entries()) {
      outView.setUint16(4 + 8 * index, record.platform);
      outView.setUint16(6 + 8 * index, record.encoding);
      outView.setUint32(8 + 8 * index, placed.get(record.offset) ?? 0);
    }
    for (const [offset, bytes] of written) out.set(bytes, placed.get(offset) ?? 0);
    return out;
  } catch {
    return null;
  }
}

function readSubtable(view: DataView, at: number): Subtable | null {
  const format = view.getUint16(at);
  const map = new Map<number, number>();
  if (format === 0) {
    for (let code = 0; code < 256; code++) map.set(code, view.getUint8(at + 6 + code));
    return { wide: false, language: view.getUint16(at + 4), map };
  }
  if (format === 6) {
    const first = view.getUint16(at + 6);
    for (let i = 0; i < view.getUint16(at + 8); i++) map.set(first + i, view.getUint16(at + 10 + 2 * i));
    return { wide: false, language: view.getUint16(at + 4), map };
  }
  if (format === 12) {
    const groups = view.getUint32(at + 12);
    // Groups are sorted and never overlap: together they cover at most every Unicode value once.
    let codes = 0;
    for (let i = 0; i < groups; i++) {
      const group = at + 16 + 12 * i;
      const [start, end, glyph] = [
        view.getUint32(group),
        view.getUint32(group + 4),
        view.getUint32(group + 8),
      ];
      codes += end - start + 1;
      if (end < start || end > LAST_UNICODE || codes > LAST_UNICODE + 1) return null;
      for (let code = start; code <= end; code++) map.set(code, glyph + code - start);
    }
    return { wide: true, language: view.getUint32(at + 8), map };
  }
  return format === 4 ? readFormat4(view, at) : null;
}

/** A segment-mapping subtable (format 4), as the OpenType specification reads it. */
function readFormat4(view: DataView, at: number): Subtable | null {
  const map = new Map<number, number>();
  // Segments are sorted and never overlap: together they cover each code at most once.
  let codes = 0;
  const segments = view.getUint16(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  for (let segment = 0; segment < segments; segment++) {
    const [start, end] = [view.getUint16(starts + 2 * segment), view.getUint16(ends + 2 * segment)];
    const delta = view.getInt16(deltas + 2 * segment);
    const rangeOffsetAt = rangeOffsets + 2 * segment;
    const rangeOffset = view.getUint16(rangeOffsetAt);
    codes += end - start + 1;
    if (codes > LAST_BMP_CODE + 2) return null;
    for (let code = start; code <= end && code !== 0xffff; code++) {
      let glyph = 0;
      if (rangeOffset === 0) glyph = (code + delta) & 0xffff;
      else {
        const raw = view.getUint16(rangeOffsetAt + rangeOffset + 2 * (code - start));
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      map.set(code, glyph);
    }
  }
  return { wide: false, language: view.getUint16(at + 4), map };
}

/** Runs of consecutive codes drawing consecutive glyphs: [first code, last code, first glyph]. */
function runs(map: ReadonlyMap<number, number>): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (const code of [...map.keys()].sort((a, b) => a - b)) {
    const glyph = map.get(code) ?? 0;
    const last = out.at(-1);
    if (last !== undefined && code === last[1] + 1 && glyph === last[2] + code - last[0]) last[1] = code;
    else out.push([code, code, glyph]);
  }
  return out;
}

function writeSubtable({ wide, language, map }: Subtable): Uint8Array | null {
  const groups = runs(map);
  if (wide || groups.some(([, end]) => end > LAST_BMP_CODE)) {
    const out = new Uint8Array(16 + 12 * groups.length);
    const view = new DataView(out.buffer);
    view.setUint16(0, 12);
    view.setUint32(4, out.length);
    view.setUint32(8, language);
    view.setUint32(12, groups.length);
    for (const [index, [start, end, glyph]] of groups.entries()) {
      view.setUint32(16 + 12 * index, start);
      view.setUint32(20 + 12 * index, end);
      view.setUint32(24 + 12 * index, glyph);
    }
    return out;
  }
  // Format 4 ends with a segment for 0xFFFF mapping to nothing.
  const segments = [...groups, [0xffff, 0xffff, 0] as [number, number, number]];
  const count = segments.length;
  const length = 16 + 8 * count;
  if (length > MAX_TABLE_LENGTH) return null;
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  const searchRange = 2 * 2 ** Math.floor(Math.log2(count));
  view.setUint16(0, 4);
  view.setUint16(2, length);
  view.setUint16(4, language);
  view.setUint16(6, 2 * count);
  view.setUint16(8, searchRange);
  view.setUint16(10, Math.log2(searchRange / 2));
  view.setUint16(12, 2 * count - searchRange);
  for (const [index, [start, end, glyph]] of segments.entries()) {
    view.setUint16(14 + 2 * index, end);
    view.setUint16(16 + 2 * count + 2 * index, start);
    // The last segment's delta of 1 maps 0xFFFF to glyph 0.
    view.setUint16(16 + 4 * count + 2 * index, start === 0xffff ? 1 : (glyph - start) & 0xffff);
  }
  return out;
}

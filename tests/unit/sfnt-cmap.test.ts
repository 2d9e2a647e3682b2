import { describe, expect, it } from "vitest";
import { pruneCmap } from "../../engines/pdf/sfnt-cmap.ts";

/** A `cmap` table of one subtable for (3, `encoding`), written by `write` into `length` bytes. */
function cmapOf(encoding: number, length: number, write: (view: DataView) => void): Uint8Array {
  const table = new Uint8Array(12 + length);
  const view = new DataView(table.buffer);
  view.setUint16(2, 1);
  view.setUint16(4, 3);
  view.setUint16(6, encoding);
  view.setUint32(8, 12);
  write(new DataView(table.buffer, 12));
  return table;
}

/** A `cmap` table of one (3,10) format 12 subtable with the groups [start, end, first glyph]. */
function format12Cmap(groups: readonly [number, number, number][]): Uint8Array {
  return cmapOf(10, 16 + 12 * groups.length, (view) => {
    view.setUint16(0, 12);
    view.setUint32(4, 16 + 12 * groups.length);
    view.setUint32(12, groups.length);
    for (const [index, [start, end, glyph]] of groups.entries()) {
      view.setUint32(16 + 12 * index, start);
      view.setUint32(20 + 12 * index, end);
      view.setUint32(24 + 12 * index, glyph);
    }
  });
}

/** The code → glyph map of a table `pruneCmap` wrote (its first subtable, format 12). */
function format12Map(table: Uint8Array): Map<number, number> {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const at = view.getUint32(8);
  const map = new Map<number, number>();
  for (let i = 0; i < view.getUint32(at + 12); i++) {
    const group = at + 16 + 12 * i;
    for (let code = view.getUint32(group); code <= view.getUint32(group + 4); code++)
      map.set(code, view.getUint32(group + 8) + code - view.getUint32(group));
  }
  return map;
}

/** A `cmap` table of one (3,1) format 4 subtable of `segments` segments, each of every code. */
function overlappingFormat4Cmap(segments: number): Uint8Array {
  return cmapOf(1, 16 + 8 * segments, (view) => {
    view.setUint16(0, 4);
    view.setUint16(2, 16 + 8 * segments);
    view.setUint16(6, 2 * segments);
    for (let index = 0; index < segments; index++) {
      view.setUint16(14 + 2 * index, 0xfffe);
      view.setUint16(16 + 2 * segments + 2 * index, 0);
      view.setUint16(16 + 4 * segments + 2 * index, 1);
    }
  });
}

describe("pruneCmap", () => {
  it("keeps in a format 12 subtable the codes of the glyphs kept, each to its glyph", () => {
    const cut = pruneCmap(
      format12Cmap([
        [0x41, 0x5a, 10],
        [0x1f600, 0x1f603, 40],
      ]),
      (glyph) => glyph === 12 || glyph === 13 || glyph === 42,
    );
    expect(cut).not.toBeNull();
    expect(format12Map(cut ?? new Uint8Array())).toEqual(
      new Map([
        [0x43, 12],
        [0x44, 13],
        [0x1f602, 42],
      ]),
    );
  });

  it("refuses, in bounded time, groups past Unicode or covering more codes than a subtable has", () => {
    // 12 bytes a group claim a million codes each: read code by code, 64 groups were 70 million.
    const everything = Array.from({ length: 64 }, (): [number, number, number] => [0, 0x10ffff, 1]);
    const started = performance.now();
    expect(pruneCmap(format12Cmap(everything), () => true)).toBeNull();
    expect(pruneCmap(format12Cmap([[0x110000, 0x110010, 1]]), () => true)).toBeNull();
    // Format 4 segments that all cover every code: 8 bytes a segment, 65,535 codes each.
    expect(pruneCmap(overlappingFormat4Cmap(8000), () => true)).toBeNull();
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

/** The tables of an OpenType/TrueType file (sfnt), by tag: views into the file's bytes. */
export function readTables(font: Uint8Array): Map<string, Uint8Array> | null {
  if (font.length < 12) return null;
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const count = view.getUint16(4);
  if (12 + 16 * count > font.length) return null;
  const tables = new Map<string, Uint8Array>();
  for (let index = 0; index < count; index++) {
    const record = 12 + 16 * index;
    const name = String.fromCharCode(...font.subarray(record, record + 4));
    const offset = view.getUint32(record + 8);
    // A table that runs past the end keeps what is there (a truncated `loca` is read that way too).
    const end = Math.min(font.length, offset + view.getUint32(record + 12));
    if (offset > font.length) continue;
    tables.set(name, font.subarray(offset, end));
  }
  return tables;
}

/** An sfnt file holding `tables` (TrueType outlines when `glyf` is among them, else CFF). */
export function writeSfnt(tables: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const names = [...tables.keys()].sort();
  const headerLength = 12 + 16 * names.length;
  let size = headerLength;
  for (const name of names) size += ((tables.get(name)?.length ?? 0) + 3) & ~3;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, tables.has("glyf") ? 0x00010000 : 0x4f54544f); // 1.0 or "OTTO"
  view.setUint16(4, names.length);
  const power = 2 ** Math.floor(Math.log2(Math.max(1, names.length)));
  view.setUint16(6, power * 16);
  view.setUint16(8, Math.log2(power));
  view.setUint16(10, names.length * 16 - power * 16);
  let at = headerLength;
  for (const [index, name] of names.entries()) {
    const table = tables.get(name) ?? new Uint8Array();
    const record = 12 + 16 * index;
    for (let i = 0; i < 4; i++) out[record + i] = name.charCodeAt(i);
    view.setUint32(record + 4, checksum(table));
    view.setUint32(record + 8, at);
    view.setUint32(record + 12, table.length);
    out.set(table, at);
    at += (table.length + 3) & ~3;
  }
  return out;
}

function checksum(table: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < table.length; i += 4) {
    const word =
      ((table[i] ?? 0) << 24) |
      ((table[i + 1] ?? 0) << 16) |
      ((table[i + 2] ?? 0) << 8) |
      (table[i + 3] ?? 0);
    sum = (sum + (word >>> 0)) >>> 0;
  }
  return sum;
}

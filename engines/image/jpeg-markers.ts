/** JPEG marker codes (ITU T.81 table B.1) and the end of a scan's data, shared by the JPEG readers. */

export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const DQT = 0xdb;
export const DHT = 0xc4;
export const DRI = 0xdd;
export const SOF_BASELINE = 0xc0;
export const SOF_EXTENDED = 0xc1;
export const SOF_PROGRESSIVE = 0xc2;

/**
 * Offset of the next marker after entropy-coded data starting at `at` (0xFF00 stuffing, fill bytes
 * and RSTn are data); -1 when the data runs to the end of the file.
 */
export function entropyCodedEnd(bytes: Uint8Array, at: number): number {
  for (let i = at; i + 1 < bytes.length; i++) {
    if (bytes[i] !== 0xff) continue;
    const next = bytes[i + 1] ?? 0;
    if (next !== 0x00 && next !== 0xff && (next < 0xd0 || next > 0xd7)) return i;
  }
  return -1;
}

/** One quantisation table of a DQT segment: its id, precision (0: 8-bit, 1: 16-bit) and values in zig-zag order. */
export interface QuantTable {
  readonly id: number;
  readonly precision: 0 | 1;
  readonly values: Uint16Array;
}

/** The tables of a DQT segment's payload; null when it is malformed. */
export function quantTables(payload: Uint8Array): QuantTable[] | null {
  const tables: QuantTable[] = [];
  for (let at = 0; at < payload.length; ) {
    const precision = (payload[at] ?? 0) >> 4;
    if (precision !== 0 && precision !== 1) return null;
    const size = precision === 0 ? 64 : 128;
    if (at + 1 + size > payload.length) return null;
    const values = new Uint16Array(64);
    for (let i = 0; i < 64; i++) {
      values[i] =
        precision === 0
          ? (payload[at + 1 + i] ?? 0)
          : ((payload[at + 1 + 2 * i] ?? 0) << 8) | (payload[at + 2 + 2 * i] ?? 0);
    }
    tables.push({ id: (payload[at] ?? 0) & 0x0f, precision, values });
    at += 1 + size;
  }
  return tables;
}

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

/**
 * EXIF orientation (TIFF tag 0x0112 in IFD0) from the bytes of an EXIF block: a JPEG APP1 payload,
 * a PNG eXIf chunk or a WebP EXIF chunk. Damaged metadata never rejects an image: anything
 * unreadable means orientation 1 (as stored).
 */

/** 1 = as stored; 2–8 = the EXIF mirror/rotate cases (see pixel-transforms.ts). */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

const ORIENTATION_TAG = 0x0112;
const TYPE_SHORT = 3;
/** "Exif\0\0": present in JPEG APP1, and written by some tools in PNG and WebP chunks too. */
const EXIF_PREFIX = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00];

function hasExifPrefix(bytes: Uint8Array): boolean {
  return EXIF_PREFIX.every((byte, i) => bytes[i] === byte);
}

export function readExifOrientation(block: Uint8Array): Orientation {
  const tiff = hasExifPrefix(block) ? block.subarray(EXIF_PREFIX.length) : block;
  if (tiff.length < 8) return 1;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const order = view.getUint16(0);
  if (order !== 0x4949 && order !== 0x4d4d) return 1;
  const little = order === 0x4949;
  if (view.getUint16(2, little) !== 42) return 1;
  const ifd = view.getUint32(4, little);
  if (ifd < 8 || ifd + 2 > tiff.length) return 1;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return 1;
    if (view.getUint16(entry, little) !== ORIENTATION_TAG) continue;
    if (view.getUint16(entry + 2, little) !== TYPE_SHORT) return 1;
    const value = view.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? (value as Orientation) : 1;
  }
  return 1;
}

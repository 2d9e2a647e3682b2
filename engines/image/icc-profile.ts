/**
 * Carries a PNG's embedded ICC profile (iCCP) over to the JPEG (APP2 "ICC_PROFILE" segments), so
 * images in wide-gamut or display profiles keep their colours in colour-managed viewers instead of
 * being read as sRGB. The pixels are not converted: that would need a colour engine at the edge.
 */
import { inflate } from "./inflate.ts";

/** Profiles larger than this are left out (real ones are a few KB; the format allows ~16 MB). */
const MAX_PROFILE_BYTES = 1024 * 1024;
const APP2_SIGNATURE = [0x49, 0x43, 0x43, 0x5f, 0x50, 0x52, 0x4f, 0x46, 0x49, 0x4c, 0x45, 0x00]; // ICC_PROFILE\0
/** Segment payload limit: 65535 - length field (2) - signature (12) - sequence bytes (2). */
const APP2_CHUNK_BYTES = 65519;

export type IccColorSpace = "RGB" | "GRAY";

export interface IccProfile {
  readonly bytes: Uint8Array;
  readonly colorSpace: IccColorSpace;
}

/**
 * The profile inside an iCCP payload (name, NUL, method 0, zlib data), when it inflates to a
 * well-formed RGB or grey profile; anything else yields undefined and the image converts without it.
 */
export async function readPngIccProfile(iccp: Uint8Array): Promise<IccProfile | undefined> {
  const nul = iccp.indexOf(0);
  if (nul < 1 || nul > 79 || iccp[nul + 1] !== 0) return undefined;
  const parts: Uint8Array[] = [];
  let size = 0;
  let tooLarge = false;
  try {
    const stopped = await inflate([iccp.subarray(nul + 2)], (chunk) => {
      size += chunk.length;
      tooLarge = size > MAX_PROFILE_BYTES;
      if (!tooLarge) parts.push(chunk.slice());
      return !tooLarge;
    });
    if (stopped) return undefined;
  } catch {
    return undefined;
  }
  if (tooLarge || size < 132) return undefined;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  const view = new DataView(bytes.buffer);
  const signature = String.fromCharCode(...bytes.subarray(36, 40));
  const space = String.fromCharCode(...bytes.subarray(16, 20));
  if (view.getUint32(0) !== size || signature !== "acsp") return undefined;
  if (space === "RGB ") return { bytes, colorSpace: "RGB" };
  if (space === "GRAY") return { bytes, colorSpace: "GRAY" };
  return undefined;
}

/**
 * A copy of `jpeg` with the profile in APP2 segments right after SOI and the JFIF APP0 segment
 * (JFIF wants APP0 first).
 */
export function embedIccProfile(jpeg: Uint8Array, profile: Uint8Array): Uint8Array {
  const count = Math.ceil(profile.length / APP2_CHUNK_BYTES);
  if (count > 255) throw new Error("ICC profile too large for APP2 segments");
  let insertAt = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) insertAt = 4 + (((jpeg[4] ?? 0) << 8) | (jpeg[5] ?? 0));
  const overhead = 2 + 2 + APP2_SIGNATURE.length + 2;
  const out = new Uint8Array(jpeg.length + profile.length + count * overhead);
  out.set(jpeg.subarray(0, insertAt));
  let at = insertAt;
  for (let i = 0; i < count; i++) {
    const chunk = profile.subarray(i * APP2_CHUNK_BYTES, (i + 1) * APP2_CHUNK_BYTES);
    const length = overhead - 2 + chunk.length;
    out.set([0xff, 0xe2, length >> 8, length & 0xff, ...APP2_SIGNATURE, i + 1, count], at);
    out.set(chunk, at + overhead);
    at += overhead + chunk.length;
  }
  out.set(jpeg.subarray(insertAt), at);
  return out;
}

/**
 * Embedded ICC profiles, read from the headers: which images need a colour transform to become
 * sRGB. Every output is untagged sRGB; the edge has no colour engine, so an image whose profile is
 * not sRGB (Display P3, Adobe RGB, CMYK, grey gamma…) is converted in the container, where libvips
 * transforms it through its profile (lcms). Profiles that describe sRGB itself (most cameras and
 * editors embed one) need nothing and stay at the edge.
 */
import { unzlibSync } from "fflate";

/** Profiles larger than this are not read (real ones are a few KB; the format allows ~16 MB). */
const MAX_PROFILE_BYTES = 1024 * 1024;

/**
 * sRGB's red, green and blue colorants adapted to D50 (IEC 61966-2-1 through Bradford), as every
 * matrix/TRC sRGB profile stores them in rXYZ, gXYZ, bXYZ.
 */
const SRGB_COLORANTS: Readonly<Record<string, readonly number[]>> = {
  rXYZ: [0.4361, 0.2225, 0.0139],
  gXYZ: [0.3851, 0.7169, 0.0971],
  bXYZ: [0.1431, 0.0606, 0.7141],
};
/** Profiles of different vendors round the colorants differently, by up to ~0.001. */
const COLORANT_TOLERANCE = 0.003;

const ascii = (bytes: Uint8Array, at: number, length: number) =>
  String.fromCharCode(...bytes.subarray(at, at + length));

/**
 * Whether the profile is an RGB matrix profile with sRGB's colorants: converting through it gives
 * the pixels back as they are (within rounding).
 */
export function isSrgbProfile(profile: Uint8Array): boolean {
  if (profile.length < 132 || ascii(profile, 36, 4) !== "acsp" || ascii(profile, 16, 4) !== "RGB ") {
    return false;
  }
  const view = new DataView(profile.buffer, profile.byteOffset, profile.byteLength);
  const count = view.getUint32(128);
  const found = new Set<string>();
  for (let i = 0; i < count && 132 + i * 12 + 12 <= profile.length; i++) {
    const entry = 132 + i * 12;
    const signature = ascii(profile, entry, 4);
    const expected = SRGB_COLORANTS[signature];
    if (!expected) continue;
    const offset = view.getUint32(entry + 4);
    if (offset + 20 > profile.length || ascii(profile, offset, 4) !== "XYZ ") return false;
    for (const [k, value] of expected.entries()) {
      const stored = view.getInt32(offset + 8 + 4 * k) / 65536;
      if (Math.abs(stored - value) > COLORANT_TOLERANCE) return false;
    }
    found.add(signature);
  }
  return found.size === 3;
}

/** The profile of a PNG iCCP payload (name, NUL, method 0, zlib data); undefined when unreadable. */
export function pngIccProfile(iccp: Uint8Array): Uint8Array | undefined {
  const nul = iccp.indexOf(0);
  if (nul < 1 || nul > 79 || iccp[nul + 1] !== 0) return undefined;
  try {
    // A fixed output buffer: a profile that inflates beyond it fails instead of growing memory.
    const out = new Uint8Array(MAX_PROFILE_BYTES);
    const profile = unzlibSync(iccp.subarray(nul + 2), { out });
    return profile.length > 0 && profile.length < MAX_PROFILE_BYTES ? profile : undefined;
  } catch {
    return undefined;
  }
}

/** "ICC_PROFILE\0" at the start of a JPEG APP2 segment that holds part of a profile. */
const APP2_SIGNATURE = "ICC_PROFILE\0";

/**
 * The profile spread over JPEG APP2 segments (each: signature, sequence number, count, part), in
 * sequence order; undefined when a part is missing.
 */
export function jpegIccProfile(segments: readonly Uint8Array[]): Uint8Array | undefined {
  const parts = segments
    .filter((data) => data.length > 14 && ascii(data, 0, 12) === APP2_SIGNATURE)
    .map((data) => ({ sequence: data[12] ?? 0, count: data[13] ?? 0, bytes: data.subarray(14) }))
    .sort((a, b) => a.sequence - b.sequence);
  const count = parts[0]?.count ?? 0;
  if (count === 0 || parts.length !== count || parts.some((part, i) => part.sequence !== i + 1)) {
    return parts.length === 0 ? undefined : new Uint8Array();
  }
  const size = parts.reduce((sum, part) => sum + part.bytes.length, 0);
  const profile = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    profile.set(part.bytes, at);
    at += part.bytes.length;
  }
  return profile;
}

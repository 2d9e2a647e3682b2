import type * as mupdf from "mupdf";
import { everyObject } from "./every-object.ts";

/** Nesting followed inside one object (colour spaces sit a few levels down). */
const MAX_DEPTH = 12;
/** Resource names that set what DeviceRGB itself means on a page: dropped, not rewritten. */
const DEFAULT_SPACES = new Set(["DefaultRGB", "DefaultGray", "DefaultCMYK"]);

/**
 * Replaces colour spaces defined by an embedded sRGB profile (`[/ICCBased <profile>]`, a 2.5–3 KB
 * stream InDesign, Illustrator and Office write into every file) with DeviceRGB, which viewers
 * already draw as sRGB: the colours stay, the profile goes. Ghostscript's `/ebook` turns every
 * colour into device sRGB the same way. Profiles of other spaces (Adobe RGB, CMYK presses) are
 * kept: without them colours would shift. Left alone in a file claiming PDF/A, which needs its
 * colour spaces tied to a profile. Returns how many references were replaced.
 */
export function replaceSrgbProfiles(pdf: mupdf.PDFDocument, pdfA: boolean): number {
  if (pdfA) return 0;
  const { profiles, spaceObjects } = srgbObjects(pdf);
  if (profiles.size === 0) return 0;
  const isSrgbSpace = (value: mupdf.PDFObject): boolean =>
    value.isIndirect()
      ? spaceObjects.has(value.asIndirect())
      : value.isArray() && profiles.has(iccProfileOf(value));
  let replaced = 0;
  const visit = (holder: mupdf.PDFObject, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (holder.isDictionary()) {
      const entries: [string, mupdf.PDFObject][] = [];
      holder.forEach((value, key) => {
        entries.push([String(key), value]);
      });
      for (const [key, value] of entries) {
        if (isSrgbSpace(value)) {
          if (DEFAULT_SPACES.has(key)) holder.delete(key);
          else holder.put(key, pdf.newName("DeviceRGB"));
          replaced++;
        } else if (!value.isIndirect()) visit(value, depth + 1);
      }
    } else if (holder.isArray()) {
      for (let i = 0; i < holder.length; i++) {
        const value = holder.get(i);
        if (isSrgbSpace(value)) {
          holder.put(i, pdf.newName("DeviceRGB"));
          replaced++;
        } else if (!value.isIndirect()) visit(value, depth + 1);
      }
    }
  };
  for (const { object } of everyObject(pdf)) {
    try {
      visit(object, 0);
    } catch {
      // Objects that fail to load are left alone.
    }
  }
  return replaced;
}

/** The object number of the profile of an `[/ICCBased <profile>]` array, else 0. */
function iccProfileOf(space: mupdf.PDFObject): number {
  if (space.length !== 2) return 0;
  const family = space.get(0);
  const profile = space.get(1);
  if (!family.isName() || family.asName() !== "ICCBased" || !profile.isIndirect()) return 0;
  return profile.asIndirect();
}

/**
 * In one pass over the objects: the embedded ICC profiles of RGB data that describe themselves as
 * sRGB, and the colour space arrays that are objects of their own and use one of them (references
 * to those are then matched by number: resolving every reference of a 60,000-object file to look
 * would take seconds).
 */
function srgbObjects(pdf: mupdf.PDFDocument): { profiles: Set<number>; spaceObjects: Set<number> } {
  const profiles = new Set<number>();
  const spaces = new Map<number, number>();
  for (const { num, object } of everyObject(pdf)) {
    try {
      if (object.isArray()) {
        const profile = iccProfileOf(object);
        if (profile !== 0) spaces.set(num, profile);
        continue;
      }
      if (!object.isStream() || object.get("N").asNumber() !== 3) continue;
      if (!object.get("Subtype").isNull() || !object.get("Type").isNull()) continue;
      if (isSrgbProfile(object.readStream().asUint8Array())) profiles.add(num);
    } catch {
      // An object that does not read is left where it is.
    }
  }
  const spaceObjects = new Set(
    [...spaces].filter(([, profile]) => profiles.has(profile)).map(([num]) => num),
  );
  return { profiles, spaceObjects };
}

/**
 * Whether ICC profile bytes are an RGB display profile named sRGB: the header says "mntr" (display)
 * and "RGB " (data colour space) and "acsp" (the signature), and its description names sRGB.
 */
function isSrgbProfile(profile: Uint8Array): boolean {
  if (profile.length < 132 || profile.length > 64 * 1024) return false;
  const text = (from: number, to: number) => String.fromCharCode(...profile.subarray(from, to));
  if (text(36, 40) !== "acsp" || text(16, 20) !== "RGB " || text(12, 16) !== "mntr") return false;
  // The description is ASCII ('desc') or UTF-16 ('mluc'): look for the name in both.
  const ascii = Buffer.from(profile).toString("latin1");
  return ascii.includes("sRGB") || ascii.includes("s\0R\0G\0B");
}

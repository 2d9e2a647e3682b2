/**
 * The primary image of a HEIF file (HEIC, AVIF) from its ISO base media boxes, without decoding:
 * `meta` → `pitm` (primary item) → `iprp` (`ipco` properties, `ipma` associations) gives the
 * primary item's `ispe` size, `irot`/`imir` transforms, `colr` profile and alpha auxiliary.
 * Decoders (libheif) apply `irot`/`imir` themselves; EXIF orientation inside a HEIF is informative
 * only and is ignored, as the HEIF specification says.
 */
import { AppError } from "../../contract/index.ts";
import type { Orientation } from "./exif-orientation.ts";

export interface HeifHeader {
  /** Stored size (`ispe`), before the transforms. */
  readonly width: number;
  readonly height: number;
  /** `irot`/`imir` expressed as the EXIF orientation that does the same. */
  readonly orientation: Orientation;
  /** An ICC profile from a `colr` box of type `prof`/`rICC`. */
  readonly icc?: Uint8Array;
  readonly hasAlpha: boolean;
  readonly metadata: boolean;
}

interface Box {
  readonly type: string;
  /** The box's payload (after the size and type). */
  readonly data: Uint8Array;
  /** Offset just past the box in the bytes walked. */
  readonly end: number;
}

function fail(message: string, context?: Record<string, number>): AppError {
  return new AppError("IMAGE_DAMAGED", `HEIF: ${message}`, context);
}

function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const typeAt = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));

/**
 * The boxes in `bytes` from `start`. A box running past the bytes is cut short; at top level
 * (`partial`) the walk stops there instead, recording where it would continue.
 */
function* boxes(bytes: Uint8Array, start = 0, partial?: { next: number }): Generator<Box> {
  const view = viewOf(bytes);
  let at = start;
  while (at + 8 <= bytes.length) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > bytes.length) break;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) {
      size = bytes.length - at;
    }
    if (size < header) throw fail(`box of size ${size}`);
    const type = typeAt(bytes, at + 4);
    if (at + size > bytes.length) {
      if (partial) {
        partial.next = at + size;
        if (type !== "meta") return;
      }
      throw fail(`${type} box cut short`, { header_at: at + size });
    }
    yield { type, data: bytes.subarray(at + header, at + size), end: at + size };
    at += size;
  }
  if (partial) partial.next = at;
}

/** The primary item's id (`pitm`, version 0: 16 bits, else 32). */
function primaryItem(pitm: Uint8Array): number {
  const view = viewOf(pitm);
  return pitm[0] === 0 ? view.getUint16(4) : view.getUint32(4);
}

/** The 1-based `ipco` property indexes associated with `item` (`ipma`). */
function propertiesOf(ipma: Uint8Array, item: number): number[] {
  const view = viewOf(ipma);
  const version = ipma[0] ?? 0;
  const wideIndex = ((ipma[3] ?? 0) & 1) === 1;
  let at = 4;
  const count = view.getUint32(at);
  at += 4;
  for (let i = 0; i < count && at < ipma.length; i++) {
    const id = version < 1 ? view.getUint16(at) : view.getUint32(at);
    at += version < 1 ? 2 : 4;
    const associations = ipma[at++] ?? 0;
    const indexes: number[] = [];
    for (let j = 0; j < associations; j++) {
      indexes.push(wideIndex ? view.getUint16(at) & 0x7fff : (ipma[at] ?? 0) & 0x7f);
      at += wideIndex ? 2 : 1;
    }
    if (id === item) return indexes;
  }
  return [];
}

/** EXIF orientation doing what `irot` (anticlockwise quarter turns) after `imir` (axis) does. */
function orientationOf(quarterTurns: number, mirror: number | undefined): Orientation {
  // Mirror about a vertical axis (imir axis 1) is EXIF 2; about a horizontal axis (axis 0) is 4.
  const table: Record<string, Orientation> = {
    "0": 1,
    "1": 8,
    "2": 3,
    "3": 6,
    "0,1": 2,
    "1,1": 7,
    "2,1": 4,
    "3,1": 5,
    "0,0": 4,
    "1,0": 5,
    "2,0": 2,
    "3,0": 7,
  };
  return table[mirror === undefined ? `${quarterTurns}` : `${quarterTurns},${mirror}`] ?? 1;
}

/** Alpha auxiliary images: HEVC's auxid 1, and MPEG-B's CICP alpha (AVIF). */
const AUXILIARY_ALPHA = /urn:mpeg:hevc:2015:auxid:1\b|auxiliary:alpha/;

/**
 * Reads the primary image's header. Throws IMAGE_DAMAGED when the boxes are malformed or cut short;
 * when the `meta` box lies beyond `bytes`, the error's context holds `header_at`, where it ends.
 */
export function readHeifHeader(bytes: Uint8Array): HeifHeader {
  const walk = { next: 0 };
  let meta: Box | undefined;
  for (const box of boxes(bytes, 0, walk)) {
    if (box.type === "meta") {
      meta = box;
      break;
    }
  }
  if (!meta) throw fail("no meta box in the bytes read", { header_at: walk.next + 8 });
  const children = new Map<string, Uint8Array>();
  // meta is a full box: version and flags come first.
  for (const box of boxes(meta.data, 4)) children.set(box.type, box.data);
  const pitm = children.get("pitm");
  const iprp = children.get("iprp");
  if (!pitm || !iprp) throw fail("no primary item or item properties");
  let ipco: Uint8Array | undefined;
  let ipma: Uint8Array | undefined;
  for (const box of boxes(iprp)) {
    if (box.type === "ipco") ipco = box.data;
    if (box.type === "ipma" && !ipma) ipma = box.data;
  }
  if (!ipco || !ipma) throw fail("no item properties");
  const properties = [...boxes(ipco)];
  const hasAlpha = properties.some(
    (box) => box.type === "auxC" && AUXILIARY_ALPHA.test(new TextDecoder().decode(box.data.subarray(4))),
  );
  let size: { width: number; height: number } | undefined;
  let quarterTurns = 0;
  let mirror: number | undefined;
  let icc: Uint8Array | undefined;
  for (const index of propertiesOf(ipma, primaryItem(pitm))) {
    const box = properties[index - 1];
    if (!box) continue;
    const view = viewOf(box.data);
    if (box.type === "ispe" && box.data.length >= 12) {
      size = { width: view.getUint32(4), height: view.getUint32(8) };
    } else if (box.type === "irot") {
      quarterTurns = (box.data[0] ?? 0) & 3;
    } else if (box.type === "imir") {
      mirror = (box.data[0] ?? 0) & 1;
    } else if (box.type === "colr" && ["prof", "rICC"].includes(typeAt(box.data, 0))) {
      icc = box.data.subarray(4);
    }
  }
  if (!size || size.width === 0 || size.height === 0) throw fail("the primary image has no size");
  const metadata = new TextDecoder("latin1")
    .decode(children.get("iinf") ?? new Uint8Array())
    .includes("Exif");
  return {
    ...size,
    orientation: orientationOf(quarterTurns, mirror),
    ...(icc ? { icc } : {}),
    hasAlpha,
    metadata,
  };
}

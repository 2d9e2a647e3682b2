/**
 * The first frame of an animated WebP as a still WebP the decoder reads (libwebp's simple decoder
 * refuses animations), and where it sits on the animation's canvas. An ANMF chunk holds the
 * frame's offset and size, then its own ALPH / VP8 / VP8L chunks (WebP container specification).
 */
import { AppError } from "../../contract/index.ts";

export interface WebpFrame {
  /** A still WebP holding the frame. */
  readonly bytes: Uint8Array;
  readonly x: number;
  readonly y: number;
  readonly canvasWidth: number;
  readonly canvasHeight: number;
}

const fourCC = (bytes: Uint8Array, at: number) =>
  String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
const uint24 = (bytes: Uint8Array, at: number) =>
  (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);

function damaged(message: string): AppError {
  return new AppError("IMAGE_DAMAGED", `WEBP: ${message}`);
}

/** The chunks inside `bytes` from `at` to `end`: type, payload offset, payload size. */
function* chunksOf(bytes: Uint8Array, at: number, end: number) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (at + 8 <= end) {
    const size = view.getUint32(at + 4, true);
    if (at + 8 + size > end) throw damaged(`${fourCC(bytes, at)} chunk cut short`);
    yield { type: fourCC(bytes, at), start: at + 8, size };
    at += 8 + size + (size % 2);
  }
}

function riff(parts: readonly Uint8Array[]): Uint8Array {
  const size = 4 + parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(8 + size);
  const view = new DataView(out.buffer);
  out.set([0x52, 0x49, 0x46, 0x46]); // RIFF
  view.setUint32(4, size, true);
  out.set([0x57, 0x45, 0x42, 0x50], 8); // WEBP
  let at = 12;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function webpFirstFrame(bytes: Uint8Array): WebpFrame {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = Math.min(bytes.length, 8 + view.getUint32(4, true));
  let canvas: { width: number; height: number } | undefined;
  for (const chunk of chunksOf(bytes, 12, end)) {
    if (chunk.type === "VP8X") {
      canvas = { width: uint24(bytes, chunk.start + 4) + 1, height: uint24(bytes, chunk.start + 7) + 1 };
    }
    if (chunk.type !== "ANMF") continue;
    if (!canvas || chunk.size < 16) throw damaged("animation frame without a canvas");
    const at = chunk.start;
    const x = uint24(bytes, at) * 2;
    const y = uint24(bytes, at + 3) * 2;
    const width = uint24(bytes, at + 6) + 1;
    const height = uint24(bytes, at + 9) + 1;
    if (x + width > canvas.width || y + height > canvas.height) throw damaged("frame outside the canvas");
    const frameChunks = bytes.subarray(at + 16, chunk.start + chunk.size);
    const inner = [...chunksOf(frameChunks, 0, frameChunks.length)].map((c) => c.type);
    let still: Uint8Array;
    if (inner.includes("ALPH")) {
      // Alpha beside a lossy frame needs the extended header, with the alpha flag.
      const header = new Uint8Array(18);
      header.set([0x56, 0x50, 0x38, 0x58, 10, 0, 0, 0, 0x10]); // "VP8X", size 10, alpha flag
      header.set([(width - 1) & 0xff, ((width - 1) >> 8) & 0xff, (width - 1) >> 16], 12);
      header.set([(height - 1) & 0xff, ((height - 1) >> 8) & 0xff, (height - 1) >> 16], 15);
      still = riff([header, frameChunks]);
    } else {
      still = riff([frameChunks]);
    }
    return { bytes: still, x, y, canvasWidth: canvas.width, canvasHeight: canvas.height };
  }
  throw damaged("animation without frames");
}

/**
 * Image conversion on injected codecs, so the same steps run in workerd (engines/image/codecs.ts)
 * and in Node (engines/image/codecs.node.ts): header plan (conversion-plan.ts, shared with the
 * container) → decode (fast-png, MozJPEG, libwebp; an animated WebP's first frame) → EXIF
 * orientation → flatten onto white when the output has no alpha → encode (MozJPEG 4:2:0, PNG with
 * adaptive filters at the best deflate level, libwebp) → a JPEG's quantisation tables in 8 bits when
 * that changes no pixel (jpeg-tables.ts) → structural check of a JPEG output.
 *
 * Each step is synchronous, and the conversion gives the thread back between steps (`nextTurn`), so
 * a request that arrives during a conversion waits for one step, not the whole job; the Worker runs
 * one edge job at a time (worker/edge-slots.ts), so pixel buffers of two jobs are never held at once.
 */
import { AppError } from "../../contract/index.ts";
import type { EngineOutput, ProgressReporter } from "../types.ts";
import { type ConversionPlan, conversionFacts, type ImageTarget, planConversion } from "./conversion-plan.ts";
import { type ImageCodecs, type RgbaImage, type WasmCodec, wasmCodecsFor } from "./image-codecs.ts";
import { convertibleAtEdge, type ImageKind } from "./image-info.ts";
import { checkInputJpeg, checkJpeg } from "./jpeg-check.ts";
import { withEightBitTables } from "./jpeg-tables.ts";
import { applyOrientation, flattenOntoWhite } from "./pixel-transforms.ts";
import { webpFirstFrame } from "./webp-first-frame.ts";

export interface ConvertImageSettings {
  readonly target: ImageTarget;
  /** JPEG/WebP quality, 1–100 (contract `jpegQuality`); PNG output is lossless. */
  readonly quality: number;
  /** Images with more pixels are refused (IMAGE_TOO_LARGE) before anything is decoded. */
  readonly maxPixels: number;
  /** The kinds the tool takes; others are refused (UNSUPPORTED_FILE_TYPE). */
  readonly sources?: readonly ImageKind[];
}

export type CodecLoader = (wanted: readonly WasmCodec[]) => Promise<ImageCodecs>;

function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && /memory|alloc|OOM/i.test(error.message);
}

/**
 * Decoder failures: an error the decoder reports means the file is damaged; a trap of the WASM
 * machine is memory exhaustion or a decoder fault, not the user's.
 */
function decodeFailure(kind: ImageKind, error: unknown): AppError {
  const name = kind.toUpperCase();
  if (error instanceof AppError) return error;
  if (isOutOfMemory(error))
    return new AppError("JOB_OUT_OF_MEMORY", `out of memory while decoding the ${name}`);
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof WebAssembly.RuntimeError)
    return new AppError("INTERNAL", `The ${name} decoder stopped unexpectedly.`, undefined, detail);
  return new AppError("IMAGE_DAMAGED", `The ${name} could not be decoded.`, undefined, detail);
}

function encodeFailure(target: ImageTarget, error: unknown): AppError {
  const name = target.toUpperCase();
  if (isOutOfMemory(error))
    return new AppError("JOB_OUT_OF_MEMORY", `out of memory while encoding the ${name}`);
  const detail = error instanceof Error ? error.message : String(error);
  return new AppError("INTERNAL", `The ${name} encoder failed.`, undefined, detail);
}

/** An animated WebP's first frame, placed on its canvas (transparent around it). */
function decodeWebpFirstFrame(codecs: ImageCodecs, bytes: Uint8Array): RgbaImage {
  const frame = webpFirstFrame(bytes);
  const image = codecs.decodeWebp(frame.bytes);
  if (
    frame.x === 0 &&
    frame.y === 0 &&
    image.width === frame.canvasWidth &&
    image.height === frame.canvasHeight
  ) {
    return image;
  }
  const data = new Uint8Array(frame.canvasWidth * frame.canvasHeight * 4);
  for (let y = 0; y < image.height; y++) {
    const row = image.data.subarray(y * image.width * 4, (y + 1) * image.width * 4);
    data.set(row, ((frame.y + y) * frame.canvasWidth + frame.x) * 4);
  }
  return { width: frame.canvasWidth, height: frame.canvasHeight, data };
}

function decode(codecs: ImageCodecs, bytes: Uint8Array, plan: ConversionPlan): RgbaImage {
  const { kind, width, height, animated } = plan.info;
  let image: RgbaImage;
  try {
    if (kind === "png") image = codecs.decodePng(bytes);
    else if (kind === "jpeg") {
      // MozJPEG decodes a truncated JPEG with grey below the cut; the container refuses it.
      checkInputJpeg(bytes, undefined, { unfinishedCoefficients: true });
      image = codecs.decodeJpeg(bytes);
    } else if (kind === "webp")
      image = animated ? decodeWebpFirstFrame(codecs, bytes) : codecs.decodeWebp(bytes);
    else throw new AppError("INTERNAL", `${kind.toUpperCase()} images are converted in the container.`);
  } catch (error) {
    throw decodeFailure(kind, error);
  }
  if (image.width !== width || image.height !== height || image.data.length !== width * height * 4) {
    throw new AppError(
      "IMAGE_DAMAGED",
      `${kind.toUpperCase()} decoded to ${image.width}×${image.height}, header says ${width}×${height}`,
    );
  }
  return image;
}

function encode(codecs: ImageCodecs, image: RgbaImage, plan: ConversionPlan, settings: ConvertImageSettings) {
  const { target, quality } = settings;
  try {
    if (target === "jpeg") return codecs.encodeJpeg(image, { quality, grayscale: plan.grey });
    if (target === "png") return codecs.encodePng(image, { grey: plan.grey, alpha: plan.alpha });
    return codecs.encodeWebp(image, { quality });
  } catch (error) {
    throw encodeFailure(target, error);
  }
}

/**
 * Lets everything already waiting on the thread run (a request that arrived, an I/O callback)
 * before the next step: a timer, unlike a resolved promise, comes after them.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function convertImage(
  bytes: Uint8Array,
  settings: ConvertImageSettings,
  loadCodecs: CodecLoader,
  progress: ProgressReporter,
): Promise<EngineOutput> {
  const plan = planConversion(bytes, settings.target, settings.maxPixels, settings.sources);
  if (!convertibleAtEdge(plan.info)) {
    // The edge budget (engines/edge-budget.ts) sends these to the container before they get here.
    throw new AppError("INTERNAL", "This image needs the container's colour engine or GIF decoder.");
  }
  progress(2);
  const codecs = await loadCodecs(wasmCodecsFor(plan.info.kind, settings.target));
  progress(10);
  let image = decode(codecs, bytes, plan);
  progress(40);
  await nextTurn();
  if (!plan.alpha) flattenOntoWhite(image.data);
  image = applyOrientation(image, plan.info.orientation);
  progress(50);
  await nextTurn();
  let output = encode(codecs, image, plan, settings);
  progress(90);
  await nextTurn();
  if (settings.target === "jpeg") output = withEightBitTables(output);
  progress(95);
  if (settings.target === "jpeg") {
    checkJpeg(output, { width: plan.width, height: plan.height, components: plan.grey ? 1 : 3 });
  }
  progress(100);
  return { bytes: output, facts: conversionFacts(plan) };
}

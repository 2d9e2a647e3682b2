/** How an image's format is named to users (HEIC, TIFF, JPG), and errors that carry that name. */
import { AppError, FILE_KINDS, type FileKind } from "../../contract/index.ts";

export function formatName(kind: FileKind): string {
  return (FILE_KINDS[kind].extensions[0] ?? kind).toUpperCase();
}

/**
 * Kinds decoded in the container only, which people may not know their devices make (HEIC from
 * iPhones, AVIF, TIFF from scanners, BMP): a failure names the format. PNG, JPEG, WebP and GIF keep
 * the general damaged-image message.
 */
const NAMED_KINDS: readonly FileKind[] = ["heic", "avif", "tiff", "bmp"];

/**
 * IMAGE_DAMAGED for an image that could not be decoded, naming the format in context
 * `image_format` (the screen's message names it) for NAMED_KINDS; other AppErrors pass unchanged.
 * A decoder's own text goes to the log line only.
 */
export function undecodableImage(kind: FileKind, error: unknown): AppError {
  if (!NAMED_KINDS.includes(kind)) {
    if (error instanceof AppError) return error;
    const detail = error instanceof Error ? error.message : String(error);
    return new AppError(
      "IMAGE_DAMAGED",
      `The ${kind.toUpperCase()} could not be decoded.`,
      undefined,
      detail,
    );
  }
  if (error instanceof AppError) {
    if (error.code !== "IMAGE_DAMAGED") return error;
    const context = { ...error.context, image_format: formatName(kind) };
    return new AppError(error.code, error.message, context, error.detail);
  }
  const detail = error instanceof Error ? error.message : String(error);
  const context = { image_format: formatName(kind) };
  return new AppError(
    "IMAGE_DAMAGED",
    `The ${formatName(kind)} image could not be decoded.`,
    context,
    detail,
  );
}

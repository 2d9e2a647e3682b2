/** How an image's format is named to users (HEIC, TIFF, JPG), and errors that carry that name. */
import { AppError, FILE_KINDS, type FileKind } from "../../contract/index.ts";

export function formatName(kind: FileKind): string {
  return (FILE_KINDS[kind].extensions[0] ?? kind).toUpperCase();
}

/**
 * IMAGE_DAMAGED naming the format (context `image_format`: the screen's message names it); other
 * AppErrors pass unchanged. A decoder's own text goes to the log line only.
 */
export function undecodableImage(kind: FileKind, error: unknown): AppError {
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

import type { IconName } from "../../components/icon";
import type { ToolId } from "../../lib/contract";

/** The picture on each tool's card. */
export const TOOL_ICONS: Readonly<Record<ToolId, IconName>> = {
  "merge-pdf": "merge",
  "split-pdf": "split",
  "compress-pdf": "compress",
  "pdf-to-word": "document",
  "pdf-to-excel": "table",
  "pdf-to-jpg": "image",
  "images-to-pdf": "document",
  "markdown-to-pdf": "markdown",
  ocr: "ocr",
  protect: "lock",
  sign: "pen",
  "png-to-jpg": "convert",
  "jpg-to-png": "convert",
  "webp-to-jpg": "convert",
  "compress-image": "compress",
};

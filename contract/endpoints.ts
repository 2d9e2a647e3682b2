import type { FileKind } from "./file-kinds.ts";
import type { TaskType } from "./tools.ts";
import { TOOLS, type ToolId } from "./tools.ts";

/** Every API path, shared by the Worker's routes, the client and the OpenAPI document. */
export const API_PATHS = {
  csrfToken: "/api/pdf/csrf-token",
  openapi: "/api/openapi.json",
  merge: "/api/pdf/merge",
  split: "/api/pdf/split",
  pdfConvert: "/api/pdf/convert",
  compress: "/api/pdf/compress",
  validatePdf: "/api/pdf/validate-pdf",
  imagesToPdf: "/api/pdf/images-to-pdf",
  markdownToPdf: "/api/pdf/markdown-to-pdf",
  imageConvert: "/api/image/convert",
} as const;

export const statusPath = (type: TaskType, taskId: string) => `/api/${type}/status/${taskId}`;
/** GET downloads the result (`?file=N` picks one of several); DELETE removes the task at once. */
export const downloadPath = (type: TaskType, taskId: string) => `/api/${type}/download/${taskId}`;
export const taskPath = (type: TaskType, taskId: string) => `/api/${type}/task/${taskId}`;

/** How the client starts each tool: path, the multipart field holding files, fixed fields. */
export interface ToolEndpoint {
  readonly path: string;
  readonly fileField: "file" | "files" | "images";
  readonly fields: Readonly<Record<string, string>>;
}

export const TOOL_ENDPOINTS = {
  "merge-pdf": { path: API_PATHS.merge, fileField: "files", fields: {} },
  "split-pdf": { path: API_PATHS.split, fileField: "file", fields: {} },
  "compress-pdf": { path: API_PATHS.compress, fileField: "file", fields: {} },
  "pdf-to-word": { path: API_PATHS.pdfConvert, fileField: "file", fields: { output_format: "docx" } },
  "pdf-to-excel": { path: API_PATHS.pdfConvert, fileField: "file", fields: { output_format: "xlsx" } },
  "pdf-to-jpg": { path: API_PATHS.pdfConvert, fileField: "file", fields: { output_format: "jpg" } },
  "images-to-pdf": { path: API_PATHS.imagesToPdf, fileField: "images", fields: {} },
  "markdown-to-pdf": { path: API_PATHS.markdownToPdf, fileField: "file", fields: {} },
  ocr: { path: API_PATHS.pdfConvert, fileField: "file", fields: { output_format: "ocr" } },
  protect: { path: API_PATHS.pdfConvert, fileField: "file", fields: { output_format: "protect" } },
  sign: { path: API_PATHS.pdfConvert, fileField: "file", fields: { output_format: "sign" } },
  "png-to-jpg": { path: API_PATHS.imageConvert, fileField: "file", fields: { target_format: "jpg" } },
  "jpg-to-png": { path: API_PATHS.imageConvert, fileField: "file", fields: { target_format: "png" } },
  "webp-to-jpg": { path: API_PATHS.imageConvert, fileField: "file", fields: { target_format: "jpg" } },
  "compress-image": { path: API_PATHS.imageConvert, fileField: "file", fields: {} },
} as const satisfies Record<ToolId, ToolEndpoint>;

/**
 * The tool behind `POST /api/image/convert` (spec §7): a numeric quality or a target equal to the
 * source format means compression; otherwise the source kind (from the bytes) and target pick the
 * converter. Returns null for a pair no tool handles.
 */
export function imageConvertTool(source: FileKind, targetFormat: string, quality: string): ToolId | null {
  const target = targetFormat.toLowerCase() === "jpeg" ? "jpg" : targetFormat.toLowerCase();
  const sourceName = source === "jpeg" ? "jpg" : source;
  if (/^\d+$/.test(quality.trim()) || target === sourceName) return "compress-image";
  for (const [id, endpoint] of Object.entries(TOOL_ENDPOINTS)) {
    const tool = TOOLS[id as ToolId];
    if (endpoint.path !== API_PATHS.imageConvert || !("target_format" in endpoint.fields)) continue;
    if (
      endpoint.fields.target_format === target &&
      (tool.input.kinds as readonly FileKind[]).includes(source)
    ) {
      return id as ToolId;
    }
  }
  return null;
}

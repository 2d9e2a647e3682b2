import { z } from "zod";
import type { FileKind } from "./file-kinds.ts";

const MB = 1024 * 1024;

/** JPEG quality for the named presets (spec §9); the same table serves converters and compression. */
export const QUALITY_PRESETS = { low: 60, medium: 85, high: 95 } as const;
export type QualityPreset = keyof typeof QUALITY_PRESETS;
export const CUSTOM_QUALITY = { min: 30, max: 100, step: 1, default: 85 } as const;

const qualityPreset = z.enum(["high", "medium", "low"]).default("medium");
/** Page ranges such as "1-3,5,7-9"; checked against the page count by the engine. */
const pageRanges = z
  .string()
  .trim()
  .regex(/^$|^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/, "page ranges like 1-3,5,7-9")
  .optional();
const noOptions = z.object({});

export type ToolCategory = "pdf" | "image";
export type TaskType = "pdf" | "image";

interface ToolInput {
  /** File kinds accepted, decided from the bytes (see file-kinds.ts). */
  readonly kinds: readonly FileKind[];
  readonly maxFiles: number;
  /** Per-file limit in bytes. */
  readonly maxFileBytes: number;
  /** Limit for all files of one request together. */
  readonly maxTotalBytes: number;
}

/** Where a job runs. Edge jobs over `edgeBudget` run in the container instead. */
type ToolEngine =
  | { readonly kind: "container" }
  | { readonly kind: "edge"; readonly edgeBudget: { readonly maxPixels: number; readonly maxBytes: number } };

export interface ToolDeclaration {
  readonly id: string;
  readonly category: ToolCategory;
  /** Which status endpoint (`/api/{taskType}/status`) serves its tasks. */
  readonly taskType: TaskType;
  /** false: declared, shown, but the API answers TOOL_NOT_AVAILABLE. */
  readonly available: boolean;
  /** Announced as coming soon (card dimmed and flagged disabled). */
  readonly comingSoon: boolean;
  readonly premium: boolean;
  readonly input: ToolInput;
  /** Options as sent in the multipart form, with the spec's defaults and ranges. */
  readonly options: z.ZodObject;
  readonly output: { readonly kind: FileKind };
  readonly engine: ToolEngine;
}

const pdfInput = (maxFiles: number): ToolInput => ({
  kinds: ["pdf"],
  maxFiles,
  maxFileBytes: 100 * MB,
  maxTotalBytes: 100 * MB,
});
const imageInput = (kinds: readonly FileKind[], maxFiles = 1): ToolInput => ({
  kinds,
  maxFiles,
  maxFileBytes: 50 * MB,
  maxTotalBytes: maxFiles === 1 ? 50 * MB : 100 * MB,
});
/**
 * Edge image budget: PNG decode + MozJPEG encode peaked at ~33 MB per megapixel in workerd (about
 * 100 MB at 3 MP) and the isolate has 128 MB shared by concurrent requests; bigger images go to
 * the container.
 */
const edgeImage = {
  kind: "edge",
  edgeBudget: { maxPixels: 2_500_000, maxBytes: 10 * MB },
} as const satisfies ToolEngine;
const container = { kind: "container" } as const satisfies ToolEngine;

function declare<const T extends ToolDeclaration>(tool: T): T {
  return tool;
}

const base = { available: false, comingSoon: false, premium: false } as const;

/** A one-PDF tool announced as coming soon (card dimmed and disabled, API refuses it). */
function comingSoonPdfTool<const Id extends string>(id: Id) {
  return declare({
    ...base,
    id,
    category: "pdf",
    taskType: "pdf",
    comingSoon: true,
    input: pdfInput(1),
    options: noOptions,
    output: { kind: "pdf" },
    engine: container,
  });
}

/** An edge image format converter with the quality presets. */
function imageConverter<
  const Id extends string,
  const Source extends FileKind,
  const Target extends FileKind,
  const Available extends boolean,
>(id: Id, source: Source, target: Target, available: Available) {
  return declare({
    ...base,
    id,
    category: "image",
    taskType: "image",
    available,
    input: imageInput([source]),
    options: z.object({ quality: qualityPreset }),
    output: { kind: target },
    engine: edgeImage,
  });
}

/** Every tool of the product, in the order of the tools index. Ids never change once shipped. */
export const TOOLS = {
  "merge-pdf": declare({
    ...base,
    id: "merge-pdf",
    category: "pdf",
    taskType: "pdf",
    available: true,
    input: pdfInput(50),
    options: noOptions,
    output: { kind: "pdf" },
    engine: container,
  }),
  "split-pdf": declare({
    ...base,
    id: "split-pdf",
    category: "pdf",
    taskType: "pdf",
    input: pdfInput(1),
    options: z.object({
      split_mode: z.enum(["ranges", "every-page"]).default("ranges"),
      page_ranges: pageRanges,
    }),
    output: { kind: "zip" },
    engine: container,
  }),
  "compress-pdf": declare({
    ...base,
    id: "compress-pdf",
    category: "pdf",
    taskType: "pdf",
    input: pdfInput(1),
    options: z.object({ quality: qualityPreset }),
    output: { kind: "pdf" },
    engine: container,
  }),
  "pdf-to-word": declare({
    ...base,
    id: "pdf-to-word",
    category: "pdf",
    taskType: "pdf",
    input: pdfInput(1),
    options: z.object({ ocr: z.stringbool().default(false) }),
    output: { kind: "docx" },
    engine: container,
  }),
  "pdf-to-excel": declare({
    ...base,
    id: "pdf-to-excel",
    category: "pdf",
    taskType: "pdf",
    input: pdfInput(1),
    options: z.object({ page_ranges: pageRanges }),
    output: { kind: "xlsx" },
    engine: container,
  }),
  "pdf-to-jpg": declare({
    ...base,
    id: "pdf-to-jpg",
    category: "pdf",
    taskType: "pdf",
    input: pdfInput(1),
    options: z.object({
      conversion_mode: z.enum(["extract-images", "convert-pages"]).default("convert-pages"),
      page_ranges: pageRanges,
    }),
    output: { kind: "zip" },
    engine: container,
  }),
  "images-to-pdf": declare({
    ...base,
    id: "images-to-pdf",
    category: "pdf",
    taskType: "pdf",
    input: imageInput(["png", "jpeg", "webp", "gif"], 50),
    options: z.object({
      margin: z.enum(["none", "small", "large"]).default("small"),
      orientation: z.enum(["portrait", "landscape"]).default("portrait"),
    }),
    output: { kind: "pdf" },
    engine: container,
  }),
  "markdown-to-pdf": declare({
    ...base,
    id: "markdown-to-pdf",
    category: "pdf",
    taskType: "pdf",
    input: { kinds: ["markdown"], maxFiles: 1, maxFileBytes: 5 * MB, maxTotalBytes: 5 * MB },
    options: noOptions,
    output: { kind: "pdf" },
    engine: container,
  }),
  ocr: comingSoonPdfTool("ocr"),
  protect: comingSoonPdfTool("protect"),
  sign: comingSoonPdfTool("sign"),
  "png-to-jpg": imageConverter("png-to-jpg", "png", "jpeg", true),
  "jpg-to-png": imageConverter("jpg-to-png", "jpeg", "png", false),
  "webp-to-jpg": imageConverter("webp-to-jpg", "webp", "jpeg", false),
  "compress-image": declare({
    ...base,
    id: "compress-image",
    category: "image",
    taskType: "image",
    input: imageInput(["jpeg", "png", "webp", "gif"]),
    options: z.object({
      quality: z
        .union([
          z.enum(["high", "medium", "low"]),
          z.coerce.number().int().min(CUSTOM_QUALITY.min).max(CUSTOM_QUALITY.max),
        ])
        .default("medium"),
    }),
    output: { kind: "jpeg" },
    engine: edgeImage,
  }),
} as const;

type Tools = typeof TOOLS;
export type ToolId = keyof Tools;
export const TOOL_IDS = Object.keys(TOOLS) as ToolId[];

/** Tools whose jobs the API accepts. */
export type AvailableToolId = { [K in ToolId]: Tools[K]["available"] extends true ? K : never }[ToolId];
/** Available tools that run at the edge (within their budget). */
export type EdgeToolId = {
  [K in AvailableToolId]: Tools[K]["engine"]["kind"] extends "edge" ? K : never;
}[AvailableToolId];
/** Available tools the container must handle: container tools, and edge tools over budget. */
export type ContainerToolId = AvailableToolId;

export type ToolOptions<T extends ToolId> = z.output<Tools[T]["options"]>;

export function isToolId(value: string): value is ToolId {
  return Object.hasOwn(TOOLS, value);
}

export function toolById(id: ToolId): ToolDeclaration {
  return TOOLS[id];
}

/** Parses multipart option fields with the tool's schema (defaults applied, ranges checked). */
export function parseToolOptions<T extends ToolId>(
  id: T,
  fields: Record<string, string>,
): { success: true; data: ToolOptions<T> } | { success: false; issues: string } {
  const result = TOOLS[id].options.safeParse(fields);
  if (result.success) return { success: true, data: result.data as ToolOptions<T> };
  return {
    success: false,
    issues: result.error.issues.map((i) => `${i.path.join(".") || "options"}: ${i.message}`).join("; "),
  };
}

/** JPEG quality number for a preset name or a custom value. */
export function jpegQuality(quality: QualityPreset | number): number {
  return typeof quality === "number" ? quality : QUALITY_PRESETS[quality];
}

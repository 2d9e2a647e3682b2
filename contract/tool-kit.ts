/**
 * What a tool declaration is made of, and the helpers tool folders declare themselves with
 * (tools/<id>/tool.ts). Pure TypeScript + zod: every runtime imports it. It must not import the
 * registry (contract/tools.ts), which imports every declaration.
 */
import { z } from "zod";
import type { FileKind } from "./file-kinds.ts";
import { LANGUAGE_CODES } from "./languages.ts";

const MB = 1024 * 1024;

/** JPEG quality for the named presets (spec §9); the same table serves converters and compression. */
export const QUALITY_PRESETS = { low: 60, medium: 85, high: 95 } as const;
export type QualityPreset = keyof typeof QUALITY_PRESETS;
export const CUSTOM_QUALITY = { min: 30, max: 100, step: 1, default: 85 } as const;

export type ToolCategory = "pdf" | "image";
/** Which status endpoint (`/api/{taskType}/status`) serves a tool's tasks: its category. */
export type TaskType = ToolCategory;

/** Pictures a tool card can show (the client draws each one). */
export const TOOL_ICONS = [
  "merge",
  "split",
  "compress",
  "document",
  "table",
  "image",
  "markdown",
  "ocr",
  "lock",
  "unlock",
  "pen",
  "convert",
] as const;
export type ToolIcon = (typeof TOOL_ICONS)[number];

export interface ToolInput {
  /** File kinds accepted, decided from the bytes (see file-kinds.ts). */
  readonly kinds: readonly FileKind[];
  readonly maxFiles: number;
  /** Per-file limit in bytes. */
  readonly maxFileBytes: number;
  /** Limit for all files of one request together. */
  readonly maxTotalBytes: number;
  /** Images with more pixels (read from the header) are refused before anything decodes them. */
  readonly maxPixels?: number;
  /**
   * PDF pages one job takes, over all its files: more is refused with TOO_MANY_PAGES as soon as the
   * converter has counted them, before the tool starts (a job that would only run out of memory or
   * time holds a runner meanwhile).
   */
  readonly maxPages?: number;
  /**
   * Further files a request may carry, each in its own named multipart field next to the main
   * file field (sign's `signature` image): checked by content and limits like the main files,
   * stored with the task's inputs and deleted with them, and handed to the engine by field name.
   */
  readonly extraFiles?: Readonly<Record<string, ExtraFileInput>>;
}

/** One extra file field of a tool (ToolInput.extraFiles): at most one file in it. */
export interface ExtraFileInput {
  /** File kinds accepted, decided from the bytes (see file-kinds.ts). */
  readonly kinds: readonly FileKind[];
  readonly maxFileBytes: number;
  /** Images with more pixels (read from the header) are refused before anything decodes them. */
  readonly maxPixels?: number;
  /** A request without it is refused (NO_FILE naming the field). */
  readonly required: boolean;
  /** What the field holds, for the OpenAPI document. */
  readonly description: string;
}

/** Where a job runs. Edge jobs over `edgeBudget` run in the container instead. */
export type ToolEngine =
  | { readonly kind: "container" }
  | { readonly kind: "edge"; readonly edgeBudget: { readonly maxPixels: number; readonly maxBytes: number } };

/** How the API starts a tool. Several tools may share a path; `fields` and `select` pick one. */
export interface ToolEndpoint {
  readonly path: string;
  /** The multipart field holding the files. */
  readonly fileField: "file" | "files" | "images";
  /** Fields the client sends as they are and the server matches (e.g. `output_format: "docx"`). */
  readonly fields: Readonly<Record<string, string>>;
  /** An extra rule over the request's fields, for tools that share a path without fixed fields. */
  readonly select?: (fields: Readonly<Record<string, string>>) => boolean;
  /**
   * The spec's older blob style: the Worker waits for the task and answers the file itself —
   * always, or when the named field is in the query string.
   */
  readonly blob?: "always" | { readonly whenQuery: string };
}

export interface ToolDeclaration {
  /** Never changes once shipped; also the tool's folder name, URL segment and i18next namespace. */
  readonly id: string;
  readonly category: ToolCategory;
  /** Position among the tools of its category (tools index order). */
  readonly order: number;
  readonly icon: ToolIcon;
  /** false: declared, shown, but the API answers TOOL_NOT_AVAILABLE and the page says so. */
  readonly available: boolean;
  /** Announced as coming soon (card dimmed and flagged disabled). */
  readonly comingSoon: boolean;
  readonly premium: boolean;
  readonly input: ToolInput;
  /**
   * Options with the spec's defaults and ranges. It parses the form fields of a request (strings)
   * into typed values, and accepts its own output unchanged (the converter checks the typed
   * options it receives with the same schema).
   */
  readonly options: z.ZodObject;
  /** The result's kind; `suffix` marks a result of the input's own type ("report-merged.pdf"). */
  readonly output: {
    readonly kind: FileKind;
    readonly suffix?: string;
    /** The result's kind when a job makes one file (`kind` is then the ZIP that holds several). */
    readonly single?: FileKind;
  };
  readonly engine: ToolEngine;
  readonly endpoint: ToolEndpoint;
  /**
   * A converter job's time limit grows with its pages when its work does (OCR: one Tesseract pass
   * per page): `perPageMs` per page of its inputs, at the default base limit, when that comes to more
   * than the base (job-time.ts). Without it, every job of the tool has the base limit.
   */
  readonly jobTime?: { readonly perPageMs: number };
}

/** Declares a tool, keeping its literal types (ids, kinds, option shapes) for the registry. */
export function declareTool<const T extends ToolDeclaration>(tool: T): T {
  return tool;
}

/** Flags of a tool people can use. */
export const AVAILABLE = { available: true, comingSoon: false, premium: false } as const;
/** Flags of a tool not built yet (the API refuses it, the page says so). */
export const NOT_BUILT = { available: false, comingSoon: false, premium: false } as const;
/** Flags of a tool announced as coming soon (card dimmed and disabled). */
export const COMING_SOON = { available: false, comingSoon: true, premium: false } as const;

export const pdfInput = (maxFiles: number, maxPages?: number): ToolInput => ({
  kinds: ["pdf"],
  maxFiles,
  maxFileBytes: 100 * MB,
  maxTotalBytes: 100 * MB,
  ...(maxPages === undefined ? {} : { maxPages }),
});

/**
 * Largest image any tool takes: 64 MP (8000×8000). Measured with sharp: decode + MozJPEG needs about
 * 8.5 MB per megapixel on top of a runner's ~130 MB, inside the default 1024 MB job memory cap.
 */
export const MAX_IMAGE_PIXELS = 64_000_000;

/**
 * Image kinds only the container decodes (HEIC/HEIF, AVIF, TIFF, BMP: the edge has no decoder for
 * them). Every tool that takes images takes these too; jobs with them always run in the container.
 */
export const CONTAINER_IMAGE_KINDS = ["heic", "avif", "tiff", "bmp"] as const satisfies readonly FileKind[];

export const imageInput = (kinds: readonly FileKind[], maxFiles = 1): ToolInput => ({
  kinds,
  maxFiles,
  maxFileBytes: 50 * MB,
  maxTotalBytes: maxFiles === 1 ? 50 * MB : 100 * MB,
  maxPixels: MAX_IMAGE_PIXELS,
});

/**
 * An extra image field (a signature, a watermark picture): PNG, JPEG or WebP, at most 5 MB and
 * 25 MP — a stamp, not a photo to convert.
 */
export const extraImageFile = (description: string, required = true): ExtraFileInput => ({
  kinds: ["png", "jpeg", "webp"],
  maxFileBytes: 5 * MB,
  maxPixels: 25_000_000,
  required,
  description,
});

/** A tool's extra file fields, by name (none when it declares none). */
export function extraFilesOf(input: ToolInput): Readonly<Record<string, ExtraFileInput>> {
  return input.extraFiles ?? {};
}

export const markdownInput: ToolInput = {
  kinds: ["markdown"],
  maxFiles: 1,
  maxFileBytes: 5 * MB,
  maxTotalBytes: 5 * MB,
};

/**
 * Edge image budget: PNG decode + MozJPEG encode peaked at ~33 MB per megapixel in workerd (about
 * 100 MB at 3 MP) and the isolate has 128 MB shared by concurrent requests; bigger images go to
 * the container.
 */
export const EDGE_IMAGE = {
  kind: "edge",
  edgeBudget: { maxPixels: 2_500_000, maxBytes: 10 * MB },
} as const satisfies ToolEngine;
export const CONTAINER = { kind: "container" } as const satisfies ToolEngine;

/** Option schemas that parse form strings and accept their own typed output. */
export const options = {
  none: () => z.object({}),
  qualityPreset: () => z.enum(["high", "medium", "low"]).default("medium"),
  /** A preset name or a custom number (compression). */
  quality: () =>
    z
      .union([
        z.enum(["high", "medium", "low"]),
        z.coerce.number().int().min(CUSTOM_QUALITY.min).max(CUSTOM_QUALITY.max),
      ])
      .default("medium"),
  /** Page ranges such as "1-3,5,7-9"; checked against the page count by the engine. */
  pageRanges: () =>
    z
      .string()
      .trim()
      .regex(/^$|^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$/, "page ranges like 1-3,5,7-9")
      .optional(),
  /** Site language codes, comma-separated ("en,hi"); empty or absent when none is chosen. */
  languageList: () => {
    const code = `(?:${LANGUAGE_CODES.join("|")})`;
    return z
      .string()
      .trim()
      .regex(
        new RegExp(`^$|^${code}(\\s*,\\s*${code})*$`),
        `language codes among ${LANGUAGE_CODES.join(",")}`,
      )
      .optional();
  },
  /** "true"/"false" from a form, or a boolean. */
  flag: () => z.union([z.boolean(), z.stringbool()]).default(false),
  /** A flag that is on unless the request turns it off ("true"/"false"). */
  flagOn: () => z.union([z.boolean(), z.stringbool()]).default(true),
  /** A password the tool sets (any Unicode, at most PDF 2.0's 127 UTF-8 bytes). A secret. */
  password: (description: string) => passwordSchema().meta({ ...SECRET, description }),
  /** Like `password`, and optional. */
  optionalPassword: (description: string) =>
    passwordSchema()
      .optional()
      .meta({ ...SECRET, description }),
  /** Like `optionalPassword`, and may be empty (""): a form's untouched field, meaning none. */
  passwordIfAny: (description: string) =>
    passwordSchema(0)
      .optional()
      .meta({ ...SECRET, description }),
  /**
   * The password that opens an encrypted input PDF (any PDF tool): the converter opens the input
   * with it before the tool runs (engines/pdf/unlock-inputs.ts). A secret.
   */
  inputPassword: () =>
    passwordSchema()
      .optional()
      .meta({
        ...SECRET,
        [OPENS_INPUTS]: true,
        description: "Password of an encrypted input PDF (tried on every encrypted input).",
      }),
  /** One opening password per input file, by position ("" for a file without one), as JSON. */
  inputPasswords: () =>
    z
      .union([
        z.array(z.string().max(MAX_PASSWORD_CHARS)),
        z
          .string()
          .transform((text, context) => {
            try {
              const list: unknown = JSON.parse(text);
              if (Array.isArray(list) && list.every((item) => typeof item === "string"))
                return list as string[];
            } catch {}
            context.addIssue({ code: "custom", message: "a JSON array of passwords, one per file" });
            return z.NEVER;
          })
          .pipe(z.array(z.string().max(MAX_PASSWORD_CHARS))),
      ])
      .optional()
      .meta({
        ...SECRET,
        [OPENS_INPUTS]: true,
        description: 'Passwords of encrypted input PDFs by file position, as a JSON array ("" for none).',
      }),
};

/**
 * PDF 2.0 (R6) uses a password's first 127 bytes of UTF-8 after SASLprep; a longer one is refused
 * rather than cut. Every character is at most 4 bytes, so the character count bounds the work first.
 */
export const MAX_PASSWORD_BYTES = 127;
const MAX_PASSWORD_CHARS = MAX_PASSWORD_BYTES;
const passwordSchema = (minChars = 1) =>
  z
    .string()
    .min(minChars)
    .max(MAX_PASSWORD_CHARS)
    .refine((value) => new TextEncoder().encode(value).length <= MAX_PASSWORD_BYTES, {
      message: `at most ${MAX_PASSWORD_BYTES} bytes of UTF-8`,
    });

/** Metadata of a secret option: shown as a password in the OpenAPI document, never stored past its job. */
const SECRET = { format: "password", writeOnly: true } as const;
/** Metadata key of the options that open encrypted inputs. */
const OPENS_INPUTS = "x-opens-input";

function optionMeta(schema: z.ZodObject, name: string): Record<string, unknown> | undefined {
  const field: unknown = schema.shape[name];
  return field instanceof z.ZodType ? field.meta() : undefined;
}

/** The names of a tool's secret options (passwords): kept out of stored task state. */
export function secretOptionNames(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape).filter((name) => optionMeta(schema, name)?.format === SECRET.format);
}

/** The names of a tool's options that open its encrypted inputs (`inputPassword`, `inputPasswords`). */
export function inputPasswordNames(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape).filter((name) => optionMeta(schema, name)?.[OPENS_INPUTS] === true);
}

/** JPEG quality number for a preset name or a custom value. */
export function jpegQuality(quality: QualityPreset | number): number {
  return typeof quality === "number" ? quality : QUALITY_PRESETS[quality];
}

/**
 * The endpoint of a PDF conversion (spec §7): `POST /api/pdf/convert` with `output_format`; with the
 * format in the query string it answers the file itself (the older blob style).
 */
export function pdfConvertEndpoint<const Format extends string>(format: Format) {
  return {
    path: "/api/pdf/convert",
    fileField: "file",
    fields: { output_format: format },
    blob: { whenQuery: "output_format" },
  } as const satisfies ToolEndpoint;
}

/**
 * An image format converter with the quality presets, started on /api/image/convert (spec §7). It
 * takes its source format first, then the container-only kinds (CONTAINER_IMAGE_KINDS); `engine`
 * is the edge within its budget unless the source itself needs the container.
 */
export function imageConverterTool<
  const Id extends string,
  const Source extends FileKind,
  const Target extends FileKind,
  const Available extends boolean,
  const Engine extends ToolEngine = typeof EDGE_IMAGE,
>(spec: {
  id: Id;
  order: number;
  source: Source;
  target: Target;
  targetFormat: string;
  available: Available;
  engine?: Engine;
}) {
  const tool = {
    id: spec.id,
    category: "image",
    order: spec.order,
    icon: "convert",
    available: spec.available,
    comingSoon: false,
    premium: false,
    input: imageInput([spec.source, ...CONTAINER_IMAGE_KINDS.filter((kind) => kind !== spec.source)]),
    options: z.object({ quality: options.qualityPreset() }),
    output: { kind: spec.target },
    engine: (spec.engine ?? EDGE_IMAGE) as Engine,
    endpoint: {
      path: "/api/image/convert",
      fileField: "file",
      fields: { target_format: spec.targetFormat },
    },
  } as const;
  return tool satisfies ToolDeclaration;
}

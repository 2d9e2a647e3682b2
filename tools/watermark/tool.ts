import { z } from "zod";
import {
  AVAILABLE,
  CONTAINER,
  declareTool,
  extraImageFile,
  options,
  pdfInput,
} from "../../contract/tool-kit.ts";

/** Where the watermark goes on the displayed page, or repeated over all of it. */
export const WATERMARK_POSITIONS = [
  "center",
  "top-left",
  "top-right",
  "bottom-left",
  "bottom-right",
  "tiled",
] as const;

/** Longest watermark text, in characters. */
export const MAX_WATERMARK_TEXT = 200;

/**
 * Add watermark: a line of text in any of the site's scripts (shaped, real text) or an image (the
 * `image` file field: PNG with transparency, JPEG, WebP) on all pages or a range, over or under the
 * content, with opacity, rotation (the page's diagonal by default), size, colour (text) and
 * position, or tiled.
 */
export default declareTool({
  id: "watermark",
  category: "pdf",
  order: 14,
  icon: "pen",
  ...AVAILABLE,
  input: {
    ...pdfInput(1),
    extraFiles: {
      image: extraImageFile(
        "The watermark image (PNG, transparency kept; JPEG or WebP), instead of `text`.",
        false,
      ),
    },
  },
  options: z.object({
    // Required by the engine: a schema default would stamp words nobody chose.
    text: z.string().trim().min(1).max(MAX_WATERMARK_TEXT).optional(),
    opacity: z.coerce.number().min(0.05).max(1).default(0.3),
    /** Degrees anticlockwise, or the page's diagonal (bottom left to top right). */
    rotation: z.union([z.literal("diagonal"), z.coerce.number().min(-360).max(360)]).default("diagonal"),
    /** Font size in points (text). */
    size: z.coerce.number().min(8).max(200).default(60),
    /** Width of an image watermark, in percent of the page's width. */
    image_size: z.coerce.number().min(5).max(100).default(40),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "a colour like #808080")
      .default("#808080"),
    position: z.enum(WATERMARK_POSITIONS).default("center"),
    pages: options.pageRanges(),
    layer: z.enum(["over", "under"]).default("over"),
  }),
  output: { kind: "pdf", suffix: "-watermarked" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/watermark", fileField: "file", fields: {} },
});

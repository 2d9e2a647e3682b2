import { z } from "zod";
import {
  AVAILABLE,
  CONTAINER,
  declareTool,
  extraImageFile,
  options,
  pdfInput,
} from "../../contract/tool-kit.ts";

/** The images a placement can stamp: the extra file fields of the request. */
export const SIGN_IMAGES = ["signature", "initials", "date"] as const;
export type SignImage = (typeof SIGN_IMAGES)[number];

/** Most placements one request may carry (a JSON field of at most 4 KB holds about 60). */
export const MAX_PLACEMENTS = 50;

const fraction = z.coerce.number().min(0).max(1);

/**
 * One placement: the image, its page (1-based, or "all" for every page) and its top-left corner
 * and width as fractions of the page's visible width and height (the height follows from the
 * image). The box must start on the page, and its width must fit to the right of `x`.
 */
export const placementSchema = z
  .object({
    image: z.enum(SIGN_IMAGES).default("signature"),
    page: z.union([z.literal("all"), z.coerce.number().int().min(1)]),
    x: fraction.max(0.99),
    y: fraction.max(0.99),
    width: z.coerce.number().min(0.01).max(1),
  })
  .refine((placement) => placement.x + placement.width <= 1 + 1e-9, {
    message: "x + width must be at most 1 (the signature must fit across the page)",
    path: ["width"],
  });
export type SignPlacement = z.output<typeof placementSchema>;

/** `placements` as a JSON array (a form string) or as the array itself. */
const placementList = z
  .union([
    z.array(z.unknown()),
    z.string().transform((text, context) => {
      try {
        const list: unknown = JSON.parse(text);
        if (Array.isArray(list)) return list as unknown[];
      } catch {}
      context.addIssue({ code: "custom", message: "a JSON array of {page, x, y, width}" });
      return z.NEVER;
    }),
  ])
  .pipe(z.array(placementSchema).min(1).max(MAX_PLACEMENTS));

/**
 * Sign PDF: an image of the signature (drawn, typed or uploaded in the page, PNG with transparency)
 * stamped onto the chosen pages at the chosen place and size, with optional initials and date
 * images; the rest of each page and every other page stay as they were. An electronic signature
 * image, not a certificate-based digital signature.
 */
export default declareTool({
  id: "sign",
  category: "pdf",
  order: 15,
  icon: "pen",
  ...AVAILABLE,
  input: {
    ...pdfInput(1),
    extraFiles: {
      signature: extraImageFile("The signature image (PNG with transparency; JPEG or WebP also taken)."),
      initials: extraImageFile('Initials image, for placements with `image: "initials"`.', false),
      date: extraImageFile('Date image, for placements with `image: "date"`.', false),
    },
  },
  options: z
    .object({
      /**
       * One placement in plain fields (the simple form); `placements` replaces them. Without
       * either the engine refuses the job (a default would sign where nobody chose).
       */
      page: z.coerce.number().int().min(1).optional().meta({ description: "Page to sign (1-based)." }),
      x: fraction
        .max(0.99)
        .optional()
        .meta({ description: "Left edge of the signature, as a fraction of the page's width." }),
      y: fraction
        .max(0.99)
        .optional()
        .meta({ description: "Top edge of the signature, as a fraction of the page's height." }),
      width: z.coerce
        .number()
        .min(0.01)
        .max(1)
        .optional()
        .meta({ description: "Width of the signature, as a fraction of the page's width." }),
      placements: placementList.optional().meta({
        description:
          "Several placements instead of page/x/y/width, as a JSON array of {page, x, y, width} " +
          '(page a number or "all"; optional image: "signature", "initials" or "date").',
      }),
      password: options.inputPassword(),
    })
    .refine((o) => o.x === undefined || o.width === undefined || o.x + o.width <= 1 + 1e-9, {
      message: "x + width must be at most 1 (the signature must fit across the page)",
      path: ["width"],
    }),
  output: { kind: "pdf", suffix: "-signed" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/sign", fileField: "file", fields: {} },
});

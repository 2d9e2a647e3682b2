import { z } from "zod";
import {
  AVAILABLE,
  CONTAINER,
  CONTAINER_IMAGE_KINDS,
  declareTool,
  imageInput,
} from "../../contract/tool-kit.ts";

/**
 * Images to PDF: one A4 page per image in the order given, fitted inside the margin and centred;
 * JPEGs embedded without re-encoding (engines/pdf/images-to-pdf.ts).
 */
export default declareTool({
  id: "images-to-pdf",
  category: "pdf",
  order: 7,
  icon: "document",
  ...AVAILABLE,
  input: imageInput(["png", "jpeg", "webp", "gif", ...CONTAINER_IMAGE_KINDS], 50),
  options: z.object({
    margin: z.enum(["none", "small", "large"]).default("small"),
    orientation: z.enum(["portrait", "landscape"]).default("portrait"),
  }),
  output: { kind: "pdf" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/images-to-pdf", fileField: "images", fields: {} },
});

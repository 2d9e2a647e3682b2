import { z } from "zod";
import { CONTAINER, declareTool, imageInput, NOT_BUILT } from "../../contract/tool-kit.ts";

/** Images to PDF: one page per image, with the spec's margins and orientation. */
export default declareTool({
  id: "images-to-pdf",
  category: "pdf",
  order: 7,
  icon: "document",
  ...NOT_BUILT,
  input: imageInput(["png", "jpeg", "webp", "gif"], 50),
  options: z.object({
    margin: z.enum(["none", "small", "large"]).default("small"),
    orientation: z.enum(["portrait", "landscape"]).default("portrait"),
  }),
  output: { kind: "pdf" },
  engine: CONTAINER,
  endpoint: { path: "/api/pdf/images-to-pdf", fileField: "images", fields: {} },
});

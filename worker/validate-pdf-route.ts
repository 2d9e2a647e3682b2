import type { Handler } from "hono";
import { TOOL_IDS, TOOLS, validatePdfResponseSchema } from "../contract/index.ts";
import { createConverterClient } from "./converter-client.ts";
import type { AppEnv } from "./env.ts";
import { countTaskCreation } from "./rate-limit.ts";
import { uploadPlanFor } from "./tool-resolution.ts";
import { type ReceivedFile, receiveUpload, type UploadPlan } from "./upload.ts";

/** One PDF, as large as any PDF tool accepts. */
const PDF_PLAN: UploadPlan = {
  ...uploadPlanFor(TOOL_IDS.filter((id) => (TOOLS[id].input.kinds as readonly string[]).includes("pdf"))),
  fileField: "file",
  kinds: ["pdf"],
  maxFiles: 1,
};

/** POST validate-pdf: the page count from the converter's inspect endpoint, or its error envelope. */
export const validatePdfRoute: Handler<AppEnv> = async (c) => {
  await countTaskCreation(c);
  const upload = await receiveUpload<ReceivedFile>(c.req.raw, PDF_PLAN, {
    keep: async (file) => file,
    discard: async () => undefined,
  });
  const pdf = upload.files[0];
  if (pdf === undefined) throw new Error("receiveUpload returned no file");
  const pages = await createConverterClient(c.env).inspectPdf(pdf.bytes);
  return c.json(validatePdfResponseSchema.parse({ total_pages: pages }));
};

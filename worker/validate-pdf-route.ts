import type { Handler } from "hono";
import { AppError, options, TOOL_IDS, TOOLS, validatePdfResponseSchema } from "../contract/index.ts";
import { type ConverterInput, createConverterClient } from "./converter-client.ts";
import type { AppEnv } from "./env.ts";
import { countTaskCreation } from "./rate-limit.ts";
import { newTaskId } from "./task-id.ts";
import { uploadPlanFor } from "./tool-resolution.ts";
import { r2Sink, receiveUpload, type UploadPlan } from "./upload.ts";

/** One PDF, as large as any PDF tool accepts. */
const PDF_PLAN: UploadPlan = {
  ...uploadPlanFor(TOOL_IDS.filter((id) => (TOOLS[id].input.kinds as readonly string[]).includes("pdf"))),
  fileField: "file",
  kinds: ["pdf"],
  maxFiles: 1,
};

/** The optional `password` field that opens a protected PDF, checked like the tools' own. */
const passwordSchema = options.inputPassword();

function passwordField(fields: Readonly<Record<string, string>>): string | undefined {
  if (fields.password === undefined || fields.password === "") return undefined;
  const parsed = passwordSchema.safeParse(fields.password);
  if (!parsed.success) throw new AppError("INVALID_OPTIONS", "Invalid password", { field: "password" });
  return parsed.data;
}

/**
 * POST validate-pdf: the page count from the converter's inspect endpoint, or its error envelope;
 * an optional `password` field opens a protected PDF (PDF_WRONG_PASSWORD when it does not).
 * The PDF streams into R2 under a fresh task id (never buffered whole in the Worker), streams from
 * there to the converter, and is deleted as soon as the converter has answered, whatever it says.
 */
export const validatePdfRoute: Handler<AppEnv> = async (c) => {
  // Counted before the body is read: a client over its limit writes nothing to R2.
  await countTaskCreation(c);
  const bucket = c.env.FILES;
  const sink = r2Sink(bucket, await newTaskId(c.env.CSRF_SECRET));
  const upload = await receiveUpload(c.req.raw, PDF_PLAN, sink);
  try {
    const pdf = upload.files[0];
    if (pdf === undefined) throw new Error("receiveUpload returned no file");
    const input: ConverterInput = {
      name: pdf.name,
      kind: pdf.kind,
      size: pdf.size,
      async open() {
        const object = await bucket.get(pdf.key);
        if (object === null) throw new Error("The uploaded PDF vanished from R2");
        return { body: object.body, size: object.size };
      },
    };
    const password = passwordField(upload.fields);
    const converter = createConverterClient(c.env);
    const inspected = await converter.inspectPdf(input, password).catch((error: unknown) => {
      // The PDF is in R2, so the request can be sent again: measured locally, a pooled connection
      // the converter closed while the upload was arriving failed one inspect in three.
      if (error instanceof AppError && error.code === "CONVERTER_UNAVAILABLE")
        return converter.inspectPdf(input, password);
      throw error;
    });
    return c.json(
      validatePdfResponseSchema.parse({ total_pages: inspected.pages, repaired: inspected.repaired }),
    );
  } finally {
    await sink.discard(upload.files);
  }
};

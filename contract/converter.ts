import { z } from "zod";
import { toolIdSchema } from "./api.ts";

/**
 * The converter protocol (Worker → container). A job is `POST /v1/jobs/{toolId}` with a multipart
 * body: a JSON `options` field (already validated by the tool's schema) and the input files as
 * repeated `files` parts, in order. Success: 200, body = output bytes, content type of the output,
 * facts as JSON in the `X-Job-Facts` header. Failure: the error envelope with the code's status.
 */
export const CONVERTER_JOB_PATH = "/v1/jobs";
export const CONVERTER_FACTS_HEADER = "X-Job-Facts";

/** `POST /v1/inspect/pdf` with the PDF as body answers the page count (or the error envelope). */
export const CONVERTER_INSPECT_PDF_PATH = "/v1/inspect/pdf";
export const inspectPdfResponseSchema = z.object({ pages: z.number().int().nonnegative() });

export const CONVERTER_HEALTH_PATH = "/healthz";
export const healthResponseSchema = z.object({
  ok: z.literal(true),
  running: z.number().int(),
  capacity: z.number().int(),
});

export const jobFactsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
export type JobFacts = z.infer<typeof jobFactsSchema>;

export const jobRequestSchema = z.object({ tool: toolIdSchema });

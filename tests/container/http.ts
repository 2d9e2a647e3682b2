/** Helpers to call a running converter the way the Worker does (contract/converter.ts). */
import { expect } from "vitest";
import {
  CONVERTER_FACTS_HEADER,
  CONVERTER_INSPECT_PDF_PATH,
  CONVERTER_JOB_PATH,
  type ErrorBody,
  errorEnvelopeSchema,
  type JobFacts,
  jobFactsSchema,
} from "../../contract/index.ts";

export interface JobFileSpec {
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

export function pdfFile(name: string, bytes: Uint8Array): JobFileSpec {
  return { name, type: "application/pdf", bytes };
}

export function jobForm(options: unknown, files: readonly JobFileSpec[]): FormData {
  const form = new FormData();
  form.append("options", JSON.stringify(options));
  for (const file of files)
    form.append("files", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return form;
}

export function postJob(
  baseUrl: string,
  tool: string,
  options: unknown,
  files: readonly JobFileSpec[],
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}${CONVERTER_JOB_PATH}/${tool}`, {
    method: "POST",
    body: jobForm(options, files),
    headers,
  });
}

export function postInspect(baseUrl: string, bytes: Uint8Array): Promise<Response> {
  return fetch(`${baseUrl}${CONVERTER_INSPECT_PDF_PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/pdf" },
    body: new Uint8Array(bytes),
  });
}

/** A successful job: body bytes and the facts header. */
export async function jobOutput(
  response: Response,
): Promise<{ bytes: Uint8Array; facts: JobFacts; type: string }> {
  expect(response.status).toBe(200);
  const facts = jobFactsSchema.parse(JSON.parse(response.headers.get(CONVERTER_FACTS_HEADER) ?? "null"));
  return {
    bytes: new Uint8Array(await response.arrayBuffer()),
    facts,
    type: response.headers.get("Content-Type") ?? "",
  };
}

/** A failed job: checks the envelope's shape and returns its status and error. */
export async function jobError(
  response: Response,
): Promise<{ status: number; error: ErrorBody; requestId?: string }> {
  expect(response.ok).toBe(false);
  const envelope = errorEnvelopeSchema.parse(await response.json());
  return { status: response.status, error: envelope.error, requestId: envelope.request_id };
}

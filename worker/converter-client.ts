import { getRandom } from "@cloudflare/containers";
import {
  AppError,
  CONVERTER_FACTS_HEADER,
  CONVERTER_INSPECT_PDF_PATH,
  CONVERTER_JOB_PATH,
  errorEnvelopeSchema,
  FILE_KINDS,
  type FileKind,
  inspectPdfResponseSchema,
  type JobFacts,
  jobFactsSchema,
  type ToolId,
} from "../contract/index.ts";
import { CONVERTER_INSTANCES } from "./converter-container.ts";
import type { Env } from "./env.ts";
import { multipartBody } from "./multipart-body.ts";

/** One job input, opened only when the request body reaches it. */
export interface ConverterInput {
  /** The user's file name: merge titles bookmarks with it; the converter never logs it. */
  readonly name: string;
  readonly kind: FileKind;
  readonly size: number;
  open(): Promise<ReadableStream<Uint8Array>>;
}

export interface ConverterOutput {
  readonly body: ReadableStream<Uint8Array>;
  /** From Content-Length; null when the converter streamed without one. */
  readonly size: number | null;
  readonly facts: JobFacts;
}

/** The one way the Worker talks to the converter (contract/converter.ts). */
export interface ConverterClient {
  runJob(tool: ToolId, options: unknown, inputs: readonly ConverterInput[]): Promise<ConverterOutput>;
  /** Page count of a PDF, sent as the raw request body with its Content-Length. */
  inspectPdf(pdf: ConverterInput): Promise<number>;
}

type Transport = (path: string, init: RequestInit) => Promise<Response>;

/** Statuses a proxy or a starting container answers without an envelope: worth retrying. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

async function call(transport: Transport, path: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await transport(path, init);
  } catch {
    throw new AppError("CONVERTER_UNAVAILABLE", "The converter could not be reached");
  }
  if (response.ok) return response;
  const text = await response.text().catch(() => "");
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not an envelope: decided by the status below
  }
  const envelope = errorEnvelopeSchema.safeParse(parsed);
  if (envelope.success) {
    const { code, message, context } = envelope.data.error;
    throw new AppError(code, message, context);
  }
  if (UNREACHABLE_STATUSES.has(response.status)) {
    throw new AppError("CONVERTER_UNAVAILABLE", `The converter answered ${response.status}`);
  }
  throw new Error(`The converter answered ${response.status} without an error envelope`);
}

function parseFacts(header: string | null): JobFacts {
  if (header === null || header === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch {
    throw new Error(`Malformed ${CONVERTER_FACTS_HEADER} header`);
  }
  return jobFactsSchema.parse(value);
}

/** The converter protocol over any transport. */
export function converterClient(transport: Transport): ConverterClient {
  return {
    async runJob(tool, options, inputs) {
      const multipart = multipartBody(
        [["options", JSON.stringify(options)]],
        inputs.map((input, index) => ({
          field: "files",
          filename: input.name || `file-${index + 1}.${FILE_KINDS[input.kind].extensions[0]}`,
          contentType: FILE_KINDS[input.kind].mime,
          size: input.size,
          open: () => input.open(),
        })),
      );
      const response = await call(transport, `${CONVERTER_JOB_PATH}/${tool}`, {
        method: "POST",
        headers: { "Content-Type": multipart.contentType },
        body: multipart.body,
      });
      if (response.body === null) throw new Error("The converter answered without a body");
      const length = Number(response.headers.get("Content-Length") ?? Number.NaN);
      return {
        body: response.body,
        size: Number.isSafeInteger(length) ? length : null,
        facts: parseFacts(response.headers.get(CONVERTER_FACTS_HEADER)),
      };
    },

    async inspectPdf(pdf) {
      const fixed = new FixedLengthStream(pdf.size);
      pdf
        .open()
        .then((stream) => stream.pipeTo(fixed.writable))
        .catch(() => undefined);
      const response = await call(transport, CONVERTER_INSPECT_PDF_PATH, {
        method: "POST",
        headers: { "Content-Type": FILE_KINDS.pdf.mime, "Content-Length": String(pdf.size) },
        body: fixed.readable,
      });
      return inspectPdfResponseSchema.parse(await response.json()).pages;
    },
  };
}

/** Host name used for requests into the container (the container ignores it). */
const CONTAINER_ORIGIN = "http://converter";

/**
 * CONVERTER_URL set (local development, tests): plain fetch to that service. Otherwise the
 * converter container, spread over its instances.
 */
export function createConverterClient(env: Pick<Env, "CONVERTER_URL" | "CONVERTER">): ConverterClient {
  const url = env.CONVERTER_URL;
  if (url) return converterClient((path, init) => fetch(new URL(path, url), init));
  return converterClient(async (path, init) => {
    const container = await getRandom(env.CONVERTER, CONVERTER_INSTANCES);
    return container.fetch(new Request(new URL(path, CONTAINER_ORIGIN), init));
  });
}

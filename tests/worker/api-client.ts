/**
 * Drives the Worker as the browser does: through SELF (the real Worker in workerd), with the CSRF
 * cookie + header pair and a client address of its own (so rate-limit counts stay per client).
 */
import { SELF } from "cloudflare:test";
import {
  API_PATHS,
  CSRF_COOKIE,
  CSRF_HEADER,
  csrfTokenResponseSchema,
  type ErrorEnvelope,
  errorEnvelopeSchema,
  statusPath,
  type TaskStatus,
  type TaskType,
  taskStartResponseSchema,
  taskStatusSchema,
  validatePdfResponseSchema,
} from "../../contract/index.ts";

export const ORIGIN = "https://tools.example";

export interface UploadFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly type?: string;
}

/** A multipart form with `files` under `field` and extra text fields. */
export function form(
  field: string,
  files: readonly UploadFile[],
  fields: Record<string, string> = {},
): FormData {
  const data = new FormData();
  for (const file of files) {
    data.append(field, new File([file.bytes], file.name, { type: file.type ?? "application/octet-stream" }));
  }
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

export async function errorOf(response: Response): Promise<ErrorEnvelope> {
  return errorEnvelopeSchema.parse(await response.json());
}

export class ApiClient {
  readonly ip = `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
  token: string | undefined;

  /** Plain request with this client's address (no CSRF pair). */
  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", this.ip);
    return SELF.fetch(new Request(new URL(path, ORIGIN), { ...init, headers }));
  }

  /** Fetches a CSRF token; the cookie is checked to hold the same token. */
  async csrf(): Promise<string> {
    const response = await this.fetch(API_PATHS.csrfToken, {
      headers: this.token ? { Cookie: `${CSRF_COOKIE}=${this.token}` } : {},
    });
    const { csrf_token } = csrfTokenResponseSchema.parse(await response.json());
    const cookie = response.headers.get("Set-Cookie") ?? "";
    if (!cookie.startsWith(`${CSRF_COOKIE}=${csrf_token};`)) throw new Error(`unexpected cookie ${cookie}`);
    this.token = csrf_token;
    return csrf_token;
  }

  /** A state-changing request carrying the CSRF cookie and header. */
  async send(
    method: string,
    path: string,
    body?: BodyInit,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const token = this.token ?? (await this.csrf());
    return this.fetch(path, {
      method,
      body,
      headers: { Cookie: `${CSRF_COOKIE}=${token}`, [CSRF_HEADER]: token, ...headers },
    });
  }

  /** Starts a task and returns its id (asserting the 202 shape). */
  async start(path: string, body: FormData): Promise<string> {
    const response = await this.send("POST", path, body);
    if (response.status !== 202)
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return taskStartResponseSchema.parse(await response.json()).task_id;
  }

  /** The page count the converter's inspector reads from a PDF (checks outputs independently of a job's facts). */
  async pageCount(pdf: Uint8Array): Promise<number> {
    const response = await this.send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: "x.pdf", bytes: pdf }]),
    );
    if (response.status !== 200)
      throw new Error(`validate-pdf answered ${response.status}: ${await response.text()}`);
    return validatePdfResponseSchema.parse(await response.json()).total_pages;
  }

  /** One status request; with `since` the server answers at the task's next change (or after `wait` s). */
  async status(type: TaskType, taskId: string, since?: number, wait = 20): Promise<TaskStatus> {
    const query = since === undefined ? "" : `?since=${since}&wait=${wait}`;
    const response = await this.fetch(`${statusPath(type, taskId)}${query}`);
    if (response.status !== 200)
      throw new Error(`status answered ${response.status}: ${await response.text()}`);
    return taskStatusSchema.parse(await response.json());
  }

  /** Follows the task change by change (waiting status requests) until it ends; every status seen, in order. */
  async waitForTask(type: TaskType, taskId: string, timeoutMs = 30_000): Promise<TaskStatus[]> {
    const seen: TaskStatus[] = [];
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const status = await this.status(type, taskId, seen.at(-1)?.revision);
      seen.push(status);
      if (status.state === "SUCCESS" || status.state === "FAILURE") return seen;
    }
    throw new Error(`task still ${seen.at(-1)?.state} after ${timeoutMs} ms`);
  }
}

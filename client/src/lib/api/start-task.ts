import { type ToolDeclaration, type ToolId, taskStartResponseSchema } from "../contract";

/** What starting and following a tool's task needs of its declaration (a screen passes its own). */
export interface TaskTool {
  readonly id: ToolId;
  readonly category: ToolDeclaration["category"];
  readonly endpoint: ToolDeclaration["endpoint"];
}

import { ApiError, errorFromResponse, parseJson } from "./api-error";
import { withCsrf } from "./csrf";

export interface StartTaskOptions {
  /** Upload progress, 0–100. */
  onUploadProgress?: (percent: number) => void;
  signal?: AbortSignal;
  /** Files of the tool's extra file fields (its declaration's `input.extraFiles`), by field. */
  extraFiles?: Readonly<Record<string, File>>;
}

function upload(
  path: string,
  body: FormData,
  headers: Record<string, string>,
  options: StartTaskOptions,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        options.onUploadProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(errorFromResponse(xhr.status, xhr.responseText, "errors.unexpected"));
        return;
      }
      const parsed = parseJson(xhr.responseText);
      const start = taskStartResponseSchema.safeParse(parsed);
      if (start.success) resolve(start.data.task_id);
      else reject(new ApiError({ message: "Invalid task start response", status: xhr.status }));
    };
    xhr.onerror = () => reject(new ApiError({ message: "Network error", fallbackKey: "errors.network" }));
    xhr.onabort = () => reject(new DOMException("Upload aborted", "AbortError"));
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new DOMException("Upload aborted", "AbortError"));
        return;
      }
      options.signal.addEventListener("abort", () => xhr.abort(), { once: true });
    }
    options.onUploadProgress?.(0);
    xhr.send(body);
  });
}

/**
 * Starts a task for a tool: a multipart POST to the tool's endpoint with its fixed fields, the given
 * option fields, the files under the tool's file field, in order, and the files of its extra file
 * fields. Resolves with the task id.
 */
export function startTask(
  tool: TaskTool,
  files: readonly File[],
  fields: Readonly<Record<string, string>> = {},
  options: StartTaskOptions = {},
): Promise<string> {
  const { endpoint } = tool;
  const build = () => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...fields, ...endpoint.fields })) form.append(name, value);
    for (const file of files) form.append(endpoint.fileField, file, file.name);
    for (const [field, file] of Object.entries(options.extraFiles ?? {})) form.append(field, file, file.name);
    return form;
  };
  return withCsrf((headers) => upload(endpoint.path, build(), headers, options));
}

import type { Handler } from "hono";
import { z } from "zod";
import {
  API_PATHS,
  csrfTokenResponseSchema,
  deleteTaskResponseSchema,
  downloadPath,
  type ErrorCode,
  errorEnvelopeSchema,
  errorStatus,
  FILE_KINDS,
  statusPath,
  TOOL_ENDPOINTS,
  TOOLS,
  type ToolId,
  taskPath,
  taskStartResponseSchema,
  taskStatusSchema,
  taskTypeSchema,
  validatePdfResponseSchema,
} from "../contract/index.ts";
import type { AppEnv } from "./env.ts";
import { START_PATHS } from "./start-routes.ts";
import { toolsAtPath } from "./tool-resolution.ts";

/**
 * The OpenAPI 3.1 document of the API, generated from the contract's zod schemas (JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is) and the tool declarations.
 */
type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output" = "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  return rest;
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json): Json => ({ "application/json": { schema } });
const binary = { type: "string", format: "binary" };

/** Error responses grouped by status, each listing its codes. */
function errors(codes: readonly ErrorCode[]): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(errorStatus(code), [...(byStatus.get(errorStatus(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: list.join(", "), content: json(ref("ErrorEnvelope")) },
    ]),
  );
}

const GUARDS: readonly ErrorCode[] = ["ORIGIN_FORBIDDEN", "INTERNAL"];
const POST_GUARDS: readonly ErrorCode[] = [...GUARDS, "CSRF_INVALID", "RATE_LIMITED"];
const UPLOAD_ERRORS: readonly ErrorCode[] = [
  "BAD_REQUEST",
  "NO_FILE",
  "TOO_MANY_FILES",
  "FILE_TOO_LARGE",
  "UNSUPPORTED_FILE_TYPE",
  "INVALID_OPTIONS",
];
const JOB_ERRORS: readonly ErrorCode[] = [
  "PDF_ENCRYPTED",
  "PDF_DAMAGED",
  "PDF_NO_PAGES",
  "TOO_MANY_PAGES",
  "IMAGE_DAMAGED",
  "IMAGE_TOO_LARGE",
  "CONVERTER_UNAVAILABLE",
  "JOB_TIMEOUT",
];
const csrfHeader = { name: "X-CSRF-Token", in: "header", required: true, schema: { type: "string" } };
const taskIdParam = { name: "taskId", in: "path", required: true, schema: { type: "string" } };

/** The multipart body of one tool: its files, fixed fields and options (with defaults). */
function toolBody(id: ToolId): Json {
  const tool = TOOLS[id];
  const endpoint = TOOL_ENDPOINTS[id];
  const options = jsonSchema(tool.options, "input");
  const file = {
    ...binary,
    description: `${tool.input.kinds.join(", ")}; at most ${tool.input.maxFileBytes} bytes`,
  };
  const fixed = Object.fromEntries(
    Object.entries(endpoint.fields).map(([name, value]) => [name, { const: value }]),
  );
  return {
    title: id,
    type: "object",
    description: `${tool.available ? "" : "Not available yet (501). "}Total at most ${tool.input.maxTotalBytes} bytes.`,
    properties: {
      ...(options.properties as Json),
      ...fixed,
      [endpoint.fileField]:
        tool.input.maxFiles > 1
          ? { type: "array", items: file, minItems: 1, maxItems: tool.input.maxFiles }
          : file,
    },
    required: [endpoint.fileField, ...Object.keys(fixed)],
  };
}

function startOperation(path: string): Json {
  const tools = toolsAtPath(path);
  const schemas = tools.map(toolBody);
  const blobAlways = path === API_PATHS.compress;
  const blobQuery = path === API_PATHS.pdfConvert;
  const resultContent = Object.fromEntries(
    [...new Set(tools.map((id) => FILE_KINDS[TOOLS[id].output.kind].mime))].map((mime) => [
      mime,
      { schema: binary },
    ]),
  );
  // Blob-style compress takes its options in the query (`?quality=`).
  const queryOptions = blobAlways
    ? [...new Set(tools.flatMap((id) => Object.keys(TOOLS[id].options.shape)))]
    : [];
  return {
    summary: `Start ${tools.join(" / ")}`,
    parameters: [
      csrfHeader,
      ...queryOptions.map((name) => ({ name, in: "query", required: false, schema: { type: "string" } })),
      ...(blobQuery
        ? [
            {
              name: "output_format",
              in: "query",
              required: false,
              description: "Blob style: wait and answer the file",
              schema: { type: "string" },
            },
          ]
        : []),
    ],
    requestBody: {
      required: true,
      content: { "multipart/form-data": { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas } } },
    },
    responses: {
      ...(blobAlways ? {} : { "202": { description: "Task started", content: json(ref("TaskStart")) } }),
      ...(blobAlways || blobQuery
        ? { "200": { description: "The converted file", content: resultContent } }
        : {}),
      ...errors([
        ...POST_GUARDS,
        ...UPLOAD_ERRORS,
        "TOOL_NOT_AVAILABLE",
        ...(blobAlways || blobQuery ? JOB_ERRORS : []),
      ]),
    },
  };
}

function taskPaths(): Json {
  const paths: Json = {};
  for (const type of taskTypeSchema.options) {
    const remove = {
      summary: "Delete the task's files and state now",
      parameters: [taskIdParam, csrfHeader],
      responses: {
        "200": { description: "Deleted", content: json(ref("DeleteTask")) },
        ...errors([...GUARDS, "CSRF_INVALID", "TASK_NOT_FOUND"]),
      },
    };
    paths[statusPath(type, "{taskId}")] = {
      get: {
        summary: `Status of a ${type} task`,
        parameters: [taskIdParam],
        responses: {
          "200": { description: "Task status", content: json(ref("TaskStatus")) },
          ...errors([...GUARDS, "TASK_NOT_FOUND"]),
        },
      },
    };
    paths[downloadPath(type, "{taskId}")] = {
      get: {
        summary: `Download the result of a ${type} task`,
        parameters: [
          taskIdParam,
          { name: "file", in: "query", required: false, schema: { type: "integer", minimum: 0 } },
        ],
        responses: {
          "200": {
            description: "The result file",
            content: { "application/octet-stream": { schema: binary } },
          },
          ...errors([...GUARDS, "BAD_REQUEST", "TASK_NOT_FOUND", "TASK_NOT_READY"]),
        },
      },
      delete: remove,
    };
    paths[taskPath(type, "{taskId}")] = { delete: remove };
  }
  return paths;
}

export function buildOpenApiDocument(): Json {
  const paths: Json = {
    [API_PATHS.csrfToken]: {
      get: {
        summary: "CSRF token (also set as the csrf_token cookie)",
        responses: { "200": { description: "Token", content: json(ref("CsrfToken")) }, ...errors(GUARDS) },
      },
    },
    [API_PATHS.openapi]: {
      get: {
        summary: "This document",
        responses: { "200": { description: "OpenAPI 3.1 document", content: json({ type: "object" }) } },
      },
    },
    [API_PATHS.validatePdf]: {
      post: {
        summary: "Page count of a PDF",
        parameters: [csrfHeader],
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: { type: "object", properties: { file: binary }, required: ["file"] },
            },
          },
        },
        responses: {
          "200": { description: "Page count", content: json(ref("ValidatePdf")) },
          ...errors([...POST_GUARDS, ...UPLOAD_ERRORS, ...JOB_ERRORS]),
        },
      },
    },
    ...Object.fromEntries(START_PATHS.map((path) => [path, { post: startOperation(path) }])),
    ...taskPaths(),
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "PDF and image tools API",
      version: "1.0.0",
      license: { name: "AGPL-3.0-or-later", identifier: "AGPL-3.0-or-later" },
    },
    paths,
    components: {
      schemas: {
        TaskStart: jsonSchema(taskStartResponseSchema),
        TaskStatus: jsonSchema(taskStatusSchema),
        ErrorEnvelope: jsonSchema(errorEnvelopeSchema),
        CsrfToken: jsonSchema(csrfTokenResponseSchema),
        ValidatePdf: jsonSchema(validatePdfResponseSchema),
        DeleteTask: jsonSchema(deleteTaskResponseSchema),
      },
    },
  };
}

let cached: Json | undefined;

export const openApiRoute: Handler<AppEnv> = (c) => {
  cached ??= buildOpenApiDocument();
  return c.json(cached);
};

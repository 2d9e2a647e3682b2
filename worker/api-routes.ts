/**
 * Every API route once: method, path, parameters, bodies and answers (from the contract's zod
 * schemas and the tool declarations) with the handler that serves it. app.ts routes these and
 * the OpenAPI document is generated from the same objects, so the two cannot drift apart.
 */
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Handler, MiddlewareHandler } from "hono";
import { z } from "zod";
import { adminMessagesPageSchema, contactReceiptSchema } from "../contract/contact.ts";
import {
  API_PATHS,
  AppError,
  csrfTokenResponseSchema,
  declarationOf,
  deleteTaskResponseSchema,
  downloadPath,
  downloadQuerySchema,
  type ErrorCode,
  errorEnvelopeSchema,
  errorStatus,
  extraFilesOf,
  FILE_KINDS,
  HEALTH_PATH,
  healthStatusSchema,
  secretOptionNames,
  statusPath,
  statusQuerySchema,
  TOOLS,
  type ToolId,
  taskIdParamsSchema,
  taskPath,
  taskStartResponseSchema,
  taskStatusSchema,
  taskTypeSchema,
  validatePdfResponseSchema,
} from "../contract/index.ts";
import { contactRoutes } from "./contact/contact-routes.ts";
import { csrfTokenRoute } from "./csrf.ts";
import type { AppEnv } from "./env.ts";
import { healthRoute } from "./health-route.ts";
import { startTaskRoute } from "./start-routes.ts";
import { deleteRoute, downloadRoute, statusRoute } from "./task-routes.ts";
import { START_PATHS, toolsAtPath } from "./tool-resolution.ts";
import { validatePdfRoute } from "./validate-pdf-route.ts";

export interface ApiRoute {
  readonly config: RouteConfig;
  readonly handler: Handler<AppEnv>;
}

/** Component schemas the routes refer to by name (`#/components/schemas/<name>`). */
const COMPONENTS = {
  TaskStart: taskStartResponseSchema,
  TaskStatus: taskStatusSchema,
  ErrorEnvelope: errorEnvelopeSchema,
  CsrfToken: csrfTokenResponseSchema,
  ValidatePdf: validatePdfResponseSchema,
  DeleteTask: deleteTaskResponseSchema,
  Health: healthStatusSchema,
  ContactReceipt: contactReceiptSchema,
  AdminMessages: adminMessagesPageSchema,
} as const;
type ComponentName = keyof typeof COMPONENTS;
/** A reference to a component schema. */
type Ref = { readonly $ref: string };

type Json = Record<string, unknown>;
const ref = (name: ComponentName): Ref => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Ref | Json) => ({ "application/json": { schema } });
/** A JSON body or answer, as routes describe it. */
export type JsonContent = ReturnType<typeof json>;
const binary = { type: "string", format: "binary" } as const;

/** Error answers grouped by status, each naming its codes. */
function errorsWith(envelope: Ref, codes: readonly ErrorCode[]): RouteConfig["responses"] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(errorStatus(code), [...(byStatus.get(errorStatus(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: list.join(", "), content: json(envelope) },
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
  "IMAGE_TOO_LARGE",
];
const JOB_ERRORS: readonly ErrorCode[] = [
  "PDF_ENCRYPTED",
  "PDF_WRONG_PASSWORD",
  "PDF_NOT_ENCRYPTED",
  "PDF_DAMAGED",
  "PDF_NO_PAGES",
  "TOO_MANY_PAGES",
  "OUTPUT_TOO_LARGE",
  "PDF_NO_IMAGES",
  "PDF_NO_TEXT",
  "IMAGE_DAMAGED",
  "IMAGE_TOO_LARGE",
  "CONVERTER_UNAVAILABLE",
  "JOB_TIMEOUT",
];
const csrfHeader = z.object({ "X-CSRF-Token": z.string() });
const taskIdParams = taskIdParamsSchema;

/** The multipart body of one tool: its options (with defaults), fixed fields and files. */
function toolBody(id: ToolId): Json {
  const tool = declarationOf(id);
  const { $schema: _, ...options } = z.toJSONSchema(tool.options, { io: "input", unrepresentable: "any" });
  const file = {
    ...binary,
    description: `${tool.input.kinds.join(", ")}; at most ${tool.input.maxFileBytes} bytes`,
  };
  const fixed = Object.fromEntries(
    Object.entries(tool.endpoint.fields).map(([name, value]) => [name, { const: value }]),
  );
  const { fileField } = tool.endpoint;
  const extras = Object.entries(extraFilesOf(tool.input));
  const extraFiles = Object.fromEntries(
    extras.map(([name, extra]) => [
      name,
      {
        ...binary,
        description: `${extra.description} ${extra.kinds.join(", ")}; at most ${extra.maxFileBytes} bytes.`,
      },
    ]),
  );
  return {
    title: id,
    type: "object",
    description: `${tool.available ? "" : "Not available yet (501). "}Total at most ${tool.input.maxTotalBytes} bytes.`,
    properties: {
      ...(options.properties as Json | undefined),
      ...fixed,
      [fileField]:
        tool.input.maxFiles > 1
          ? { type: "array", items: file, minItems: 1, maxItems: tool.input.maxFiles }
          : file,
      ...extraFiles,
    },
    required: [
      fileField,
      ...extras.filter(([, extra]) => extra.required).map(([name]) => name),
      ...Object.keys(fixed),
    ],
  };
}

/**
 * The routes, given the component schemas as registered (registered schemas appear as `$ref`s).
 */
export function apiRoutes(): ApiRoute[] {
  const errors = (codes: readonly ErrorCode[]) => errorsWith(ref("ErrorEnvelope"), codes);

  function startRoute(path: string): ApiRoute {
    const tools = toolsAtPath(path);
    const blobs = tools.map((id) => declarationOf(id).endpoint.blob);
    const alwaysBlob = blobs.every((blob) => blob === "always");
    const queryNames = [
      ...new Set(blobs.flatMap((blob) => (blob !== undefined && blob !== "always" ? [blob.whenQuery] : []))),
      // Blob-style calls may take their options in the query (`?quality=`).
      ...(alwaysBlob
        ? tools.flatMap((id) => {
            const secrets = secretOptionNames(TOOLS[id].options);
            return Object.keys(TOOLS[id].options.shape).filter((name) => !secrets.includes(name));
          })
        : []),
    ];
    const bodies = tools.map(toolBody);
    const fileTypes = [...new Set(tools.map((id) => FILE_KINDS[TOOLS[id].output.kind].mime))];
    return {
      config: {
        method: "post",
        path,
        summary: `Start ${tools.join(" / ")}`,
        request: {
          headers: csrfHeader,
          ...(queryNames.length > 0
            ? { query: z.object(Object.fromEntries(queryNames.map((name) => [name, z.string().optional()]))) }
            : {}),
          body: {
            required: true,
            content: {
              "multipart/form-data": { schema: bodies.length === 1 ? (bodies[0] ?? {}) : { oneOf: bodies } },
            },
          },
        },
        responses: {
          ...(alwaysBlob ? {} : { 202: { description: "Task started", content: json(ref("TaskStart")) } }),
          ...(blobs.some((blob) => blob !== undefined)
            ? {
                200: {
                  description: "The converted file (blob style)",
                  content: Object.fromEntries(fileTypes.map((mime) => [mime, { schema: binary }])),
                },
              }
            : {}),
          ...errors([
            ...POST_GUARDS,
            ...UPLOAD_ERRORS,
            "TOOL_NOT_AVAILABLE",
            ...(blobs.some((blob) => blob !== undefined) ? JOB_ERRORS : []),
          ]),
        },
      },
      handler: startTaskRoute(path),
    };
  }

  function taskRoutes(): ApiRoute[] {
    return taskTypeSchema.options.flatMap((type): ApiRoute[] => {
      const remove: Omit<RouteConfig, "path"> = {
        method: "delete",
        summary: `Delete a ${type} task's files and state now`,
        request: { params: taskIdParams, headers: csrfHeader },
        responses: {
          200: { description: "Deleted", content: json(ref("DeleteTask")) },
          ...errors([...GUARDS, "CSRF_INVALID", "TASK_NOT_FOUND"]),
        },
      };
      return [
        {
          config: {
            method: "get",
            path: statusPath(type, "{taskId}"),
            summary: `Status of a ${type} task; with \`since\`, it waits (up to \`wait\` s) for a change`,
            request: { params: taskIdParams, query: statusQuerySchema },
            responses: {
              200: { description: "Task status", content: json(ref("TaskStatus")) },
              ...errors([...GUARDS, "BAD_REQUEST", "RATE_LIMITED", "TASK_NOT_FOUND"]),
            },
          },
          handler: statusRoute(type),
        },
        {
          config: {
            method: "get",
            path: downloadPath(type, "{taskId}"),
            summary: `Download the result of a ${type} task`,
            request: {
              params: taskIdParams,
              query: downloadQuerySchema,
            },
            responses: {
              200: {
                description: "The result file",
                content: { "application/octet-stream": { schema: binary } },
              },
              ...errors([...GUARDS, "BAD_REQUEST", "TASK_NOT_FOUND", "TASK_NOT_READY"]),
            },
          },
          handler: downloadRoute(type),
        },
        { config: { ...remove, path: downloadPath(type, "{taskId}") }, handler: deleteRoute(type) },
        { config: { ...remove, path: taskPath(type, "{taskId}") }, handler: deleteRoute(type) },
      ];
    });
  }

  return [
    {
      config: {
        method: "get",
        path: API_PATHS.csrfToken,
        summary: "CSRF token (also set as the csrf_token cookie)",
        responses: { 200: { description: "Token", content: json(ref("CsrfToken")) }, ...errors(GUARDS) },
      },
      handler: csrfTokenRoute,
    },
    {
      config: {
        method: "get",
        path: HEALTH_PATH,
        summary: "Health of the site and its converter",
        responses: {
          200: { description: "Up", content: json(ref("Health")) },
          503: { description: "The converter does not answer", content: json(ref("Health")) },
        },
      },
      handler: healthRoute,
    },
    {
      config: {
        method: "post",
        path: API_PATHS.validatePdf,
        summary: "Page count of a PDF",
        request: {
          headers: csrfHeader,
          body: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  properties: {
                    file: binary,
                    password: { type: "string", format: "password", writeOnly: true },
                  },
                  required: ["file"],
                },
              },
            },
          },
        },
        responses: {
          200: { description: "Page count", content: json(ref("ValidatePdf")) },
          ...errors([...POST_GUARDS, ...UPLOAD_ERRORS, ...JOB_ERRORS]),
        },
      },
      handler: validatePdfRoute,
    },
    ...START_PATHS.map(startRoute),
    ...taskRoutes(),
    ...contactRoutes({ errors, json: (name) => json(ref(name)), postGuards: POST_GUARDS }),
  ];
}

/** The component schemas as JSON Schema 2020-12 (which OpenAPI 3.1 uses as it is). */
export function componentSchemas(): Record<ComponentName, Json> {
  const entries = Object.entries(COMPONENTS).map(([name, schema]) => {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" });
    return [name, rest];
  });
  return Object.fromEntries(entries) as Record<ComponentName, Json>;
}

/**
 * Refuses, as BAD_REQUEST, a request whose path parameters or query the route's documented schemas
 * (`config.request.params`, `.query`) do not accept, before its handler runs: what the OpenAPI
 * document shows is what is served. Handlers read the values with the same schema objects.
 */
export function documentedParameters(config: RouteConfig): MiddlewareHandler<AppEnv> {
  const { params, query } = config.request ?? {};
  return async (c, next) => {
    for (const [schema, values, where] of [
      [params, c.req.param(), "path parameters"],
      [query, c.req.query(), "query"],
    ] as const) {
      const result = schema?.safeParse(values);
      if (result !== undefined && !result.success) {
        const fields = [...new Set(result.error.issues.map((issue) => String(issue.path[0] ?? "")))];
        throw new AppError("BAD_REQUEST", `Invalid ${where}: ${fields.join(", ")}`, {
          fields: fields.join(","),
        });
      }
    }
    await next();
  };
}

/** Routes every API route on `app` and records it for the OpenAPI document. */
export function registerApiRoutes(app: OpenAPIHono<AppEnv>): void {
  for (const { config, handler } of apiRoutes()) {
    app.openAPIRegistry.registerPath(config);
    app.on(
      config.method.toUpperCase(),
      config.path.replaceAll(/\{(\w+)\}/g, ":$1"),
      documentedParameters(config),
      handler,
    );
  }
}

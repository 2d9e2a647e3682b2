import type { RouteConfig } from "@hono/zod-openapi";
import type { Context, Handler } from "hono";
import { z } from "zod";
import {
  adminMessageParamsSchema,
  adminMessagesPageSchema,
  adminMessagesQuerySchema,
  CONTACT_PATHS,
  contactProblems,
  contactReceiptSchema,
  contactSubmissionSchema,
} from "../../contract/contact.ts";
import { AppError, deleteTaskResponseSchema, type ErrorCode } from "../../contract/index.ts";
import type { ApiRoute, JsonContent } from "../api-routes.ts";
import type { AppEnv } from "../env.ts";
import { clientKey } from "../rate-limit.ts";
import { requireAdmin } from "./admin-auth.ts";
import { inboxStub } from "./contact-inbox.ts";

/** Largest accepted body: 5000 characters of Tamil or Hindi text are about 15 KB of UTF-8. */
export const MAX_CONTACT_BODY_BYTES = 64 * 1024;

/** Reads the JSON body, refusing more than MAX_CONTACT_BODY_BYTES (declared or streamed). */
async function readJson(request: Request): Promise<unknown> {
  const refused = () => new AppError("BAD_REQUEST", "The contact message body is too large or not JSON");
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_CONTACT_BODY_BYTES) throw refused();
  if (!/^application\/json\b/i.test(request.headers.get("Content-Type") ?? "")) throw refused();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_CONTACT_BODY_BYTES) throw refused();
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw refused();
  }
}

/** Counts one message for the calling client (`CONTACT_RATE_LIMIT`, wrangler.toml). */
async function countContactMessage(c: Context<AppEnv>): Promise<void> {
  const { success } = await c.env.CONTACT_RATE_LIMIT.limit({ key: clientKey(c) });
  if (!success) throw new AppError("RATE_LIMITED", "Too many contact messages; try again in a minute");
}

/**
 * POST contact: counts the attempt against the client's limit, validates the message with the
 * shared schema (the first refused field and why go back in the error's context), refuses a filled
 * honeypot, and answers 201 once the inbox has stored it. Neither the text nor the address is logged.
 */
const submitContact: Handler<AppEnv> = async (c) => {
  await countContactMessage(c);
  const parsed = contactSubmissionSchema.safeParse(await readJson(c.req.raw));
  if (!parsed.success) {
    const [first] = contactProblems(parsed.error);
    if (first === undefined) throw new AppError("BAD_REQUEST", "The contact message is not valid");
    throw new AppError("BAD_REQUEST", `Contact field ${first.field} refused: ${first.problem}`, {
      field: first.field,
      problem: first.problem,
      ...(first.max === undefined ? {} : { max: first.max }),
    });
  }
  if (parsed.data.website !== "") throw new AppError("BAD_REQUEST", "The contact message was refused");
  const receipt = await inboxStub(c.env).store(parsed.data);
  return c.json(contactReceiptSchema.parse(receipt), 201);
};

const listMessages: Handler<AppEnv> = async (c) => {
  await requireAdmin(c);
  const query = adminMessagesQuerySchema.safeParse(c.req.query());
  if (!query.success) throw new AppError("BAD_REQUEST", "limit must be 1–100 and before a message id");
  return c.json(adminMessagesPageSchema.parse(await inboxStub(c.env).list(query.data)));
};

const deleteMessage: Handler<AppEnv> = async (c) => {
  await requireAdmin(c);
  const params = adminMessageParamsSchema.safeParse(c.req.param());
  if (!params.success || !(await inboxStub(c.env).remove(params.data.id)))
    throw new AppError("NOT_FOUND", "No message has this id");
  return c.json(deleteTaskResponseSchema.parse({ deleted: true }));
};

/** What the route list of api-routes.ts lends: error answers and references to its component schemas. */
export interface RouteKit {
  errors(codes: readonly ErrorCode[]): RouteConfig["responses"];
  json(name: "ContactReceipt" | "AdminMessages" | "DeleteTask"): JsonContent;
  postGuards: readonly ErrorCode[];
}

/** The request body as a sender writes it (topic, language and honeypot may be left out). */
function submissionBody(): JsonContent {
  const { $schema: _, ...schema } = z.toJSONSchema(contactSubmissionSchema, { io: "input" });
  return { "application/json": { schema } };
}

const bearer = z.object({ Authorization: z.string().describe("Bearer <ADMIN_TOKEN>") });
const ADMIN_ERRORS: readonly ErrorCode[] = ["UNAUTHORIZED", "NOT_FOUND", "INTERNAL"];

/** The contact form's route and the operator's admin routes. */
export function contactRoutes({ errors, json, postGuards }: RouteKit): ApiRoute[] {
  return [
    {
      config: {
        method: "post",
        path: CONTACT_PATHS.submit,
        summary: "Send a contact message (stored; forwarded by email when configured)",
        request: {
          headers: z.object({ "X-CSRF-Token": z.string() }),
          body: { required: true, content: submissionBody() },
        },
        responses: {
          201: { description: "Stored", content: json("ContactReceipt") },
          ...errors([...postGuards, "BAD_REQUEST"]),
        },
      },
      handler: submitContact,
    },
    {
      config: {
        method: "get",
        path: CONTACT_PATHS.adminMessages,
        summary: "Admin: stored contact messages, newest first, paged with `before`",
        request: { headers: bearer, query: adminMessagesQuerySchema },
        responses: {
          200: { description: "One page", content: json("AdminMessages") },
          ...errors([...ADMIN_ERRORS, "BAD_REQUEST"]),
        },
      },
      handler: listMessages,
    },
    {
      config: {
        method: "delete",
        path: `${CONTACT_PATHS.adminMessages}/{id}`,
        summary: "Admin: delete one stored contact message",
        request: { headers: bearer, params: z.object({ id: z.string() }) },
        responses: {
          200: { description: "Deleted", content: json("DeleteTask") },
          ...errors(ADMIN_ERRORS),
        },
      },
      handler: deleteMessage,
    },
  ];
}

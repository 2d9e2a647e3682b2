import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  ADMIN_PAGE_SIZE,
  adminMessagePath,
  adminMessagesPageSchema,
  CONTACT_LIMITS,
  CONTACT_PATHS,
  type ContactSubmission,
  contactReceiptSchema,
  contactSubmissionSchema,
} from "../../contract/contact.ts";
import { app } from "../../worker/app.ts";
import { type ContactInbox, inboxStub } from "../../worker/contact/contact-inbox.ts";
import { ApiClient, errorOf, ORIGIN } from "./api-client.ts";

const VALID: ContactSubmission = {
  name: "Asha Rao",
  email: "asha@example.org",
  topic: "support",
  message: "The merge tool works well, thank you.",
  language: "hi",
};
/** VALID as the Worker passes it to the inbox. */
const PARSED = contactSubmissionSchema.parse(VALID);

/** POSTs a contact message as the page does (JSON, CSRF pair), from `client` (a fresh address by default). */
function submit(body: unknown, client = new ApiClient()): Promise<Response> {
  return client.send("POST", CONTACT_PATHS.submit, JSON.stringify(body), {
    "Content-Type": "application/json",
  });
}

type Row = Record<string, string | number | null>;

/** The inbox's stored row for `id`, read straight from the Durable Object's SQLite storage. */
function storedRow(id: number): Promise<Row | undefined> {
  return runInDurableObject(
    inboxStub(env),
    (_instance: ContactInbox, state) =>
      state.storage.sql.exec<Row>("SELECT * FROM messages WHERE id = ?", id).toArray()[0],
  );
}

function rowCount(): Promise<number> {
  return runInDurableObject(
    inboxStub(env),
    (_instance: ContactInbox, state) =>
      state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM messages").one().n,
  );
}

async function storedId(response: Response): Promise<number> {
  expect(response.status, await response.clone().text()).toBe(201);
  return contactReceiptSchema.parse(await response.json()).id;
}

describe("POST /api/contact", () => {
  it("stores a valid message in the inbox (trimmed) and answers its number", async () => {
    const response = await submit({ ...VALID, name: "  Asha Rao  ", message: `\n${VALID.message}  ` });
    const id = await storedId(response);
    const row = await storedRow(id);
    expect(row).toMatchObject({
      id,
      name: "Asha Rao",
      email: "asha@example.org",
      topic: "support",
      message: VALID.message,
      language: "hi",
      forward_state: "off",
    });
    expect(Math.abs(Number(row?.received_at) - Date.now())).toBeLessThan(60_000);
  });

  it("accepts a message without a topic, and text in any script up to the limits", async () => {
    const tamil = "த".repeat(CONTACT_LIMITS.message);
    const id = await storedId(
      await submit({ name: "அ".repeat(CONTACT_LIMITS.name), email: "a@b", topic: "", message: tamil }),
    );
    expect(await storedRow(id)).toMatchObject({ topic: "", message: tamil, language: null });
  });

  const refusals: [string, Record<string, unknown>, Record<string, string | number>][] = [
    ["a missing name", { name: undefined }, { field: "name", problem: "required" }],
    ["a blank name", { name: "   " }, { field: "name", problem: "required" }],
    [
      "a name over the limit",
      { name: "n".repeat(CONTACT_LIMITS.name + 1) },
      { field: "name", problem: "tooLong", max: CONTACT_LIMITS.name },
    ],
    ["a missing email", { email: "" }, { field: "email", problem: "required" }],
    ["an email without @", { email: "asha.example.org" }, { field: "email", problem: "invalid" }],
    ["an email with a space", { email: "asha rao@example.org" }, { field: "email", problem: "invalid" }],
    [
      "an email over the limit",
      { email: `${"a".repeat(CONTACT_LIMITS.email)}@example.org` },
      { field: "email", problem: "tooLong", max: CONTACT_LIMITS.email },
    ],
    ["an unknown topic", { topic: "sales" }, { field: "topic", problem: "invalid" }],
    ["a blank message", { message: " \n\t " }, { field: "message", problem: "required" }],
    [
      "a message over the limit",
      { message: "m".repeat(CONTACT_LIMITS.message + 1) },
      { field: "message", problem: "tooLong", max: CONTACT_LIMITS.message },
    ],
  ];
  it.each(refusals)(
    "refuses %s with 400, naming the field and the problem, and stores nothing",
    async (_, change, context) => {
      const before = await rowCount();
      const response = await submit({ ...VALID, ...change });
      expect(response.status).toBe(400);
      const { error } = await errorOf(response);
      expect(error.code).toBe("BAD_REQUEST");
      expect(error.context).toEqual(context);
      // The refusal names no part of what was sent.
      expect(error.message).not.toContain("asha");
      expect(await rowCount()).toBe(before);
    },
  );

  it("refuses a body that is not JSON, has another type, or is too large", async () => {
    const client = new ApiClient();
    const before = await rowCount();
    const notJson = await client.send("POST", CONTACT_PATHS.submit, "name=x", {
      "Content-Type": "application/json",
    });
    expect(notJson.status).toBe(400);
    const form = new FormData();
    for (const [key, value] of Object.entries(VALID)) form.append(key, value);
    expect((await new ApiClient().send("POST", CONTACT_PATHS.submit, form)).status).toBe(400);
    const huge = await submit({ ...VALID, message: "x".repeat(70 * 1024) });
    expect(huge.status).toBe(400);
    expect(await rowCount()).toBe(before);
  });

  it("refuses a filled honeypot field and stores nothing", async () => {
    const before = await rowCount();
    const response = await submit({ ...VALID, website: "https://spam.example" });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe("BAD_REQUEST");
    expect(await rowCount()).toBe(before);
    // Empty, it is what every real form sends.
    await storedId(await submit({ ...VALID, website: "" }));
  });

  it("is documented in the OpenAPI document with the fields a sender must fill in", async () => {
    const doc = (await (await new ApiClient().fetch("/api/openapi.json")).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { required: string[] } }> } }>
      >;
    };
    const body = doc.paths[CONTACT_PATHS.submit]?.post?.requestBody?.content["application/json"]?.schema;
    expect(body?.required.sort()).toEqual(["email", "message", "name"]);
  });

  it("needs the CSRF pair like every state-changing call", async () => {
    const response = await new ApiClient().fetch(CONTACT_PATHS.submit, {
      method: "POST",
      body: JSON.stringify(VALID),
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).error.code).toBe("CSRF_INVALID");
  });

  it("limits messages per client: the sixth within a minute answers 429 with Retry-After", async () => {
    const client = new ApiClient();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await submit(VALID, client)).status);
    expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    const refused = await submit(VALID, client);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await errorOf(refused)).error.code).toBe("RATE_LIMITED");
    // Another client is not affected.
    expect((await submit(VALID)).status).toBe(201);
  });
});

const TOKEN = "admin-token-for-tests-0123456789abcdef";

/** A request to the app with ADMIN_TOKEN set (the test Worker itself runs without it). */
function admin(path: string, init: RequestInit = {}, token: string | undefined = TOKEN): Promise<Response> {
  return Promise.resolve(app.request(new URL(path, ORIGIN).href, init, { ...env, ADMIN_TOKEN: token }));
}
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe("admin routes", () => {
  it("do not exist while ADMIN_TOKEN is unset (404), even with a token", async () => {
    const client = new ApiClient();
    for (const response of [
      await client.fetch(CONTACT_PATHS.adminMessages, { headers: bearer(TOKEN) }),
      await client.fetch(adminMessagePath(1), { method: "DELETE", headers: bearer(TOKEN) }),
      await admin(CONTACT_PATHS.adminMessages, { headers: bearer("") }, ""),
    ]) {
      expect(response.status).toBe(404);
      expect((await errorOf(response)).error.code).toBe("NOT_FOUND");
    }
  });

  it("answer 401 with WWW-Authenticate without the right bearer token", async () => {
    const id = await storedId(await submit(VALID));
    for (const [i, wrong] of [
      {},
      bearer(`${TOKEN}x`),
      bearer(TOKEN.slice(0, -1)),
      { Authorization: TOKEN },
      { Authorization: `Basic ${btoa(`admin:${TOKEN}`)}` },
    ].entries()) {
      // One client per attempt: wrong tokens are throttled per client (next test).
      const headers = { ...wrong, "CF-Connecting-IP": `198.51.100.${i + 1}` };
      const list = await admin(CONTACT_PATHS.adminMessages, { headers });
      expect(list.status).toBe(401);
      expect(list.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      expect((await errorOf(list)).error.code).toBe("UNAUTHORIZED");
      const remove = await admin(adminMessagePath(id), { method: "DELETE", headers });
      expect(remove.status).toBe(401);
    }
    expect(await storedRow(id)).toBeDefined();
  });

  it("throttle a client after 5 wrong tokens a minute: 429 with Retry-After, even for the right token", async () => {
    const client = { "CF-Connecting-IP": "203.0.113.77" };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const response = await admin(CONTACT_PATHS.adminMessages, {
        headers: { ...bearer(`guess-${i}`), ...client },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(6)).toEqual([429, 429, 429, 429, 429, 429]);
    const right = await admin(CONTACT_PATHS.adminMessages, { headers: { ...bearer(TOKEN), ...client } });
    expect(right.status).toBe(429);
    expect(right.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await errorOf(right)).error.code).toBe("RATE_LIMITED");
    // Another client with the right token is served.
    const other = await admin(CONTACT_PATHS.adminMessages, {
      headers: { ...bearer(TOKEN), "CF-Connecting-IP": "203.0.113.78" },
    });
    expect(other.status).toBe(200);
  });

  it("list messages newest first, page by page", async () => {
    const ids: number[] = [];
    for (const name of ["first", "second", "third"])
      ids.push(await storedId(await submit({ ...VALID, name })));
    const first = await admin(`${CONTACT_PATHS.adminMessages}?limit=2`, { headers: bearer(TOKEN) });
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe("no-store");
    const page1 = adminMessagesPageSchema.parse(await first.json());
    expect(page1.messages.map((m) => m.id)).toEqual([ids[2], ids[1]]);
    expect(page1.messages[0]).toMatchObject({
      name: "third",
      email: VALID.email,
      topic: "support",
      forward: "off",
    });
    expect(page1.total).toBe(await rowCount());
    expect(page1.next_before).toBe(ids[1]);
    const page2 = adminMessagesPageSchema.parse(
      await (
        await admin(`${CONTACT_PATHS.adminMessages}?limit=2&before=${page1.next_before}`, {
          headers: bearer(TOKEN),
        })
      ).json(),
    );
    expect(page2.messages[0]?.id).toBe(ids[0]);
    expect(page2.messages[0]?.name).toBe("first");
    // The default page size, and the last page has no next one.
    const all = adminMessagesPageSchema.parse(
      await (await admin(CONTACT_PATHS.adminMessages, { headers: bearer(TOKEN) })).json(),
    );
    expect(all.messages.length).toBe(Math.min(all.total, ADMIN_PAGE_SIZE.default));
    const last = adminMessagesPageSchema.parse(
      await (
        await admin(`${CONTACT_PATHS.adminMessages}?before=${Math.min(...ids)}&limit=100`, {
          headers: bearer(TOKEN),
        })
      ).json(),
    );
    expect(last.next_before).toBeNull();
    expect(
      (await admin(`${CONTACT_PATHS.adminMessages}?limit=1000`, { headers: bearer(TOKEN) })).status,
    ).toBe(400);
  });

  it("delete one message (no CSRF token needed), then 404 for it", async () => {
    const keep = await storedId(await submit({ ...VALID, name: "keep" }));
    const drop = await storedId(await submit({ ...VALID, name: "drop" }));
    const removed = await admin(adminMessagePath(drop), { method: "DELETE", headers: bearer(TOKEN) });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ deleted: true });
    expect(await storedRow(drop)).toBeUndefined();
    expect(await storedRow(keep)).toMatchObject({ name: "keep" });
    const again = await admin(adminMessagePath(drop), { method: "DELETE", headers: bearer(TOKEN) });
    expect(again.status).toBe(404);
    expect((await errorOf(again)).error.code).toBe("NOT_FOUND");
    expect((await admin(adminMessagePath("abc"), { method: "DELETE", headers: bearer(TOKEN) })).status).toBe(
      404,
    );
  });
});

describe("email forwarding", () => {
  interface Sent {
    from: string;
    to: string;
    subject: string;
    text: string;
    replyTo: { email: string };
  }

  /** Runs `body` in the inbox with forwarding to a mailer that records (or fails) each send. */
  function withMailer<T>(
    fail: boolean,
    body: (inbox: ContactInbox, sent: Sent[], state: DurableObjectState) => Promise<T>,
  ): Promise<T> {
    return runInDurableObject(inboxStub(env), async (inbox: ContactInbox, state) => {
      const sent: Sent[] = [];
      inbox.forwarding = {
        from: "contact@tools.example",
        to: "owner@example.net",
        mailer: {
          send: async (message) => {
            if (fail) throw new Error("mail service down");
            sent.push(message as unknown as Sent);
            return { messageId: `m${sent.length}` };
          },
        },
      };
      inbox.retry = { baseMs: 0, maxAttempts: 3 };
      try {
        return await body(inbox, sent, state);
      } finally {
        inbox.forwarding = null;
      }
    });
  }

  it("forwards a stored message from the alarm, with the sender as Reply-To", async () => {
    await withMailer(false, async (inbox, sent, state) => {
      const { id } = await inbox.store({ ...PARSED, topic: "billing" });
      expect(await state.storage.getAlarm()).not.toBeNull();
      await inbox.alarm();
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ from: "contact@tools.example", to: "owner@example.net" });
      expect(sent[0]?.replyTo.email).toBe(VALID.email);
      expect(sent[0]?.subject).toContain(`#${id}`);
      expect(sent[0]?.subject).toContain("billing");
      expect(sent[0]?.text).toContain(VALID.message);
      expect(inbox.list({ limit: 1 }).messages[0]).toMatchObject({ id, forward: "sent" });
      // Sent once only.
      await inbox.alarm();
      expect(sent).toHaveLength(1);
    });
  });

  it("keeps the message when forwarding fails, retries, and marks it failed after the last attempt", async () => {
    await withMailer(true, async (inbox, _sent, state) => {
      const { id } = await inbox.store(PARSED);
      await inbox.alarm();
      expect(inbox.list({ limit: 1 }).messages[0]).toMatchObject({ id, forward: "pending" });
      expect(await state.storage.getAlarm()).not.toBeNull();
      await inbox.alarm();
      await inbox.alarm();
      const [message] = inbox.list({ limit: 1 }).messages;
      expect(message).toMatchObject({ id, forward: "failed", message: VALID.message, email: VALID.email });
    });
  });

  it("puts no line break of a name into the subject", async () => {
    await withMailer(false, async (inbox, sent) => {
      await inbox.store({ ...PARSED, name: "Eve\r\nBcc: victim@example.com" });
      await inbox.alarm();
      expect(sent[0]?.subject).not.toMatch(/[\r\n]/);
      expect(sent[0]?.subject).toContain("Eve Bcc: victim@example.com");
    });
  });
});

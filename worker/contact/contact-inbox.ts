import { DurableObject } from "cloudflare:workers";
import type {
  AdminMessagesPage,
  AdminMessagesQuery,
  ContactMessageInput,
  ContactReceipt,
  ForwardState,
  StoredContactMessage,
} from "../../contract/contact.ts";
import type { Env } from "../env.ts";
import { type Forwarding, forwardedEmail, forwardingFrom } from "./forwarding.ts";

/**
 * How a failed email forward is retried: attempt n+1 waits `baseMs × 2^n`; after `maxAttempts`
 * the message is marked `failed` (it stays stored either way). A property so tests can shorten it.
 */
export interface ForwardRetry {
  readonly baseMs: number;
  readonly maxAttempts: number;
}
export const FORWARD_RETRY: ForwardRetry = { baseMs: 60_000, maxAttempts: 6 };

/** The single inbox every message goes to. */
const INBOX_NAME = "inbox";

export function inboxStub(env: Env): DurableObjectStub<ContactInbox> {
  return env.CONTACT_INBOX.get(env.CONTACT_INBOX.idFromName(INBOX_NAME));
}

type MessageRow = {
  id: number;
  received_at: number;
  name: string;
  email: string;
  topic: string;
  message: string;
  language: string | null;
  forward_state: string;
  forward_attempts: number;
  forward_after: number;
};

const COLUMNS = "id, received_at, name, email, topic, message, language, forward_state";

function toStored(row: Omit<MessageRow, "forward_attempts" | "forward_after">): StoredContactMessage {
  return {
    id: row.id,
    received_at: new Date(row.received_at).toISOString(),
    name: row.name,
    email: row.email,
    topic: row.topic,
    message: row.message,
    language: row.language,
    forward: row.forward_state as ForwardState,
  };
}

/**
 * The contact messages, in this object's SQLite storage: stores each message, pages through them
 * and deletes one for the admin endpoint, and forwards each by email from an alarm when forwarding
 * is configured, so a failing mail service never costs a stored message nor slows the sender down.
 * Logs name message ids only, never a name, address or text.
 */
export class ContactInbox extends DurableObject<Env> {
  /** Email forwarding as configured (null: off); a property so a test can pass its own mailer. */
  forwarding: Forwarding | null;
  retry: ForwardRetry = FORWARD_RETRY;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.forwarding = forwardingFrom(env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      received_at INTEGER NOT NULL,
      name TEXT NOT NULL,
      email TEXT NOT NULL,
      topic TEXT NOT NULL,
      message TEXT NOT NULL,
      language TEXT,
      forward_state TEXT NOT NULL,
      forward_attempts INTEGER NOT NULL DEFAULT 0,
      forward_after INTEGER NOT NULL DEFAULT 0
    )`);
  }

  /** Stores a validated message and answers its number once it is durably written. */
  async store(input: ContactMessageInput): Promise<ContactReceipt> {
    const now = Date.now();
    const state: ForwardState = this.forwarding === null ? "off" : "pending";
    const { id } = this.ctx.storage.sql
      .exec<{ id: number }>(
        `INSERT INTO messages (received_at, name, email, topic, message, language, forward_state, forward_after)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        now,
        input.name,
        input.email,
        input.topic,
        input.message,
        input.language ?? null,
        state,
        now,
      )
      .one();
    if (state === "pending") await this.#armAlarm(now);
    return { id, received_at: new Date(now).toISOString() };
  }

  /** One page of messages, newest first, older than `before` when given. */
  list(query: AdminMessagesQuery): AdminMessagesPage {
    const sql = this.ctx.storage.sql;
    const rows = sql
      .exec<MessageRow>(
        `SELECT ${COLUMNS} FROM messages WHERE id < ? ORDER BY id DESC LIMIT ?`,
        query.before ?? Number.MAX_SAFE_INTEGER,
        query.limit + 1,
      )
      .toArray();
    const page = rows.slice(0, query.limit);
    const { total } = sql.exec<{ total: number }>("SELECT COUNT(*) AS total FROM messages").one();
    return {
      messages: page.map(toStored),
      next_before: rows.length > query.limit ? (page.at(-1)?.id ?? null) : null,
      total,
    };
  }

  /** Deletes one message; false when no message has that number. */
  remove(id: number): boolean {
    return this.ctx.storage.sql.exec("DELETE FROM messages WHERE id = ?", id).rowsWritten > 0;
  }

  /** Forwards every message whose turn has come, then waits for the next retry, if any. */
  override async alarm(): Promise<void> {
    const forwarding = this.forwarding;
    if (forwarding === null) return;
    const sql = this.ctx.storage.sql;
    const due = sql
      .exec<MessageRow>(
        "SELECT * FROM messages WHERE forward_state = 'pending' AND forward_after <= ? ORDER BY id",
        Date.now(),
      )
      .toArray();
    for (const row of due) {
      try {
        await forwarding.mailer.send(forwardedEmail(forwarding, toStored(row)));
        sql.exec("UPDATE messages SET forward_state = 'sent' WHERE id = ?", row.id);
      } catch (error) {
        const attempts = row.forward_attempts + 1;
        const failed = attempts >= this.retry.maxAttempts;
        console.error(
          JSON.stringify({
            level: "error",
            what: "contact forward failed",
            message_id: row.id,
            attempt: attempts,
            gave_up: failed,
            error: error instanceof Error ? error.name : typeof error,
          }),
        );
        sql.exec(
          "UPDATE messages SET forward_state = ?, forward_attempts = ?, forward_after = ? WHERE id = ?",
          failed ? "failed" : "pending",
          attempts,
          Date.now() + this.retry.baseMs * 2 ** (attempts - 1),
          row.id,
        );
      }
    }
    const next = sql
      .exec<{ at: number | null }>(
        "SELECT MIN(forward_after) AS at FROM messages WHERE forward_state = 'pending'",
      )
      .one().at;
    if (next !== null) await this.#armAlarm(next);
  }

  /** Sets the alarm to `at` unless one is already due sooner. */
  async #armAlarm(at: number): Promise<void> {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > at) await this.ctx.storage.setAlarm(at);
  }
}

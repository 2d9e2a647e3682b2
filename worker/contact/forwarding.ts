import type { StoredContactMessage } from "../../contract/contact.ts";
import type { Env } from "../env.ts";

/** Where a copy of each message goes by email, when the operator configured it. */
export interface Forwarding {
  /** The `send_email` binding (a test passes its own). */
  readonly mailer: Pick<SendEmail, "send">;
  /** Sender address on a domain with Cloudflare Email Routing. */
  readonly from: string;
  /** A verified destination address of that account. */
  readonly to: string;
}

/** Forwarding as configured: the binding and both addresses, or null (then nothing is sent). */
export function forwardingFrom(env: Env): Forwarding | null {
  const from = env.CONTACT_FORWARD_FROM?.trim();
  const to = env.CONTACT_FORWARD_TO?.trim();
  if (env.CONTACT_EMAIL === undefined || !from || !to) return null;
  return { mailer: env.CONTACT_EMAIL, from, to };
}

/** Line breaks and other control characters cannot enter a header through a name. */
const oneLine = (value: string) => value.replaceAll(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ").trim();

/**
 * The email for one stored message: plain text, the sender as Reply-To so the operator answers
 * them directly, the message number in the subject to find it with the admin endpoint.
 */
export function forwardedEmail(
  forwarding: Forwarding,
  message: StoredContactMessage,
): Parameters<SendEmail["send"]>[0] {
  const topic = message.topic === "" ? "no topic" : message.topic;
  return {
    from: forwarding.from,
    to: forwarding.to,
    replyTo: { name: oneLine(message.name), email: message.email },
    subject: `Contact #${message.id} (${topic}) from ${oneLine(message.name)}`,
    text: [
      `From: ${message.name} <${message.email}>`,
      `Topic: ${topic}`,
      `Language: ${message.language ?? "unknown"}`,
      `Received: ${message.received_at}`,
      "",
      message.message,
    ].join("\n"),
  };
}

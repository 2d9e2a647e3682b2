/**
 * When the Worker answers before reading a whole request body, the HTTP layer in front of it
 * (workerd, wrangler dev's proxy) drops the connection once a little of the rest is unread: measured
 * on `wrangler dev`, a merge refused with 415 while 80 MB were still to come reached the client as
 * ECONNRESET instead of the envelope, and the next request on that keep-alive connection got a 500
 * "Network connection lost". Reading and discarding the rest before answering avoids both; it costs
 * no memory, only the time the client takes to send it.
 *
 * Bounds: a body whose Content-Length is larger than any upload accepts is refused from that header
 * and left alone (reading part of it would not save the connection), so a declared body is drained
 * to its end; a body of unknown length (chunked) is drained up to `UNKNOWN_LENGTH_DRAIN_BYTES` and
 * then cancelled, so a refusal still comes long before the end of an endless body.
 */
import { type ByteReader, byteReader } from "../../contract/index.ts";

export const MAX_DRAIN_BYTES = 128 * 1024 * 1024;
export const UNKNOWN_LENGTH_DRAIN_BYTES = 16 * 1024 * 1024;

/** How many bytes of `request`'s body to drain after a refusal. */
export function drainBound(request: Request): number {
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  return Number.isFinite(declared) ? declared : UNKNOWN_LENGTH_DRAIN_BYTES;
}

export const MAX_DRAIN_MS = 30_000;
/**
 * A client that sends nothing for this long is not sending the rest: the refusal goes out then
 * (a stalled body declared at 120 MB got its 413 only after MAX_DRAIN_MS). A client still sending
 * has its bytes arrive within milliseconds of each other.
 */
export const DRAIN_IDLE_MS = 1000;

const TIMED_OUT = Symbol("timed out");

/**
 * Reads and discards from `reader` until its end, `maxBytes`, `MAX_DRAIN_MS` in all or
 * `DRAIN_IDLE_MS` without a byte; true when the end was reached. Otherwise the stream is cancelled.
 */
export async function drainReader(reader: ByteReader, maxBytes: number): Promise<boolean> {
  const deadline = Date.now() + MAX_DRAIN_MS;
  let drained = 0;
  try {
    while (drained <= maxBytes) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), Math.min(DRAIN_IDLE_MS, deadline - Date.now()));
      });
      const result = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer));
      if (result === TIMED_OUT) break;
      if (result === null) return true;
      drained += result.byteLength;
      if (Date.now() >= deadline) break;
    }
    await reader.cancel().catch(() => undefined);
    return false;
  } catch {
    return false;
  }
}

/** Drains a request body nobody has read yet; one declared larger than MAX_DRAIN_BYTES is left alone. */
export async function drainRequestBody(request: Request): Promise<boolean> {
  if (request.body === null) return true;
  if (request.bodyUsed || request.body.locked) return false;
  const bound = drainBound(request);
  if (bound > MAX_DRAIN_BYTES) return false;
  return drainReader(byteReader(request.body), bound);
}

/**
 * When the Worker answers before reading a whole request body, the HTTP layer in front of it
 * (workerd, wrangler dev's proxy) either drains a little of the rest or drops the connection:
 * measured on `wrangler dev`, the refused client then often saw ECONNRESET instead of the 413,
 * and the next request on the same keep-alive connection got a 500 "Network connection lost".
 * Reading and discarding the rest before answering avoids both. Discarding costs no memory, only
 * time, and the bound keeps a huge refused body from holding the Worker: past it the body is
 * cancelled. The bound is below the smallest file limit that can be passed while streaming,
 * so a refusal still arrives long before the end of a body that is far too large.
 */
export const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/** A client that stops sending does not hold the Worker for longer than this. */
export const MAX_DRAIN_MS = 10_000;

const TIMED_OUT = Symbol("timed out");

/**
 * Reads and discards from `reader` until its end, `maxBytes` or `MAX_DRAIN_MS`; true when the end
 * was reached. Otherwise the stream is cancelled.
 */
export async function drainReader(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes = MAX_DRAIN_BYTES,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), MAX_DRAIN_MS);
  });
  let drained = 0;
  try {
    while (drained <= maxBytes) {
      const result = await Promise.race([reader.read(), timeout]);
      if (result === TIMED_OUT) break;
      if (result.done) return true;
      drained += result.value.byteLength;
    }
    await reader.cancel().catch(() => undefined);
    return false;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Drains a request body nobody has read yet. A body declared larger than the bound is left alone:
 * reading part of it would not save the connection.
 */
export async function drainRequestBody(request: Request, maxBytes = MAX_DRAIN_BYTES): Promise<boolean> {
  if (request.body === null) return true;
  if (request.bodyUsed || request.body.locked) return false;
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return false;
  return drainReader(request.body.getReader(), maxBytes);
}

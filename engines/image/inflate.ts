/**
 * Streaming inflate over a list of byte ranges (e.g. the IDAT chunks of a PNG) with the runtime's
 * native DecompressionStream, so only one output chunk at a time is held in memory.
 */

/** Receives each inflated chunk in order; returns false once it has seen enough. */
export type InflateConsumer = (chunk: Uint8Array) => boolean;

/**
 * Feeds `parts` (one zlib stream, or one raw deflate stream with `format` "deflate-raw", split in
 * pieces) through the inflater. Resolves `true` when the consumer stopped early, `false` when the
 * stream ended first. Errors of the stream (bad data, cut short, trailing bytes, checksum) reject,
 * unless the consumer has already stopped.
 */
export async function inflate(
  parts: readonly Uint8Array[],
  consume: InflateConsumer,
  format: "deflate" | "deflate-raw" = "deflate",
): Promise<boolean> {
  const stream = new DecompressionStream(format);
  const writer = stream.writable.getWriter();
  const feeding = (async () => {
    for (const part of parts) {
      await writer.ready;
      // Uploads are never backed by a SharedArrayBuffer; the DOM typing asks for that promise.
      await writer.write(part as Uint8Array<ArrayBuffer>);
    }
    await writer.close();
  })();
  // Failures of the writing side surface on the reading side; only this one is reported.
  feeding.catch(() => undefined);
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    if (!consume(value)) {
      await reader.cancel().catch(() => undefined);
      return true;
    }
  }
}

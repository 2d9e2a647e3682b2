/**
 * The body of an R2 write (`put`, `uploadPart`), handed over in slices with a turn of the event loop
 * between them.
 *
 * A body already in memory (an upload's part, an edge job's output, the converter's output read
 * from a socket whose bytes have all arrived) is consumed without any wait for I/O. workerd's thread
 * runs every queued task before it looks at its sockets again, so while such a body is stored no
 * other request is even read. Locally the cost is large: miniflare's R2 emulation runs on the
 * Worker's own thread and digests the body 4 KB at a time in JavaScript, 45–58 ms of CPU for 3.4 MB
 * whatever the body's shape (a Uint8Array, an ArrayBuffer, a Blob, a stream of known length of any
 * chunk size, one multipart part, with or without a checksum: `bench/r2-body-shapes.ts`); 8 such
 * puts at once held a request doing nothing for 0.7–1.3 s, the whole time they ran. Written in
 * slices of R2_SLICE_BYTES with a timer between them (a timer fires only after the thread has looked
 * at its sockets), the same 8 puts let such requests through in 4–10 ms at p50 and 33–96 ms at p95
 * (README "R2 writes in slices"). Deployed, R2 is a service of its own; the slices let the isolate's
 * other requests in while a large file is written.
 */

/** Bytes written to R2 between two turns of the event loop (about 3.4 ms of digest locally). */
export const R2_SLICE_BYTES = 256 * 1024;

/** Resolves once the event loop has run its other tasks and looked at its sockets (a timer). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The chunks of `source`, one after the other. */
async function* chunksOf(source: Uint8Array | ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    yield source;
    return;
  }
  const reader = source.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) yield read.value;
  } finally {
    reader.releaseLock();
  }
}

/** Writes `source` into `writable` in slices of at most R2_SLICE_BYTES, a turn between two slices. */
async function writeSliced(
  source: Uint8Array | ReadableStream<Uint8Array>,
  writable: WritableStream<Uint8Array>,
): Promise<void> {
  const writer = writable.getWriter();
  let written = 0;
  // The turn a slice waits for is asked for when the slice before it starts: workerd fires a
  // timer at 1 ms at the earliest, and storing a slice takes longer, so the timer is due when the
  // thread next looks at its sockets and it does so without sleeping (a sleeping thread waits for
  // a core again on a loaded machine).
  let turn = nextTurn();
  try {
    for await (const chunk of chunksOf(source)) {
      for (let at = 0; at < chunk.length; ) {
        if (written === R2_SLICE_BYTES) {
          await turn;
          turn = nextTurn();
          written = 0;
        }
        const slice = chunk.subarray(at, at + R2_SLICE_BYTES - written);
        await writer.write(slice);
        written += slice.length;
        at += slice.length;
      }
    }
    await writer.close();
  } catch (error) {
    // A source that failed fails the write (R2 refuses a body that ends short); a write that failed
    // (R2 refused it) cancels the source, so nothing waits on it.
    await writer.abort(error).catch(() => undefined);
    if (!(source instanceof Uint8Array)) await source.cancel(error).catch(() => undefined);
  }
}

/**
 * `source` (exactly `size` bytes) as the body of an R2 write: as it is when it fits one slice, else a
 * stream of known length (R2 stores a stream only when it knows its length) fed in slices.
 */
export function r2Body(
  source: Uint8Array | ReadableStream<Uint8Array>,
  size: number,
): Uint8Array | ReadableStream<Uint8Array> {
  if (source instanceof Uint8Array && source.length <= R2_SLICE_BYTES) return source;
  const fixed = new FixedLengthStream(size);
  void writeSliced(source, fixed.writable);
  return fixed.readable;
}

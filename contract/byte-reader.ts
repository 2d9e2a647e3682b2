/**
 * Reads a byte stream in large pieces where the runtime allows it. workerd hands a request or
 * response body to JavaScript in chunks of about 4 KB: a 6.5 MB file is some 1,700 reads, each a
 * promise and a copy, and took 150–220 ms to pass through the Worker. Its BYOB reader has
 * `readAtLeast(min, view)`, which gathers `min` bytes natively before resolving. Elsewhere (Node,
 * browsers) the stream's own chunks are used as they come.
 */

/** Size of one large read: about 16 of workerd's chunks. */
export const LARGE_READ_BYTES = 64 * 1024;

export interface ByteReader {
  /**
   * The next bytes, null at the end of the stream. Where the runtime gathers, at least `min`
   * (default 1) unless the stream ends first and at most max(`min`, LARGE_READ_BYTES); elsewhere
   * the stream's next chunk.
   */
  read(min?: number): Promise<Uint8Array | null>;
  cancel(reason?: unknown): Promise<void>;
}

type GatheringReader = ReadableStreamBYOBReader & {
  readAtLeast?(min: number, view: Uint8Array): Promise<ReadableStreamReadResult<Uint8Array>>;
};

function gatheringReader(stream: ReadableStream<Uint8Array>): GatheringReader | null {
  let reader: GatheringReader;
  try {
    reader = stream.getReader({ mode: "byob" }) as GatheringReader;
  } catch {
    return null; // not a byte stream
  }
  if (typeof reader.readAtLeast === "function") return reader;
  reader.releaseLock();
  return null;
}

/** A read of a ByteReader with `idleMs` got no bytes (or not its `min`) within that time. */
export class StalledStreamError extends Error {
  readonly idleMs: number;
  constructor(idleMs: number) {
    super(`No bytes for ${idleMs} ms`);
    this.name = "StalledStreamError";
    this.idleMs = idleMs;
  }
}

/**
 * With `idleMs`, a read still waiting after that long cancels the stream and fails with
 * StalledStreamError: a peer that stopped sending (stopped, or a body shorter than its
 * Content-Length) is not waited for forever.
 */
export function byteReader(
  stream: ReadableStream<Uint8Array>,
  options: { readonly idleMs?: number } = {},
): ByteReader {
  const reader = plainByteReader(stream);
  const { idleMs } = options;
  if (idleMs === undefined) return reader;
  return {
    async read(min) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new StalledStreamError(idleMs));
          reader.cancel().catch(() => undefined);
        }, idleMs);
      });
      try {
        return await Promise.race([reader.read(min), stalled]);
      } finally {
        clearTimeout(timer);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

function plainByteReader(stream: ReadableStream<Uint8Array>): ByteReader {
  const gathering = gatheringReader(stream);
  if (gathering?.readAtLeast !== undefined) {
    const readAtLeast = gathering.readAtLeast.bind(gathering);
    return {
      async read(min = 1) {
        const least = Math.max(min, 1);
        for (;;) {
          const result = await readAtLeast(least, new Uint8Array(Math.max(least, LARGE_READ_BYTES)));
          // A stream that closes during a read may end it with `done` and the bytes it got.
          const value: Uint8Array | undefined = result.value;
          if (value !== undefined && value.length > 0) return value;
          if (result.done) return null;
        }
      },
      cancel: (reason) => gathering.cancel(reason),
    };
  }
  const reader = stream.getReader();
  return {
    async read() {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return null;
        if (value.length > 0) return value;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

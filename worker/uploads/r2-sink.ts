import { FILE_KINDS } from "../../contract/index.ts";
import { r2Body } from "../r2-body.ts";
import { extraInputKey, inputKey } from "../task-files.ts";
import type { FileSink, ReceivedFile, StoredInput } from "./types.ts";

/**
 * R2 multipart parts must all have the same size (at least 5 MiB) except the last. One part is
 * buffered at a time, so a file of any size costs the Worker about this much memory.
 */
export const R2_PART_BYTES = 5 * 1024 * 1024;

/** The part buffer's first size: a small file never costs a whole part. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/**
 * Cuts a stream of chunks of any size into parts of exactly R2_PART_BYTES (the last one shorter).
 * Its buffer starts at FIRST_BUFFER_BYTES and doubles as the bytes arrive, up to one part: a file
 * costs about its own size (at most twice), not R2_PART_BYTES. Each upload used to take a 5 MiB
 * buffer before its first byte, which workerd's allocator kept after the burst (README "Idle memory").
 */
export class PartBuffer {
  #part = new Uint8Array(FIRST_BUFFER_BYTES);
  #filled = 0;
  #carry: Uint8Array | null = null;
  readonly #chunks: AsyncIterator<Uint8Array>;
  #done = false;

  constructor(chunks: AsyncIterable<Uint8Array>) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  /** Bytes the buffer holds now (for tests: it grows with the file, up to one part). */
  get capacity(): number {
    return this.#part.length;
  }

  /** Room for `more` bytes after the filled ones (never beyond one part), keeping what is there. */
  #reserve(more: number): void {
    const needed = this.#filled + more;
    if (needed <= this.#part.length) return;
    let size = this.#part.length;
    while (size < needed) size *= 2;
    const grown = new Uint8Array(Math.min(size, R2_PART_BYTES));
    grown.set(this.#part.subarray(0, this.#filled));
    this.#part = grown;
  }

  /** The next full part, or a shorter last one; null when nothing is left. */
  async next(): Promise<Uint8Array | null> {
    this.#filled = 0;
    while (this.#filled < R2_PART_BYTES) {
      let chunk = this.#carry;
      this.#carry = null;
      if (chunk === null) {
        if (this.#done) break;
        const result = await this.#chunks.next();
        if (result.done) {
          this.#done = true;
          break;
        }
        chunk = result.value;
      }
      const room = R2_PART_BYTES - this.#filled;
      if (chunk.length > room) {
        this.#carry = chunk.subarray(room);
        chunk = chunk.subarray(0, room);
      }
      this.#reserve(chunk.length);
      this.#part.set(chunk, this.#filled);
      this.#filled += chunk.length;
    }
    return this.#filled === 0 ? null : this.#part.subarray(0, this.#filled);
  }
}

/** Stores one file: one `put` when it fits a part, else an R2 multipart upload (aborted on failure). */
async function store(bucket: R2Bucket, key: string, file: ReceivedFile): Promise<number> {
  const options = {
    httpMetadata: { contentType: FILE_KINDS[file.kind].mime },
    customMetadata: { name: encodeURIComponent(file.name), kind: file.kind },
  };
  const parts = new PartBuffer(file.chunks);
  const first = await parts.next();
  if (first === null || first.length < R2_PART_BYTES) {
    const bytes = first ?? new Uint8Array(0);
    await bucket.put(key, r2Body(bytes, bytes.length), options);
    return first?.length ?? 0;
  }
  const upload = await bucket.createMultipartUpload(key, options);
  try {
    const uploaded: R2UploadedPart[] = [];
    let size = 0;
    for (let part: Uint8Array | null = first; part !== null; part = await parts.next()) {
      // The buffer is reused for the next part once this upload has completed.
      uploaded.push(await upload.uploadPart(uploaded.length + 1, r2Body(part, part.length)));
      size += part.length;
    }
    await upload.complete(uploaded);
    return size;
  } catch (error) {
    await upload.abort().catch(() => undefined);
    throw error;
  }
}

/**
 * Stores each file as it arrives: a main file under `tasks/{taskId}/in/{index}`, the file of an
 * extra field under `tasks/{taskId}/in/field-{field}`.
 */
export function r2Sink(bucket: R2Bucket, taskId: string): FileSink<StoredInput> {
  return {
    async keep(file) {
      const key = file.field === undefined ? inputKey(taskId, file.index) : extraInputKey(taskId, file.field);
      const size = await store(bucket, key, file);
      const stored = { key, name: file.name, size, kind: file.kind };
      return file.field === undefined ? stored : { ...stored, field: file.field };
    },
    async discard(kept) {
      if (kept.length > 0) await bucket.delete(kept.map((input) => input.key));
    },
  };
}

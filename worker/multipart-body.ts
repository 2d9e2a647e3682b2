/**
 * A multipart/form-data body written as a stream: file parts are opened one at a time when the
 * reader reaches them, so a job's inputs flow from R2 to the converter without being held in memory.
 * The total length is known in advance and sent as Content-Length.
 */
export interface StreamedFilePart {
  readonly field: string;
  readonly filename: string;
  readonly contentType: string;
  readonly size: number;
  open(): Promise<ReadableStream<Uint8Array>>;
}

export interface MultipartBody {
  readonly body: ReadableStream<Uint8Array>;
  readonly contentType: string;
  readonly length: number;
}

const encoder = new TextEncoder();

function quoted(value: string): string {
  return value.replace(/[\r\n"\\]/g, "_");
}

async function* chunks(
  boundary: string,
  fields: readonly (readonly [string, string])[],
  files: readonly StreamedFilePart[],
): AsyncGenerator<Uint8Array> {
  for (const [name, value] of fields) yield fieldPart(boundary, name, value);
  for (const file of files) {
    yield fileHeader(boundary, file);
    const reader = (await file.open()).getReader();
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
    } finally {
      reader.releaseLock();
    }
    yield encoder.encode("\r\n");
  }
  yield encoder.encode(`--${boundary}--\r\n`);
}

function fieldPart(boundary: string, name: string, value: string): Uint8Array {
  return encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
  );
}

function fileHeader(boundary: string, file: StreamedFilePart): Uint8Array {
  return encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"\r\n` +
      `Content-Type: ${file.contentType}\r\n\r\n`,
  );
}

export function multipartBody(
  fields: readonly (readonly [string, string])[],
  files: readonly StreamedFilePart[],
): MultipartBody {
  const boundary = `----job${crypto.randomUUID().replaceAll("-", "")}`;
  let length = encoder.encode(`--${boundary}--\r\n`).byteLength;
  for (const [name, value] of fields) length += fieldPart(boundary, name, value).byteLength;
  for (const file of files) length += fileHeader(boundary, file).byteLength + file.size + 2;

  const iterator = chunks(boundary, fields, files);
  const source = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  const fixed = new FixedLengthStream(length);
  source.pipeTo(fixed.writable).catch(() => undefined);
  return { body: fixed.readable, contentType: `multipart/form-data; boundary=${boundary}`, length };
}

/** Text as the encodings editors save it in, for tests and benchmarks of text inputs. */

/** `text` as UTF-16 in the byte order given, its byte order mark first. */
export function utf16WithMark(text: string, order: "le" | "be"): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set(order === "le" ? [0xff, 0xfe] : [0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes.set(order === "le" ? [unit & 255, unit >> 8] : [unit >> 8, unit & 255], 2 + i * 2);
  }
  return bytes;
}

import { createHash } from "node:crypto";
import type * as mupdf from "mupdf";

/** The password padding of the standard security handler (ISO 32000-1, 7.6.3.3, Algorithm 2). */
const PASSWORD_PADDING = Buffer.from(
  "28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a",
  "hex",
);
/** Bytes of a full-length RC4 key, the one Acrobat derives object keys from. */
const FULL_KEY_BYTES = 16;

/**
 * The file key, as hexadecimal for `qpdf --password-is-hex-key`, of a document encrypted by
 * Acrobat's V4 RC4 crypt filter with a key under 128 bits and the empty user password; undefined
 * for any other document. Acrobat checks the password with the short key (so MuPDF and qpdf find the
 * empty one right) but derives each object's key from that key padded with zero bytes to 16, where
 * the standard derives it from the short key itself: readers that follow the standard open such a
 * file unlocked yet read none of its streams (MuPDF: no pages; poppler: a page of 0 × 0). Measured
 * on two Acrobat files of 40- and 48-bit keys: every stream inflates with the padded key, none with
 * the standard one.
 */
export function paddedRc4Key(pdf: mupdf.PDFDocument): string | undefined {
  const trailer = pdf.getTrailer();
  const encrypt = trailer.get("Encrypt");
  if (!encrypt.isDictionary() || number(encrypt.get("V")) !== 4 || number(encrypt.get("R")) !== 4) {
    return undefined;
  }
  const streamFilter = encrypt.get("StmF");
  if (!streamFilter.isName()) return undefined;
  const filter = encrypt.get("CF", streamFilter.asName());
  const method = filter.get("CFM");
  if (!method.isName() || method.asName() !== "V2") return undefined;
  const bytes = keyBytes(filter.get("Length")) ?? keyBytes(encrypt.get("Length"));
  if (bytes === undefined || bytes >= FULL_KEY_BYTES) return undefined;
  const owner = encrypt.get("O");
  const id = trailer.get("ID").get(0);
  if (!owner.isString() || !id.isString()) return undefined;
  // Algorithm 2 with the empty password: MD5 of the padding, O, P (32-bit little-endian) and the
  // first file identifier (plus four 0xFF bytes when the metadata is left unencrypted), then MD5
  // fifty times more over the key's first bytes.
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(number(encrypt.get("P")) ?? 0);
  const metadata = encrypt.get("EncryptMetadata");
  const hash = createHash("md5")
    .update(PASSWORD_PADDING)
    .update(owner.asByteString().subarray(0, 32))
    .update(permissions)
    .update(id.asByteString());
  if (metadata.isBoolean() && !metadata.asBoolean()) hash.update(Buffer.from([0xff, 0xff, 0xff, 0xff]));
  let key = hash.digest();
  for (let round = 0; round < 50; round++) key = createHash("md5").update(key.subarray(0, bytes)).digest();
  const padded = Buffer.alloc(FULL_KEY_BYTES);
  padded.set(key.subarray(0, bytes));
  return padded.toString("hex");
}

function number(object: mupdf.PDFObject): number | undefined {
  return object.isNumber() ? object.asNumber() : undefined;
}

/** A key length in bytes: PDF gives bits, some writers bytes (a value under 40). */
function keyBytes(length: mupdf.PDFObject): number | undefined {
  const value = number(length);
  if (value === undefined || value <= 0) return undefined;
  const bits = value < 40 ? value * 8 : value;
  return bits % 8 === 0 ? bits / 8 : undefined;
}

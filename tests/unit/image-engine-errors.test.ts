/**
 * Engine failures reach the API as fixed messages: the codec's own text (libpng, MozJPEG, WASM traps)
 * travels only in `detail`, which the task object logs and never sends.
 */
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { convertPngToJpg } from "../../engines/image/convert-png-to-jpg.ts";
import type { ImageCodecs } from "../../engines/image/image-codecs.ts";

const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3080c0" } })
  .png()
  .toBuffer()
  .then((buffer) => new Uint8Array(buffer));

function codecs(fail: { decode?: Error; encode?: Error }): () => Promise<ImageCodecs> {
  const decode = () => {
    if (fail.decode) throw fail.decode;
    return { width: 8, height: 8, data: new Uint8Array(8 * 8 * 4).fill(200) };
  };
  const encode = () => {
    if (fail.encode) throw fail.encode;
    return new Uint8Array();
  };
  return async () => ({
    decodePng: decode,
    decodeJpeg: decode,
    decodeWebp: decode,
    encodeJpeg: encode,
    encodePng: encode,
    encodeWebp: encode,
  });
}

async function failure(load: () => Promise<ImageCodecs>): Promise<AppError> {
  const error = await convertPngToJpg(png, { quality: 85, maxPixels: 1e6 }, load, () => {}).then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe("edge image engine errors", () => {
  it("answers a decoder's refusal as IMAGE_DAMAGED with a fixed message, the decoder's text in detail", async () => {
    const error = await failure(
      codecs({ decode: new Error("libpng error: IDAT: invalid distance too far back") }),
    );
    expect(error.code).toBe("IMAGE_DAMAGED");
    expect(error.message).toBe("The PNG could not be decoded.");
    expect(error.detail).toContain("invalid distance");
    expect(JSON.stringify(error.toBody())).not.toContain("libpng");
  });

  it("answers a WASM trap as INTERNAL without the trap's text", async () => {
    const error = await failure(codecs({ decode: new WebAssembly.RuntimeError("unreachable executed") }));
    expect(error.code).toBe("INTERNAL");
    expect(JSON.stringify(error.toBody())).not.toContain("unreachable");
    expect(error.detail).toContain("unreachable");
  });

  it("answers an encoder failure as INTERNAL without the encoder's text", async () => {
    const error = await failure(codecs({ encode: new Error("mozjpeg: Bogus input colorspace") }));
    expect(error.code).toBe("INTERNAL");
    expect(JSON.stringify(error.toBody())).not.toContain("mozjpeg");
  });
});

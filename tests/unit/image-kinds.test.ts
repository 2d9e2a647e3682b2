/**
 * HEIC, AVIF, TIFF and BMP without decoding: magic bytes (contract/file-kinds.ts), sizes from their
 * headers, the Worker's early pixel check (worker/uploads/image-head.ts), routing to the container
 * (the resolution of `target_format=jpg` is tested in tests/worker/tool-resolution.test.ts); and the BMP decoder on every header version and pixel
 * layout it reads, pixel for pixel.
 */
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError, sniffFileKind, TOOLS } from "../../contract/index.ts";
import { decodeBmp } from "../../engines/image/bmp-decode.ts";
import { convertibleAtEdge, readImageInfo } from "../../engines/image/image-info.ts";
import { writeTiff } from "../../engines/image/tiff-write.ts";
import { imageHeadSize, MAX_IMAGE_HEAD_BYTES } from "../../worker/uploads/image-head.ts";
import { imageFixtures } from "../container/image-fixtures.ts";
import { bmpFixture, heicOf, heifEnc, kindFixtures } from "../container/image-kind-fixtures.ts";

const fixtures: Record<string, Uint8Array> = {};

beforeAll(async () => {
  fixtures.avif = await kindFixtures.avif();
  fixtures.rotatedAvif = await kindFixtures.rotatedAvif();
  fixtures.tiff = await kindFixtures.tiff();
  fixtures.rotatedTiff = await kindFixtures.rotatedTiff();
  fixtures.tiff16 = kindFixtures.tiff16();
  fixtures.bigEndianTiff = new Uint8Array(
    await sharp(await imageFixtures.photoPng(50, 30))
      .tiff()
      .toBuffer(),
  );
  fixtures.bmp = bmpFixture({ bitCount: 24, header: 40 }).bytes;
  if (heifEnc()) fixtures.heic = heicOf(await imageFixtures.photoPng(96, 64));
});

describe("sniffing HEIC, AVIF, TIFF and BMP", () => {
  it("recognises each kind by its first bytes", () => {
    expect(sniffFileKind(fixtures.avif ?? new Uint8Array())).toBe("avif");
    expect(sniffFileKind(fixtures.tiff ?? new Uint8Array())).toBe("tiff");
    expect(sniffFileKind(fixtures.tiff16 ?? new Uint8Array())).toBe("tiff");
    expect(sniffFileKind(fixtures.bmp ?? new Uint8Array())).toBe("bmp");
    expect(sniffFileKind(new TextEncoder().encode("MM\0*\0\0\0\x08"))).toBe("tiff");
    expect(sniffFileKind(new TextEncoder().encode("II+\0\x08\0\0\0"))).toBe("tiff");
  });

  it("tells HEIC from AVIF and from MP4 video by the ftyp brands", () => {
    const ftyp = (major: string, ...compatible: string[]) => {
      const text = `ftyp${major}\0\0\0\0${compatible.join("")}`;
      const out = new Uint8Array(4 + text.length);
      new DataView(out.buffer).setUint32(0, out.length);
      out.set(new TextEncoder().encode(text), 4);
      return out;
    };
    expect(sniffFileKind(ftyp("heic", "mif1", "heic"))).toBe("heic");
    expect(sniffFileKind(ftyp("mif1", "mif1", "heic"))).toBe("heic");
    expect(sniffFileKind(ftyp("mif1", "mif1", "avif"))).toBe("avif");
    expect(sniffFileKind(ftyp("avis", "avis", "msf1"))).toBe("avif");
    expect(sniffFileKind(ftyp("isom", "isom", "mp42"))).toBeNull();
  });

  it("needs a known DIB header size after BM (text starting with BM is not a bitmap)", () => {
    expect(sniffFileKind(new TextEncoder().encode("BMW owners club newsletter"))).toBeNull();
  });

  it.skipIf(!heifEnc())("recognises the HEIC heif-enc writes", () => {
    expect(sniffFileKind(fixtures.heic ?? new Uint8Array())).toBe("heic");
  });
});

describe("sizes from the headers", () => {
  it("reads AVIF, TIFF (both byte orders, 16-bit) and BMP sizes as sharp does", async () => {
    for (const name of ["avif", "tiff", "tiff16", "bigEndianTiff", "bmp"]) {
      const bytes = fixtures[name] ?? new Uint8Array();
      const info = readImageInfo(bytes);
      if (name !== "bmp") {
        const metadata = await sharp(bytes).metadata();
        expect([name, info.width, info.height]).toEqual([name, metadata.width, metadata.height]);
      }
      expect(convertibleAtEdge(info)).toBe(false);
    }
    expect(readImageInfo(fixtures.bmp ?? new Uint8Array())).toMatchObject({
      kind: "bmp",
      width: 37,
      height: 23,
    });
  });

  it("turns the AVIF irot and the TIFF orientation tag into an orientation that swaps the size", () => {
    expect(readImageInfo(fixtures.rotatedAvif ?? new Uint8Array())).toMatchObject({
      width: 240,
      height: 160,
      orientation: 6,
    });
    expect(readImageInfo(fixtures.rotatedTiff ?? new Uint8Array())).toMatchObject({ orientation: 6 });
  });

  it.skipIf(!heifEnc())("reads the HEIC primary image's size", () => {
    expect(readImageInfo(fixtures.heic ?? new Uint8Array())).toMatchObject({
      kind: "heic",
      width: 96,
      height: 64,
    });
  });

  it("refuses an oversized TIFF from its first bytes, and leaves a directory past 64 KiB to the container", () => {
    // Directory right after the header: known at once.
    const huge = writeTiff({ width: 1, height: 1, channels: 1, data: new Uint8Array(1) });
    const view = new DataView(huge.buffer);
    const ifd = view.getUint32(4, true);
    // Entries 0 and 1 are width and height (LONG): make the image 100 000 × 100 000.
    view.setUint32(ifd + 2 + 8, 100_000, true);
    view.setUint32(ifd + 2 + 12 + 8, 100_000, true);
    expect(imageHeadSize(huge, true, "tiff")).toEqual({ width: 100_000, height: 100_000 });
    // Directory after 3 MB of strips, only the first 4 KiB buffered.
    const head = new Uint8Array(4096);
    head.set([0x49, 0x49, 42, 0]);
    new DataView(head.buffer).setUint32(4, 3_000_000, true);
    expect(imageHeadSize(head, false, "tiff")).toBe("container");
    // Within reach: read more first.
    new DataView(head.buffer).setUint32(4, MAX_IMAGE_HEAD_BYTES - 100, true);
    expect(imageHeadSize(head, false, "tiff")).toBeNull();
  });

  it("refuses a cut TIFF or BMP header once the file has ended", () => {
    const cut = (fixtures.bmp ?? new Uint8Array()).subarray(0, 20);
    expect(() => imageHeadSize(cut, true, "bmp")).toThrow(AppError);
    const tiff = new Uint8Array(64);
    tiff.set([0x49, 0x49, 42, 0, 200, 0, 0, 0]);
    expect(() => imageHeadSize(tiff, true, "tiff")).toThrow(/TIFF/);
  });
});

describe("routing", () => {
  it("takes the new kinds in every image tool", () => {
    for (const tool of Object.values(TOOLS)) {
      const kinds: readonly string[] = tool.input.kinds;
      if (!kinds.includes("png") && !kinds.includes("jpeg")) continue;
      for (const kind of ["heic", "avif", "tiff", "bmp"])
        expect([tool.id, kinds.includes(kind)]).toEqual([tool.id, true]);
    }
  });
});

describe("BMP decoder", () => {
  const layouts = [
    { bitCount: 24, header: 40 },
    { bitCount: 24, header: 40, topDown: true },
    { bitCount: 24, header: 12 },
    { bitCount: 32, header: 124, bitfields: true, topDown: true },
    { bitCount: 32, header: 108, bitfields: true },
    { bitCount: 32, header: 40 },
    { bitCount: 16, header: 40, bitfields: true },
    { bitCount: 8, header: 40 },
    { bitCount: 8, header: 12 },
    { bitCount: 4, header: 40 },
    { bitCount: 1, header: 124 },
  ] as const;

  for (const spec of layouts) {
    it(`reads ${spec.bitCount}-bit, ${spec.header}-byte header${"topDown" in spec ? ", top-down" : ""}${"bitfields" in spec ? ", bit fields" : ""}`, () => {
      const { bytes, rgba } = bmpFixture(spec);
      const decoded = decodeBmp(bytes, 1e6);
      expect([decoded.width, decoded.height]).toEqual([37, 23]);
      expect(decoded.hasAlpha).toBe(spec.bitCount === 32 && "bitfields" in spec);
      if (spec.bitCount === 16) {
        // 5-6-5 scales to 0–255 by rounding: within one step of the fixture's truncated values.
        for (let i = 0; i < rgba.length; i++)
          expect(Math.abs((decoded.rgba[i] ?? 0) - (rgba[i] ?? 0))).toBeLessThan(9);
      } else {
        expect(Buffer.from(decoded.rgba).equals(Buffer.from(rgba))).toBe(true);
      }
    });
  }

  it("decodes RLE8 runs, absolute groups and line ends", () => {
    const { bytes } = bmpFixture({ bitCount: 8, header: 40 }, 4, 2);
    const header = bytes.subarray(0, new DataView(bytes.buffer).getUint32(10, true));
    // Bottom row: 4 × index 2; top row: absolute 3 pixels (1, 3, 4) + padding, then 1 × index 0.
    const rle = [4, 2, 0, 0, 0, 3, 1, 3, 4, 0, 1, 0, 0, 1];
    const file = new Uint8Array([...header, ...rle]);
    new DataView(file.buffer).setUint32(30, 1, true);
    const { rgba } = decodeBmp(file, 1e6);
    const pixel = (x: number, y: number) => [...rgba.subarray((y * 4 + x) * 4, (y * 4 + x) * 4 + 3)];
    expect(pixel(0, 1)).toEqual([220, 30, 40]);
    expect(pixel(3, 1)).toEqual([220, 30, 40]);
    expect([pixel(0, 0), pixel(1, 0), pixel(2, 0), pixel(3, 0)]).toEqual([
      [255, 255, 255],
      [20, 160, 60],
      [30, 60, 200],
      [0, 0, 0],
    ]);
  });

  it("refuses a cut file, an unknown compression and too many pixels with named errors", () => {
    const { bytes } = bmpFixture({ bitCount: 24, header: 40 });
    expect(() => decodeBmp(bytes.subarray(0, bytes.length - 200), 1e6)).toThrow(/BMP: pixel data cut short/);
    const jpegBmp = bytes.slice();
    new DataView(jpegBmp.buffer).setUint32(30, 4, true);
    expect(() => decodeBmp(jpegBmp, 1e6)).toThrow(/BMP: compression 4/);
    expect(() => decodeBmp(bytes, 100)).toThrow(expect.objectContaining({ code: "IMAGE_TOO_LARGE" }));
  });
});

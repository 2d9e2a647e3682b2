/** ICC profiles from PNG iCCP chunks into JPEG APP2 segments (engines/image/icc-profile.ts). */
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { embedIccProfile, readPngIccProfile } from "../../engines/image/icc-profile.ts";

const ascii = (text: string) => new TextEncoder().encode(text);

/** A profile with a well-formed header: size, colour space, "acsp"; the rest is filler. */
function profile(size: number, space: string): Uint8Array {
  const bytes = new Uint8Array(size).map((_, i) => (i * 29) % 256);
  new DataView(bytes.buffer).setUint32(0, size);
  bytes.set(ascii(space), 16);
  bytes.set(ascii("acsp"), 36);
  return bytes;
}

const iccp = (name: string, data: Uint8Array) => new Uint8Array([...ascii(name), 0, 0, ...data]);

describe("readPngIccProfile", () => {
  it("inflates RGB and grey profiles", async () => {
    const rgb = profile(600, "RGB ");
    expect(await readPngIccProfile(iccp("Display P3", deflateSync(rgb)))).toEqual({
      bytes: rgb,
      colorSpace: "RGB",
    });
    const grey = profile(300, "GRAY");
    expect((await readPngIccProfile(iccp("Gray", deflateSync(grey))))?.colorSpace).toBe("GRAY");
  });

  it("ignores profiles it cannot use instead of failing the conversion", async () => {
    const cases = [
      iccp("CMYK", deflateSync(profile(600, "CMYK"))),
      iccp("bad size", deflateSync(profile(600, "RGB ").subarray(0, 500))),
      iccp("broken", new Uint8Array([0x78, 0x9c, 1, 2, 3])),
      iccp("huge", deflateSync(profile(2 * 1024 * 1024, "RGB "))),
      new Uint8Array([0, 0, 1, 2]),
    ];
    for (const chunk of cases) expect(await readPngIccProfile(chunk)).toBeUndefined();
  });
});

describe("embedIccProfile", () => {
  const jfif = [0xff, 0xe0, 0, 16, ...ascii("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0];

  it("splits a profile over numbered APP2 segments that libvips reads back whole", async () => {
    const jpeg = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: "#808080" } })
        .jpeg()
        .toBuffer(),
    );
    const big = profile(150_000, "RGB ");
    const out = embedIccProfile(jpeg, big);
    expect(out.length).toBe(jpeg.length + big.length + 3 * 18);
    const starts = [...out.keys()].filter((i) => out[i] === 0xff && out[i + 1] === 0xe2);
    expect(starts[0]).toBe(2);
    expect(starts.map((i) => [out[i + 16], out[i + 17]])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const meta = await sharp(out).metadata();
    expect(Buffer.compare(meta.icc ?? Buffer.alloc(0), Buffer.from(big))).toBe(0);
    const [before, after] = await Promise.all([sharp(jpeg).raw().toBuffer(), sharp(out).raw().toBuffer()]);
    expect(after.equals(before)).toBe(true);
  });

  it("keeps a JFIF APP0 segment first", async () => {
    const plain = new Uint8Array(
      await sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } })
        .jpeg()
        .toBuffer(),
    );
    const jpeg = new Uint8Array([0xff, 0xd8, ...jfif, ...plain.subarray(2)]);
    const out = embedIccProfile(jpeg, profile(400, "RGB "));
    expect(Array.from(out.subarray(0, 2 + jfif.length))).toEqual([0xff, 0xd8, ...jfif]);
    expect([out[2 + jfif.length], out[3 + jfif.length]]).toEqual([0xff, 0xe2]);
    expect((await sharp(out).metadata()).icc?.length).toBe(400);
  });
});

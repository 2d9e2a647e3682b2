/**
 * Embedded ICC profiles (engines/image/icc-profile.ts): which images need a colour transform to
 * become sRGB, on profiles libvips embeds (its sRGB, Display P3 and CMYK profiles).
 */
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { isSrgbProfile, pngIccProfile } from "../../engines/image/icc-profile.ts";
import { readImageInfo } from "../../engines/image/image-info.ts";

const ascii = (text: string) => new TextEncoder().encode(text);
const base = () => sharp({ create: { width: 16, height: 8, channels: 3, background: "#3366cc" } });

async function withProfile(format: "jpeg" | "png" | "webp", profile: string): Promise<Uint8Array> {
  return new Uint8Array(await base().withIccProfile(profile).toFormat(format).toBuffer());
}

async function profileOf(profile: string): Promise<Uint8Array> {
  const { icc } = await sharp(await withProfile("jpeg", profile)).metadata();
  if (!icc) throw new Error("libvips embedded no profile");
  return new Uint8Array(icc);
}

describe("isSrgbProfile", () => {
  it("knows sRGB by its colorants, and nothing else as sRGB", async () => {
    expect(isSrgbProfile(await profileOf("srgb"))).toBe(true);
    expect(isSrgbProfile(await profileOf("p3"))).toBe(false);
    expect(isSrgbProfile(await profileOf("cmyk"))).toBe(false);
    expect(isSrgbProfile(new Uint8Array(200))).toBe(false);
  });
});

describe("colour transforms read from the headers", () => {
  it.each(["jpeg", "png", "webp"] as const)(
    "flags a %s with a Display P3 profile, not one with sRGB",
    async (format) => {
      expect(readImageInfo(await withProfile(format, "p3")).colourTransform).toBe(true);
      expect(readImageInfo(await withProfile(format, "srgb")).colourTransform).toBe(false);
      expect(readImageInfo(new Uint8Array(await base().toFormat(format).toBuffer())).colourTransform).toBe(
        false,
      );
    },
  );

  it("flags a CMYK JPEG, with or without a profile", async () => {
    const cmyk = await base().toColourspace("cmyk").jpeg().toBuffer();
    expect(readImageInfo(new Uint8Array(cmyk)).colourTransform).toBe(true);
    const tagged = await base().withIccProfile("cmyk").jpeg().toBuffer();
    expect(readImageInfo(new Uint8Array(tagged)).colourTransform).toBe(true);
  });
});

describe("pngIccProfile", () => {
  const iccp = (name: string, data: Uint8Array) => new Uint8Array([...ascii(name), 0, 0, ...data]);

  it("inflates a profile, and gives nothing for broken or oversized ones", async () => {
    const srgb = await profileOf("srgb");
    expect(pngIccProfile(iccp("sRGB", deflateSync(srgb)))).toEqual(srgb);
    expect(pngIccProfile(iccp("broken", new Uint8Array([0x78, 0x9c, 1, 2, 3])))).toBeUndefined();
    expect(pngIccProfile(iccp("huge", deflateSync(new Uint8Array(2 * 1024 * 1024))))).toBeUndefined();
    expect(pngIccProfile(new Uint8Array([0, 0, 1, 2]))).toBeUndefined();
  });
});

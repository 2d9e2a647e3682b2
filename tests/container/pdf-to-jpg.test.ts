import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { unzipSync } from "fflate";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { PdfToJpgOptions } from "../../engines/pdf/pdf-to-jpg.ts";
import { pdfToJpg } from "../../engines/pdf/pdf-to-jpg.ts";
import {
  idleRenderThreads,
  renderPages,
  warmRenderThreadCount,
  warmRenderThreads,
} from "../../engines/pdf/render-threads.ts";
import { ssim } from "../support/ssim.ts";
import { engineFailure } from "./engine-failure.ts";
import { encryptedPdf, irreparablePdf, pdfInput, save, textPdf } from "./fixtures.ts";

const corpus = fileURLToPath(new URL("../../../shared/corpus/pdf/", import.meta.url));

const convert = (dpi = 150, page_ranges?: string): PdfToJpgOptions => ({
  conversion_mode: "convert-pages",
  dpi,
  ...(page_ranges === undefined ? {} : { page_ranges }),
});
const extract: PdfToJpgOptions = { conversion_mode: "extract-images", dpi: 150 };

async function run(bytes: Uint8Array, options: PdfToJpgOptions, name = "report.pdf") {
  const progress: number[] = [];
  const output = await pdfToJpg([pdfInput(name, bytes)], options, (percent) => progress.push(percent));
  return { ...output, progress };
}

/** The files of a result: the one JPG, or the ZIP's entries in archive order. */
function files(output: { bytes: Uint8Array; kind?: string; name?: string }): [string, Uint8Array][] {
  if (output.kind === "jpeg") return [[output.name ?? "", output.bytes]];
  return Object.entries(unzipSync(output.bytes));
}

/** Pages of different widths (100 + 50 × index points), each with a black bar on white. */
function widthsPdf(count: number): Uint8Array {
  const doc = new mupdf.PDFDocument();
  for (let i = 0; i < count; i++) {
    const width = 100 + 50 * i;
    doc.insertPage(
      -1,
      doc.addPage([0, 0, width, 200], 0, doc.addObject({}), `0 g 10 10 ${width - 20} 20 re f`),
    );
  }
  return save(doc);
}

interface ImageSpec {
  readonly stream: Uint8Array;
  readonly dict: Record<string, unknown>;
  /** A soft mask drawn with the image. */
  readonly smask?: ImageSpec;
  /** RGB palette of an Indexed image. */
  readonly palette?: Uint8Array;
}

/** A PDF whose page i draws the images of `pages[i]` side by side (the same object where repeated). */
function imagesPdf(pages: readonly (readonly ImageSpec[])[]): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const objects = new Map<ImageSpec, mupdf.PDFObject>();
  const objectOf = (image: ImageSpec): mupdf.PDFObject => {
    const known = objects.get(image);
    if (known !== undefined) return known;
    const dict: Record<string, unknown> = { Type: "XObject", Subtype: "Image", ...image.dict };
    if (image.smask !== undefined) dict.SMask = objectOf(image.smask);
    if (image.palette !== undefined)
      dict.ColorSpace = [
        "Indexed",
        "DeviceRGB",
        image.palette.length / 3 - 1,
        doc.newByteString(image.palette),
      ];
    const object = doc.addRawStream(image.stream, dict);
    objects.set(image, object);
    return object;
  };
  for (const images of pages) {
    const xobjects: Record<string, mupdf.PDFObject> = {};
    let content = "";
    images.forEach((image, i) => {
      xobjects[`Im${i}`] = objectOf(image);
      content += `q 100 0 0 100 ${20 + 110 * i} 20 cm /Im${i} Do Q `;
    });
    doc.insertPage(-1, doc.addPage([0, 0, 600, 200], 0, doc.addObject({ XObject: xobjects }), content));
  }
  return save(doc, "");
}

async function jpegImage(width: number, height: number): Promise<ImageSpec> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) pixels.set([(i * 7) & 255, (i / width) & 255, 128], i * 3);
  const stream = new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg()
      .toBuffer(),
  );
  const dict = {
    Width: width,
    Height: height,
    ColorSpace: "DeviceRGB",
    BitsPerComponent: 8,
    Filter: "DCTDecode",
  };
  return { stream, dict };
}

/** An uncompressed image with a two-colour palette: left half red, right half blue. */
function indexedImage(side: number): ImageSpec {
  const stream = new Uint8Array(side * side).map((_, i) => (i % side < side / 2 ? 0 : 1));
  return {
    stream,
    dict: { Width: side, Height: side, BitsPerComponent: 8 },
    palette: Uint8Array.of(255, 0, 0, 0, 0, 255),
  };
}

function greyImage(side: number, value: number): ImageSpec {
  return {
    stream: new Uint8Array(side * side).fill(value),
    dict: { Width: side, Height: side, BitsPerComponent: 8, ColorSpace: "DeviceGray" },
  };
}

async function rgbOf(jpeg: Uint8Array) {
  const { data, info } = await sharp(jpeg)
    .removeAlpha()
    .toColourspace("srgb")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

describe("render threads", () => {
  it("are started idle before a job (a typical job's count) and a job reuses them and gives them back", async () => {
    warmRenderThreads();
    const warm = warmRenderThreadCount();
    expect(warm).toBeGreaterThanOrEqual(Math.min(1, availableParallelism() - 1));
    expect(idleRenderThreads()).toBeGreaterThanOrEqual(warm);
    const before = idleRenderThreads();
    const output = await run(textPdf("Four", 4), convert(150, "1-4"));
    expect(output.facts.pages_rendered).toBe(4);
    expect(idleRenderThreads()).toBe(before);
  });
});

describe("pdfToJpg convert-pages", () => {
  it("renders one JPG per page, sized by the resolution, in a ZIP named after the file", async () => {
    for (const dpi of [72, 150, 300]) {
      const output = await run(textPdf("Size", 3), convert(dpi));
      expect(output.kind).toBe("zip");
      expect(output.name).toBe("report-pages.zip");
      expect(output.facts).toMatchObject({ pages: 3, pages_rendered: 3, dpi });
      const entries = files(output);
      expect(entries.map(([name]) => name)).toEqual([
        "report-page-1.jpg",
        "report-page-2.jpg",
        "report-page-3.jpg",
      ]);
      for (const [, jpeg] of entries) {
        const meta = await sharp(jpeg).metadata();
        expect(meta.format).toBe("jpeg");
        expect(Math.abs((meta.width ?? 0) - (595 * dpi) / 72)).toBeLessThan(1);
        expect(Math.abs((meta.height ?? 0) - (842 * dpi) / 72)).toBeLessThan(1);
        expect(meta.density).toBe(dpi);
      }
    }
  });

  it("answers one page as a JPG of its own, close to MuPDF's own render (SSIM)", async () => {
    const pdf = textPdf("Likeness", 2);
    const output = await run(pdf, convert(150, "2"));
    expect(output.kind).toBe("jpeg");
    expect(output.name).toBe("report-page-2.jpg");
    const page = new mupdf.PDFDocument(pdf).loadPage(1);
    const reference = page.toPixmap(
      mupdf.Matrix.scale(150 / 72, 150 / 72),
      mupdf.ColorSpace.DeviceRGB,
      false,
    );
    const ours = await rgbOf(output.bytes);
    expect([ours.width, ours.height]).toEqual([reference.getWidth(), reference.getHeight()]);
    const score = ssim(
      { width: ours.width, height: ours.height, data: ours.data, channels: 3 },
      {
        width: reference.getWidth(),
        height: reference.getHeight(),
        data: reference.getPixels(),
        channels: 3,
      },
    );
    expect(score).toBeGreaterThan(0.97);
    // The text is really drawn: a blank page would also be "similar" to a mostly white page.
    expect(ours.data.reduce((darkest, value) => Math.min(darkest, value), 255)).toBeLessThan(64);
  });

  it("encodes pages at no lower a quality than pdftoppm's default (libjpeg quality 75)", async () => {
    const output = await run(textPdf("Quality", 1), convert(150));
    // libjpeg's luminance table (ITU T.81 K.1) at quality 75: each step halved, rounded.
    const standard = [
      16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17,
      22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78,
      87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ];
    const atDefault = standard.reduce(
      (sum, step) => sum + Math.max(1, Math.floor((step * 50 + 50) / 100)),
      0,
    );
    const bytes = output.bytes;
    let luma: number[] | undefined;
    for (let at = 2; at + 4 < bytes.length && luma === undefined; ) {
      const marker = bytes[at + 1] ?? 0;
      const length = ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
      // DQT, 8-bit table 0 (luminance) first in libjpeg's output.
      if (marker === 0xdb && bytes[at + 4] === 0) luma = [...bytes.subarray(at + 5, at + 69)];
      at += 2 + length;
    }
    expect(luma).toHaveLength(64);
    const ours = (luma ?? []).reduce((sum, step) => sum + step, 0);
    // Smaller steps are finer quantisation: at least as good as pdftoppm's default.
    expect(ours).toBeLessThanOrEqual(atDefault);
    expect(ours).toBeGreaterThan(64);
  });

  it("honours page ranges in the order given, and reports progress page by page", async () => {
    const output = await run(widthsPdf(5), convert(72, "4,1-2,5"));
    const entries = files(output);
    expect(entries.map(([name]) => name)).toEqual([
      "report-page-4.jpg",
      "report-page-1.jpg",
      "report-page-2.jpg",
      "report-page-5.jpg",
    ]);
    const widths = await Promise.all(entries.map(async ([, jpeg]) => (await sharp(jpeg).metadata()).width));
    expect(widths).toEqual([250, 100, 150, 300]);
    expect(output.facts).toMatchObject({ pages: 5, pages_rendered: 4 });
    expect(output.progress).toEqual([25, 50, 75, 100]);
  });

  it("gives the same pages on several threads as on one", async () => {
    const pdf = textPdf("Threads", 6);
    const doc = new mupdf.PDFDocument(pdf);
    const indexes = [5, 0, 3, 1, 4, 2];
    const one = await renderPages(doc, pdf, indexes, { dpi: 72, threads: 1, pageTreeCache: true }, () => {});
    const three = await renderPages(
      doc,
      pdf,
      indexes,
      { dpi: 72, threads: 3, pageTreeCache: false },
      () => {},
    );
    expect(three.map((page) => Buffer.from(page.jpeg).toString("base64"))).toEqual(
      one.map((page) => Buffer.from(page.jpeg).toString("base64")),
    );
  });

  it("refuses page ranges that do not fit, with the spec's message key and values", async () => {
    const error = await engineFailure(run(textPdf("Ranges", 3), convert(150, "2-7")));
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.context).toMatchObject({ page_ranges_error: "invalidRange", range: "2-7", pages: 3 });
    const page = await engineFailure(run(textPdf("Ranges", 3), convert(150, "9")));
    expect(page.context).toMatchObject({ page_ranges_error: "invalidPage", page: "9", pages: 3 });
  });

  it("refuses more pixels than a job holds before drawing any page", async () => {
    // 150 A4 pages at 300 dpi are 1.3 gigapixels; at 150 dpi the same pages fit.
    const pdf = textPdf("Many", 150);
    const error = await engineFailure(run(pdf, convert(300)));
    expect(error.code).toBe("TOO_MANY_PAGES");
    expect(error.context).toMatchObject({ pages: 150, dpi: 300 });
  });

  it("refuses encrypted and damaged PDFs by their code", async () => {
    expect((await engineFailure(run(encryptedPdf(), convert()))).code).toBe("PDF_ENCRYPTED");
    expect((await engineFailure(run(irreparablePdf(), convert()))).code).toBe("PDF_DAMAGED");
    expect((await engineFailure(run(encryptedPdf(), extract))).code).toBe("PDF_ENCRYPTED");
  });
});

describe("pdfToJpg extract-images", () => {
  it("returns a JPEG image byte for byte as the PDF stores it", async () => {
    const photo = await jpegImage(120, 80);
    const output = await run(imagesPdf([[], [photo]]), extract);
    expect(output.kind).toBe("jpeg");
    expect(output.name).toBe("report-page-2.jpg");
    expect(Buffer.from(output.bytes).equals(Buffer.from(photo.stream))).toBe(true);
    expect(output.facts).toMatchObject({ pages: 2, images_extracted: 1, images_original: 1 });
  });

  it("converts other images with their real colours, once each, skipping tiny ones and masks", async () => {
    const photo = await jpegImage(64, 64);
    const palette = indexedImage(64);
    const tiny = greyImage(16, 0);
    const mask = greyImage(72, 255);
    const masked: ImageSpec = { ...(await jpegImage(72, 72)), smask: mask };
    const stencil: ImageSpec = {
      stream: new Uint8Array((64 / 8) * 64),
      dict: { Width: 64, Height: 64, ImageMask: true, BitsPerComponent: 1 },
    };
    // The soft mask is also listed among the page's resources, as some producers do.
    const pdf = imagesPdf([[photo, tiny], [palette, photo, stencil, masked, mask], [palette]]);
    const output = await run(pdf, extract);
    const entries = files(output);
    expect(output.name).toBe("report-images.zip");
    expect(entries.map(([name]) => name)).toEqual([
      "report-page-1.jpg",
      "report-page-2.jpg",
      "report-page-2-2.jpg",
    ]);
    expect(output.facts).toMatchObject({ images_extracted: 3, images_original: 2, small_images_skipped: 1 });
    expect((await sharp(entries[2]?.[1] ?? new Uint8Array()).metadata()).width).toBe(72);
    const indexed = await rgbOf(entries[1]?.[1] ?? new Uint8Array());
    const pixel = (x: number, y: number) => [
      ...indexed.data.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3),
    ];
    const [lr, lg, lb] = pixel(10, 32);
    const [rr, rg, rb] = pixel(54, 32);
    expect(lr).toBeGreaterThan(200);
    expect(Math.max(lg ?? 0, lb ?? 0)).toBeLessThan(60);
    expect(rb).toBeGreaterThan(200);
    expect(Math.max(rr ?? 0, rg ?? 0)).toBeLessThan(60);
  });

  it("says when a PDF has no image to extract", async () => {
    const error = await engineFailure(run(textPdf("Text only", 2), extract));
    expect(error.code).toBe("PDF_NO_IMAGES");
  });

  it.skipIf(!existsSync(`${corpus}pdfjs_cmykjpeg.pdf`))(
    "turns a CMYK JPEG into RGB with its real colours",
    async () => {
      const output = await run(readFileSync(`${corpus}pdfjs_cmykjpeg.pdf`), extract);
      expect(output.facts).toMatchObject({ images_extracted: 1, images_original: 0 });
      const { data, channels } = await rgbOf(output.bytes);
      expect(channels).toBe(3);
      // The top rows are a blue sky: blue clearly above red (an inverted CMYK image is orange-brown).
      let red = 0;
      let blue = 0;
      for (let i = 0; i < 200 * 10 * 3; i += 3) {
        red += data[i] ?? 0;
        blue += data[i + 2] ?? 0;
      }
      expect(blue).toBeGreaterThan(red * 1.2);
    },
  );
});

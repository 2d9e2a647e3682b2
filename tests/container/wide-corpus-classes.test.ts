/**
 * The classes of files the sweep of ../shared/corpus-wide found mishandled, built in code: a PDF
 * encrypted with an empty user password (compression wrote it with its streams still encrypted: 0
 * pages), and a PDF whose JBIG2 stream declares a 100,000 × 100,000 page (a job ran out of memory
 * decoding it). The named files themselves run when the wide corpus is beside the clone.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as mupdf from "mupdf";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { WIDE_CORPUS } from "../../bench/sweep.ts";
import { preparedInputs } from "../../container/src/prepared-inputs.ts";
import { compressPdf } from "../../engines/pdf/compress.ts";
import { jbig2PageSize, MAX_JBIG2_PIXELS } from "../../engines/pdf/decode-bombs.ts";
import { imagesToPdf } from "../../engines/pdf/images-to-pdf.ts";
import { mergePdfs } from "../../engines/pdf/merge.ts";
import { splitPdf } from "../../engines/pdf/split.ts";
import { openPdf, pageText, pageTexts, pdfInput, save, textPdf, textPdfDocument } from "./fixtures.ts";

const noProgress = () => {};

/** JBIG2 data (embedded organisation) holding only a page information segment of this size. */
function jbig2PageInformation(width: number, height: number): Uint8Array {
  const data = new Uint8Array(11 + 19);
  const view = new DataView(data.buffer);
  view.setUint32(0, 0); // segment number
  view.setUint8(4, 48); // page information, 1-byte page association
  view.setUint8(5, 0); // no referred-to segments
  view.setUint8(6, 1); // page 1
  view.setUint32(7, 19); // data length
  view.setUint32(11, width);
  view.setUint32(15, height);
  return data;
}

/** A one-page PDF whose page draws a JBIG2 image declaring `width` × `height` pixels. */
function jbig2Pdf(width: number, height: number): Uint8Array {
  const doc = textPdfDocument("JBIG2", 1);
  const image = doc.addRawStream(jbig2PageInformation(width, height), {
    Type: "XObject",
    Subtype: "Image",
    Width: width,
    Height: height,
    BitsPerComponent: 1,
    ImageMask: true,
    Filter: "JBIG2Decode",
  });
  const page = doc.findPage(0);
  page.get("Resources").put("XObject", doc.newDictionary());
  page.get("Resources").get("XObject").put("Im0", image);
  return save(doc);
}

describe("a PDF that opens with the empty password", () => {
  const locked = save(
    textPdfDocument("Open without a password", 2),
    "encrypt=aes-256,user-password=,owner-password=owner",
  );

  it("compresses to a readable PDF with its pages and text", async () => {
    const inputs = await preparedInputs("compress-pdf", { quality: "medium" }, [pdfInput("a.pdf", locked)]);
    const output = await compressPdf(inputs, { quality: "medium" }, noProgress);
    const doc = openPdf(output.bytes);
    expect(doc.needsPassword()).toBe(false);
    expect(doc.countPages()).toBe(2);
    expect(pageTexts(doc).join(" ")).toContain("Open without a password");
    expect(output.bytes.length).toBeLessThanOrEqual(locked.length);
  });
});

/**
 * A PDF whose encryption covers only its attachments: the dictionary of a file MuPDF encrypted with
 * the user password "x", its strings and streams set to `/Identity` and its crypt filter to the
 * attachments' (`/EFF`, `/AuthEvent /EFOpen`), added by an incremental update to a PDF whose
 * objects are plain, as such files are written.
 */
function attachmentsOnlyEncryptedPdf(label: string): Uint8Array {
  const locked = openPdf(save(textPdfDocument("x", 1), "encrypt=aes-256,user-password=x,owner-password=y"));
  const encrypt = locked.getTrailer().get("Encrypt");
  encrypt.put("StmF", locked.newName("Identity"));
  encrypt.put("StrF", locked.newName("Identity"));
  encrypt.put("EFF", locked.newName("StdCF"));
  encrypt.get("CF", "StdCF").put("AuthEvent", locked.newName("EFOpen"));
  const plainDoc = textPdfDocument(label, 2);
  const plain = new TextDecoder("latin1").decode(save(plainDoc, ""));
  return withEncryptUpdate(plain, plainDoc, String(encrypt), String(locked.getTrailer().get("ID")));
}

/**
 * `plain` (the uncompressed save of `plainDoc`) with an incremental update adding `encrypt` as its
 * encryption dictionary and `id` as its file identifier, as encrypted files are written.
 */
function withEncryptUpdate(plain: string, plainDoc: mupdf.PDFDocument, encrypt: string, id: string) {
  const number = plainDoc.countObjects();
  const root = plainDoc.getTrailer().get("Root").asIndirect();
  const previous = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(plain)?.[1];
  const object = `${number} 0 obj\n${encrypt}\nendobj\n`;
  const xref = plain.length + object.length;
  const update =
    `${object}xref\n${number} 1\n${String(plain.length).padStart(10, "0")} 00000 n \ntrailer\n` +
    `<< /Size ${number + 1} /Root ${root} 0 R /Prev ${previous} /Encrypt ${number} 0 R /ID ${id} >>\n` +
    `startxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(plain + update, (c) => c.charCodeAt(0));
}

/** RC4 (the cipher of PDF's V2 crypt filter), to encrypt a fixture as Acrobat does. */
function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const state = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + (state[i] ?? 0) + (key[i % key.length] ?? 0)) & 255;
    [state[i], state[j]] = [state[j] ?? 0, state[i] ?? 0];
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + (state[i] ?? 0)) & 255;
    [state[i], state[j]] = [state[j] ?? 0, state[i] ?? 0];
    out[n] = (data[n] ?? 0) ^ (state[((state[i] ?? 0) + (state[j] ?? 0)) & 255] ?? 0);
  }
  return out;
}

const md5 = (...parts: Uint8Array[]) => {
  const hash = createHash("md5");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};

/** Algorithm 3's and 5's nineteen more RC4 passes, each with the key XORed with the pass number. */
function rc4Passes(key: Uint8Array, data: Uint8Array): Uint8Array {
  let out = rc4(key, data);
  for (let pass = 1; pass <= 19; pass++)
    out = rc4(
      key.map((byte) => byte ^ pass),
      out,
    );
  return out;
}

/**
 * A PDF encrypted as Acrobat writes a V4 RC4 file with a short key (`keyBits` < 128) and the empty
 * user password: O, U and the file key by the standard's algorithms with the short key (metadata
 * unencrypted), each stream encrypted with an object key derived from the file key padded with
 * zero bytes to 16.
 */
function acrobatShortRc4Pdf(label: string, keyBits: number): Uint8Array {
  const bytes = keyBits / 8;
  const padding = Buffer.from("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a", "hex");
  const id = Uint8Array.from({ length: 16 }, (_, i) => (i * 37 + 11) & 255);
  const stretch = (seed: Uint8Array) => {
    let key = seed;
    for (let round = 0; round < 50; round++) key = md5(key.subarray(0, bytes));
    return key.subarray(0, bytes);
  };
  const owner = rc4Passes(stretch(md5(Buffer.from("owner".padEnd(32, "\0")))), padding);
  const permissions = -3392;
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = stretch(md5(padding, owner, p, id, Uint8Array.of(255, 255, 255, 255)));
  const user = new Uint8Array(32);
  user.set(rc4Passes(key, md5(padding, id)));
  const padded = new Uint8Array(16);
  padded.set(key);
  const plainDoc = textPdfDocument(label, 2);
  // The page tree in an object stream, as Acrobat writes it (so its encryption hides the pages).
  const plain = new TextDecoder("latin1").decode(save(plainDoc, "objstms"));
  const encrypted = plain.replace(
    /(\d+) (\d+) obj((?:(?!endobj)[\s\S])*?stream\r?\n)([\s\S]*?)(\r?\nendstream)/g,
    (whole: string, number: string, generation: string, head: string, data: string, tail: string) => {
      if (/\/Type\s*\/XRef/.test(head)) return whole; // cross-reference streams are never encrypted
      const objectId = Uint8Array.of(
        ...[0, 8, 16].map((shift) => (Number(number) >> shift) & 255),
        Number(generation),
        0,
      );
      const cipher = rc4(
        md5(padded, objectId),
        Uint8Array.from(data, (c) => c.charCodeAt(0)),
      );
      return `${number} ${generation} obj${head}${String.fromCharCode(...cipher)}${tail}`;
    },
  );
  const hex = (value: Uint8Array) => `<${Buffer.from(value).toString("hex")}>`;
  const encrypt =
    `<< /Filter /Standard /V 4 /R 4 /Length ${keyBits} /CF << /StdCF << /AuthEvent /DocOpen /CFM /V2 ` +
    `/Length ${bytes} >> >> /StmF /StdCF /StrF /StdCF /EncryptMetadata false /O ${hex(owner)} ` +
    `/U ${hex(user)} /P ${permissions} >>`;
  return withEncryptUpdate(encrypted, plainDoc, encrypt, `[${hex(id)} ${hex(id)}]`);
}

describe("an Acrobat RC4 PDF whose short key is padded to 128 bits for its objects", () => {
  it("opens with its pages and text (MuPDF read no pages: PDF_DAMAGED)", async () => {
    for (const bits of [40, 48]) {
      const bytes = acrobatShortRc4Pdf(`RC4 ${bits}`, bits);
      const before = openPdf(bytes);
      expect([bits, before.needsPassword(), before.countPages()]).toEqual([bits, false, 0]);
      const [input] = await preparedInputs("split-pdf", {}, [pdfInput("a.pdf", bytes)]);
      const doc = openPdf(input?.bytes ?? new Uint8Array());
      expect(pageTexts(doc)).toEqual([pageText(`RC4 ${bits}`, 0), pageText(`RC4 ${bits}`, 1)]);
    }
  });
});

describe("a PDF whose encryption covers only its attachments", () => {
  it("opens without a password, its pages and text as they are (it was PDF_ENCRYPTED)", async () => {
    const bytes = attachmentsOnlyEncryptedPdf("Attachments only");
    expect(openPdf(bytes).needsPassword()).toBe(true);
    const [input] = await preparedInputs("merge-pdf", {}, [pdfInput("a.pdf", bytes)]);
    const doc = openPdf(input?.bytes ?? new Uint8Array());
    expect(doc.needsPassword()).toBe(false);
    expect(pageTexts(doc)).toEqual([pageText("Attachments only", 0), pageText("Attachments only", 1)]);
  });
});

/**
 * A one-page PDF drawing a red JPEG stored as hexadecimal text (`[/ASCIIHexDecode /DCTDecode]`)
 * whose DecodeParms array is empty, shorter than its filter chain.
 */
async function shortDecodeParmsPdf(): Promise<Uint8Array> {
  const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#ff0000" } })
    .jpeg()
    .toBuffer();
  const doc = new mupdf.PDFDocument();
  const image = doc.addRawStream(new TextEncoder().encode(`${jpeg.toString("hex")}>`), {
    Type: "XObject",
    Subtype: "Image",
    Width: 40,
    Height: 20,
    ColorSpace: "DeviceRGB",
    BitsPerComponent: 8,
    Filter: ["ASCIIHexDecode", "DCTDecode"],
    DecodeParms: [],
  });
  const resources = doc.addObject({ XObject: { Im1: image } });
  doc.insertPage(-1, doc.addPage([0, 0, 200, 100], 0, resources, "q 200 0 0 100 0 0 cm /Im1 Do Q"));
  return save(doc, "");
}

/** The RGB of the middle pixel of page 1 rendered at 72 ppi. */
function middlePixel(bytes: Uint8Array): number[] {
  const page = openPdf(bytes).loadPage(0);
  const pixmap = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB);
  const at = (Math.floor(pixmap.getHeight() / 2) * pixmap.getWidth() + Math.floor(pixmap.getWidth() / 2)) * 3;
  return [...pixmap.getPixels().subarray(at, at + 3)];
}

describe("a stream whose DecodeParms array is shorter than its Filter array", () => {
  it("merges and splits with its image intact (it was PDF_DAMAGED: index out of bounds)", async () => {
    const bytes = await shortDecodeParmsPdf();
    const red = middlePixel(bytes);
    expect(red[0]).toBeGreaterThan(200);
    const merged = await mergePdfs(
      await preparedInputs("merge-pdf", {}, [pdfInput("a.pdf", bytes), pdfInput("b.pdf", bytes)]),
      {},
      noProgress,
    );
    expect(openPdf(merged.bytes).countPages()).toBe(2);
    expect(middlePixel(merged.bytes)).toEqual(red);
    const split = await splitPdf(
      await preparedInputs("split-pdf", {}, [pdfInput("a.pdf", bytes)]),
      { split_mode: "every-page", pages_per_part: 1 },
      noProgress,
    );
    expect(middlePixel(split.bytes)).toEqual(red);
  });
});

/**
 * Two text pages whose tree also holds two /Pages nodes that are each other's only kid (a cycle; the
 * root's Count says 3), the first page inheriting its resources from the root.
 */
function cyclicPageTreePdf(label: string): Uint8Array {
  const doc = textPdfDocument(label, 2);
  const tree = doc.getTrailer().get("Root", "Pages");
  const first = tree.get("Kids").get(0);
  tree.put("Resources", first.get("Resources"));
  first.delete("Resources");
  const a = doc.addObject({ Type: "Pages", Count: 1 });
  const b = doc.addObject({ Type: "Pages", Count: 1, Kids: [a], Parent: a });
  a.put("Kids", doc.newArray());
  a.get("Kids").push(b);
  a.put("Parent", tree);
  tree.get("Kids").push(a);
  tree.put("Count", 3);
  return save(doc, "");
}

/** A one-page PDF whose catalog's /Pages is the page itself, not the tree above it. */
function pageAsTreeRootPdf(label: string): Uint8Array {
  const doc = textPdfDocument(label, 1);
  const root = doc.getTrailer().get("Root");
  root.put("Pages", root.get("Pages", "Kids").get(0));
  return save(doc, "");
}

describe("a page tree MuPDF cannot walk", () => {
  it("keeps the pages reached through a cycle, inherited resources included (it was PDF_DAMAGED)", async () => {
    const bytes = cyclicPageTreePdf("Cycle");
    expect(() => pageTexts(openPdf(bytes))).toThrow(/cycle/);
    const [input] = await preparedInputs("split-pdf", {}, [pdfInput("a.pdf", bytes)]);
    expect(pageTexts(openPdf(input?.bytes ?? new Uint8Array()))).toEqual([
      pageText("Cycle", 0),
      pageText("Cycle", 1),
    ]);
  });

  it("reads the page a catalog names as its page tree (MuPDF read no pages)", async () => {
    const bytes = pageAsTreeRootPdf("Root page");
    expect(openPdf(bytes).countPages()).toBe(0);
    const [input] = await preparedInputs("pdf-to-jpg", {}, [pdfInput("a.pdf", bytes)]);
    expect(pageTexts(openPdf(input?.bytes ?? new Uint8Array()))).toEqual([pageText("Root page", 0)]);
  });

  it("compresses to no more than the upload, which comes back when the repair cannot be made smaller", async () => {
    const doc = new mupdf.PDFDocument();
    doc.insertPage(-1, doc.addPage([0, 0, 200, 200], 0, {}, ""));
    const root = doc.getTrailer().get("Root");
    root.put("Pages", root.get("Pages", "Kids").get(0));
    const upload = save(doc, "compress,garbage=compact,objstms");
    const inputs = await preparedInputs("compress-pdf", {}, [pdfInput("a.pdf", upload)]);
    expect(inputs[0]?.bytes.length).toBeGreaterThan(upload.length);
    const output = await compressPdf(inputs, { quality: "medium" }, noProgress);
    expect(output.bytes.length).toBeLessThanOrEqual(upload.length);
    expect(output.facts).toMatchObject({ original_size: upload.length, pages: 1 });
  });

  it("leaves a sound tree's file as it is", async () => {
    const bytes = textPdf("Sound", 3);
    const [input] = await preparedInputs("split-pdf", {}, [pdfInput("a.pdf", bytes)]);
    expect(input?.bytes).toBe(bytes);
  });
});

describe("a page whose /Annots array holds a null", () => {
  it("compresses (a TypeError in merging duplicate streams was answered PDF_DAMAGED)", async () => {
    const doc = textPdfDocument("Null annotation", 1);
    doc.loadPage(0).createAnnotation("Text").setContents("note");
    doc.findPage(0).get("Annots").push(null);
    const bytes = save(doc, "");
    const output = await compressPdf([pdfInput("a.pdf", bytes)], { quality: "medium" }, noProgress);
    expect(pageTexts(openPdf(output.bytes))).toEqual([pageText("Null annotation", 0)]);
  });
});

/**
 * A page drawing form X1, which draws X0, which draws X1 again (issue19800.pdf): each form shows
 * text in an embedded TrueType font and scales down before drawing the other.
 */
function formCyclePdf(): Uint8Array {
  const doc = new mupdf.PDFDocument();
  const fonts = doc.newDictionary();
  const liberation = readFileSync(
    fileURLToPath(import.meta.resolve("pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf")),
  );
  fonts.put("F1", doc.addSimpleFont(new mupdf.Font("Liberation", liberation)));
  const form = (text: string) =>
    doc.addStream(`BT /F1 24 Tf (${text}) Tj ET 0.5 0 0 0.5 25 25 cm /Next Do`, {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, 0, 1000, 1000],
    });
  const [x1, x0] = [form("Outer form"), form("Inner form")];
  for (const [from, to] of [
    [x1, x0],
    [x0, x1],
  ] as const) {
    const resources = doc.newDictionary();
    resources.put("Font", fonts);
    resources.put("XObject", doc.newDictionary());
    resources.get("XObject").put("Next", to);
    from.put("Resources", resources);
  }
  const resources = doc.addObject({ XObject: { X1: x1 } });
  doc.insertPage(-1, doc.addPage([0, 0, 500, 300], 0, resources, "1 0 0 1 25 25 cm /X1 Do"));
  return save(doc, "");
}

describe("form XObjects that draw each other in a loop", () => {
  it("compresses with the font subset and the loop kept (MuPDF's subsetter trapped: INTERNAL)", async () => {
    const input = formCyclePdf();
    const fontFile = (pdf: mupdf.PDFDocument) => {
      const font = pdf.findPage(0).get("Resources", "XObject", "X1", "Resources", "Font", "F1");
      const descriptor = font.get("FontDescriptor");
      const file = ["FontFile", "FontFile2", "FontFile3"]
        .map((key) => descriptor.get(key))
        .find((found) => found.isStream());
      return file?.readStream().getLength() ?? 0;
    };
    const output = await compressPdf([pdfInput("a.pdf", input)], { quality: "medium" }, noProgress);
    const [before, after] = [openPdf(input), openPdf(output.bytes)];
    expect(output.facts.fonts_subset).toBe(true);
    expect(fontFile(after)).toBeGreaterThan(0);
    expect(fontFile(after)).toBeLessThan(fontFile(before) / 2);
    expect(pageTexts(after)).toEqual(pageTexts(before));
    const x1 = after.findPage(0).get("Resources", "XObject", "X1");
    const back = x1.get("Resources", "XObject", "Next", "Resources", "XObject", "Next");
    expect(back.asIndirect()).toBe(x1.asIndirect());
  });
});

describe("a JBIG2 decompression bomb", () => {
  it("reads the page size from the JBIG2 headers", () => {
    expect(jbig2PageSize(jbig2PageInformation(399, 400))).toEqual({ width: 399, height: 400 });
    expect(jbig2PageSize(jbig2PageInformation(100_000, 100_000))).toEqual({
      width: 100_000,
      height: 100_000,
    });
    expect(jbig2PageSize(new Uint8Array(3))).toBeUndefined();
  });

  it("is refused as IMAGE_TOO_LARGE before any tool decodes it; a page of a normal size passes", async () => {
    const bomb = jbig2Pdf(100_000, 100_000);
    for (const tool of ["compress-pdf", "pdf-to-jpg", "merge-pdf"] as const) {
      await expect(
        preparedInputs(tool, {}, [pdfInput("ok.pdf", jbig2Pdf(399, 400)), pdfInput("b.pdf", bomb)]),
      ).rejects.toMatchObject({
        code: "IMAGE_TOO_LARGE",
        context: { file_index: 1, width: 100_000, height: 100_000, max_pixels: MAX_JBIG2_PIXELS },
      });
    }
    await expect(
      preparedInputs("compress-pdf", {}, [pdfInput("ok.pdf", jbig2Pdf(399, 400))]),
    ).resolves.toHaveLength(1);
  });
});

const present = existsSync(WIDE_CORPUS);
const corpusFile = (name: string) => new Uint8Array(readFileSync(join(WIDE_CORPUS, name)));

describe.skipIf(!present)("the wide corpus's files of these classes", () => {
  it("opens encrypted PDFs MuPDF cannot decrypt but qpdf opens with the empty password", async () => {
    for (const name of ["pr6531_2.pdf", "issue15893_reduced.pdf"]) {
      const inputs = await preparedInputs("compress-pdf", {}, [pdfInput(name, corpusFile(`pdf/${name}`))]);
      const output = await compressPdf(inputs, { quality: "medium" }, noProgress);
      expect([name, openPdf(output.bytes).countPages()]).toEqual([name, 1]);
    }
  });

  it("reads through qpdf's reconstruction the pages MuPDF's repair does not find (fuzzed files)", async () => {
    for (const name of ["GHOSTSCRIPT-698804-1-fuzzed.pdf", "poppler-937-0-fuzzed.pdf"]) {
      const inputs = await preparedInputs("split-pdf", {}, [pdfInput(name, corpusFile(`pdf/${name}`))]);
      expect([name, openPdf(inputs[0]?.bytes ?? new Uint8Array()).countPages()]).toEqual([name, 1]);
    }
  });

  it("compresses issue7665 (AES-256, empty user password) to its one page", async () => {
    const inputs = await preparedInputs("compress-pdf", {}, [
      pdfInput("a.pdf", corpusFile("pdf/issue7665.pdf")),
    ]);
    const output = await compressPdf(inputs, { quality: "medium" }, noProgress);
    expect(pageTexts(openPdf(output.bytes))).toEqual(["Issue 7665"]);
  });

  it("refuses bomb_giant.pdf from its JBIG2 headers", async () => {
    await expect(
      preparedInputs("compress-pdf", {}, [pdfInput("b.pdf", corpusFile("pdf/bomb_giant.pdf"))]),
    ).rejects.toMatchObject({ code: "IMAGE_TOO_LARGE" });
  });

  it("puts only the primary image of a HEIF collection on a page (pitm.avif holds 5 images)", async () => {
    const output = await imagesToPdf(
      [{ name: "pitm.avif", kind: "avif", bytes: corpusFile("img/pitm.avif") }],
      { margin: "none", orientation: "portrait" },
      noProgress,
    );
    expect(openPdf(output.bytes).countPages()).toBe(1);
  });
});

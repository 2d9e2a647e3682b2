/**
 * The classes of files the sweep of ../shared/corpus-wide found mishandled, built in code: a PDF
 * encrypted with an empty user password (compression wrote it with its streams still encrypted: 0
 * pages), and a PDF whose JBIG2 stream declares a 100,000 × 100,000 page (a job ran out of memory
 * decoding it). The named files themselves run when the wide corpus is beside the clone.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WIDE_CORPUS } from "../../bench/sweep.ts";
import { preparedInputs } from "../../container/src/prepared-inputs.ts";
import { compressPdf } from "../../engines/pdf/compress.ts";
import { jbig2PageSize, MAX_JBIG2_PIXELS } from "../../engines/pdf/decode-bombs.ts";
import { imagesToPdf } from "../../engines/pdf/images-to-pdf.ts";
import { openPdf, pageText, pageTexts, pdfInput, save, textPdfDocument } from "./fixtures.ts";

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
  const number = plainDoc.countObjects();
  const root = plainDoc.getTrailer().get("Root").asIndirect();
  const previous = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(plain)?.[1];
  const object = `${number} 0 obj\n${String(encrypt)}\nendobj\n`;
  const xref = plain.length + object.length;
  const update =
    `${object}xref\n${number} 1\n${String(plain.length).padStart(10, "0")} 00000 n \ntrailer\n` +
    `<< /Size ${number + 1} /Root ${root} 0 R /Prev ${previous} /Encrypt ${number} 0 R /ID ${String(locked.getTrailer().get("ID"))} >>\n` +
    `startxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(plain + update, (c) => c.charCodeAt(0));
}

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

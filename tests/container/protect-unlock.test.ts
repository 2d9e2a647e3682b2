/**
 * Protect and Unlock PDF engines, and the shared opening of protected inputs, on PDFs built in
 * code. The encryption is read back by an independent reader: qpdf's --show-encryption (with the
 * password given as UTF-8 bytes, as a terminal would) and its --decrypt.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { afterAll, describe, expect, it } from "vitest";
import { parseToolOptions } from "../../contract/index.ts";
import { inspectPdf } from "../../engines/pdf/inspect.ts";
import { mergePdfs } from "../../engines/pdf/merge.ts";
import { inputPasswords, unlockInputs } from "../../engines/pdf/unlock-inputs.ts";
import mergeTool from "../../tools/merge-pdf/tool.ts";
import { permissionValue, protectPdf } from "../../tools/protect/protect-pdf.ts";
import protectTool from "../../tools/protect/tool.ts";
import { unlockPdf } from "../../tools/unlock/unlock-pdf.ts";
import { pdfOfObjects } from "../worker/fixtures.ts";
import { bytesOf, corpus, corpusFiles } from "./corpus-files.ts";
import { engineFailure } from "./engine-failure.ts";
import { pageText, pageTexts, pdfInput, save, textPdf, textPdfDocument } from "./fixtures.ts";

const HINDI = "गुप्त-पासवर्ड१२३";
const TAMIL = "இரகசியம்2026";
const dir = mkdtempSync(join(tmpdir(), "protect-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noProgress = () => {};

function protectOptions(fields: Record<string, string>) {
  const parsed = parseToolOptions("protect", fields);
  if (!parsed.success) throw new Error(parsed.issues);
  return parsed.data;
}

async function protect(bytes: Uint8Array, fields: Record<string, string>) {
  return protectPdf([pdfInput("report.pdf", bytes)], protectOptions(fields), noProgress);
}

/** qpdf's report on the file opened with `password` (exit status 0 or 3 = warnings). */
function qpdfEncryption(bytes: Uint8Array, password: string): { status: number; text: string } {
  const path = join(dir, `in-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  const run = spawnSync("qpdf", [`--password=${password}`, "--show-encryption", path], { encoding: "utf8" });
  return { status: run.status ?? -1, text: `${run.stdout}${run.stderr}` };
}

/** `qpdf --check` opened with `password`: its exit status (0 clean, 3 warnings, 2 errors) and warnings. */
function qpdfCheck(bytes: Uint8Array, password: string): { status: number; warnings: string } {
  const path = join(dir, `check-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  const run = spawnSync("qpdf", [`--password=${password}`, "--check", path], { encoding: "utf8" });
  return { status: run.status ?? -1, warnings: run.stderr.trim() };
}

/** The file qpdf writes with the encryption removed, opened with `password`. */
function qpdfDecrypt(bytes: Uint8Array, password: string): Uint8Array {
  const input = join(dir, "locked.pdf");
  const output = join(dir, "open.pdf");
  writeFileSync(input, bytes);
  execFileSync("qpdf", [`--password=${password}`, "--decrypt", input, output]);
  return new Uint8Array(readFileSync(output));
}

describe("protect", () => {
  it("encrypts with AES-256 revision 6, readable by qpdf with the password only", async () => {
    const { bytes, facts } = await protect(textPdf("Report", 3), { password: "correct horse" });
    const report = qpdfEncryption(bytes, "correct horse");
    expect(report.status).toBe(0);
    expect(report.text).toContain("R = 6");
    expect(report.text).toContain("file encryption method: AESv3");
    expect(report.text).toContain("Supplied password is user password");
    expect(report.text).toContain("P = -4");
    expect(qpdfEncryption(bytes, "wrong").text).toContain("Incorrect password supplied");
    expect(pageTexts(new mupdf.PDFDocument(qpdfDecrypt(bytes, "correct horse")))).toEqual(
      [0, 1, 2].map((i) => pageText("Report", i)),
    );
    expect(facts).toMatchObject({ pages: 3, encryption: "AES-256", owner_password: false });
  });

  it.each([
    ["Hindi", HINDI],
    ["Tamil", TAMIL],
    ["with a comma and an equals sign", "a,b=c"],
  ])("opens with a %s password, in qpdf and in MuPDF", async (_, password) => {
    const { bytes } = await protect(textPdf("Unicode", 2), { password });
    const report = qpdfEncryption(bytes, password);
    expect(report.text).toContain("Supplied password is user password");
    expect(report.text).toContain("R = 6");
    const doc = new mupdf.PDFDocument(bytes);
    expect(doc.needsPassword()).toBe(true);
    expect(doc.authenticatePassword(password)).toBe(2);
  });

  it("applies SASLprep: a password typed with a no-break space opens with a plain space", async () => {
    const { bytes } = await protect(textPdf("Prep", 1), { password: "two\u00a0words" });
    expect(qpdfEncryption(bytes, "two words").text).toContain("Supplied password is user password");
  });

  it("sets the chosen permissions, and an owner password that lifts them", async () => {
    const fields = {
      password: "user",
      owner_password: "owner",
      allow_printing: "false",
      allow_copying: "false",
      allow_editing: "true",
      allow_forms: "true",
      allow_annotations: "false",
    };
    const { bytes } = await protect(textPdf("Rights", 1), fields);
    const asUser = qpdfEncryption(bytes, "user").text;
    expect(asUser).toContain("print high resolution: not allowed");
    expect(asUser).toContain("extract for any purpose: not allowed");
    expect(asUser).toContain("extract for accessibility: allowed");
    expect(asUser).toContain("modify forms: allowed");
    expect(asUser).toContain("modify document assembly: allowed");
    expect(asUser).toContain("modify annotations: not allowed");
    expect(asUser).toContain(`P = ${permissionValue(protectOptions(fields))}`);
    expect(qpdfEncryption(bytes, "owner").text).toContain("Supplied password is owner password");
  });

  it("without an owner password, the empty one does not lift the permissions", async () => {
    const { bytes } = await protect(textPdf("Owner", 1), { password: "user", allow_printing: "false" });
    const doc = new mupdf.PDFDocument(bytes);
    expect(doc.authenticatePassword("")).toBe(0);
    expect(doc.authenticatePassword("user")).toBe(2);
  });

  it("counts the signatures its encryption invalidates", async () => {
    const { facts } = await protect(textPdf("Signed", 1, { signed: true }), { password: "p" });
    expect(facts.signatures_invalidated).toBe(1);
  });

  it("protects a protected PDF anew when given its current password (input_password)", async () => {
    const locked = (await protect(textPdf("Again", 2), { password: "old" })).bytes;
    const options = protectOptions({ password: "new", input_password: "old" });
    const inputs = unlockInputs([pdfInput("a.pdf", locked)], inputPasswords(protectTool, options, 1));
    const { bytes } = await protectPdf(inputs, options, noProgress);
    const doc = new mupdf.PDFDocument(bytes);
    expect(doc.authenticatePassword("old")).toBe(0);
    expect(doc.authenticatePassword("new")).toBe(2);
    expect(qpdfEncryption(bytes, "new").text).toContain("R = 6");
  });

  it("protects a repaired PDF holding a damaged object nothing uses (wide corpus: filled-background.pdf)", async () => {
    const leftover = pdfOfObjects([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
      "<< /Length 20 >>\nstream\nBT /F1 12 Tf ET    \nendstream",
      "<< 1 2 >>",
    ]);
    const { bytes, facts } = await protect(leftover, { password: HINDI });
    expect(facts.pages).toBe(1);
    expect(qpdfEncryption(bytes, HINDI).text).toMatch(/^R = 6$/m);
  });

  it("writes empty streams whole (wide corpus: GHOSTSCRIPT-698804-1-fuzzed.pdf), unlocked as empty", async () => {
    // MuPDF's encrypted save wrote an empty stream with the Length of 32 encrypted bytes and none
    // of them: qpdf recovered the length with a warning, and Unlock's output of it was damaged.
    const empty = pdfOfObjects([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
      // qpdf's rewrite of the fuzzed file: its empty page content as /FlateDecode over nothing.
      "<< /Length 0 /Filter /FlateDecode >>\nstream\n\nendstream",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 6 0 R >>",
      "<< /Length 0 >>\nstream\n\nendstream",
    ]);
    const { bytes } = await protect(empty, { password: HINDI });
    expect(qpdfCheck(bytes, HINDI)).toEqual({ status: 0, warnings: "" });
    const unlocked = await unlockPdf([pdfInput("locked.pdf", bytes)], { password: HINDI }, noProgress);
    expect(qpdfCheck(unlocked.bytes, "")).toEqual({ status: 0, warnings: "" });
    const doc = new mupdf.PDFDocument(unlocked.bytes);
    expect([0, 1].map((i) => doc.findPage(i).get("Contents").readStream().getLength())).toEqual([0, 0]);
  });

  it("refuses a PDF that needs a password, and bad passwords as options", async () => {
    const locked = (await protect(textPdf("Locked", 1), { password: "old" })).bytes;
    expect((await engineFailure(protect(locked, { password: "new" }))).code).toBe("PDF_ENCRYPTED");
    expect(parseToolOptions("protect", {}).success).toBe(false);
    expect(parseToolOptions("protect", { password: "" }).success).toBe(false);
    // 43 Tamil letters are 129 bytes of UTF-8: over R6's 127.
    expect(parseToolOptions("protect", { password: "த".repeat(43) }).success).toBe(false);
    expect(parseToolOptions("protect", { password: "த".repeat(42) }).success).toBe(true);
    expect(parseToolOptions("protect", { password: "x", allow_printing: "maybe" }).success).toBe(false);
  });
});

describe("unlock", () => {
  const unlock = (bytes: Uint8Array, password: string) =>
    unlockPdf([pdfInput("locked.pdf", bytes)], { password }, noProgress);

  it("removes the encryption: no /Encrypt, same pages and text", async () => {
    const locked = (await protect(textPdf("Open", 4), { password: HINDI, owner_password: "o" })).bytes;
    const { bytes, facts } = await unlock(locked, HINDI);
    const doc = new mupdf.PDFDocument(bytes);
    expect(doc.getTrailer().get("Encrypt").isNull()).toBe(true);
    expect(doc.needsPassword()).toBe(false);
    expect(pageTexts(doc)).toEqual([0, 1, 2, 3].map((i) => pageText("Open", i)));
    expect(facts.pages).toBe(4);
    expect(qpdfEncryption(bytes, "").text).toContain("File is not encrypted");
  });

  it("takes the owner password too, also of a PDF that opens without one", async () => {
    const permissionsOnly = save(
      textPdfDocument("Rights", 2),
      JSON.stringify({
        encrypt: "aes-256",
        "user-password": "",
        "owner-password": "own",
        permissions: "-3904",
      }),
    );
    const { bytes } = await unlock(permissionsOnly, "own");
    expect(new mupdf.PDFDocument(bytes).getTrailer().get("Encrypt").isNull()).toBe(true);
    // It opens without a password, as in every viewer: a wrong guess at the owner password does
    // not stand in the way (it was PDF_WRONG_PASSWORD; unlock-without-password.test.ts).
    const guessed = await unlock(permissionsOnly, "guess");
    expect(new mupdf.PDFDocument(guessed.bytes).getTrailer().get("Encrypt").isNull()).toBe(true);
  });

  it("names a wrong password and a PDF without encryption", async () => {
    const locked = (await protect(textPdf("Locked", 1), { password: TAMIL })).bytes;
    const wrong = await engineFailure(unlock(locked, "இரகசியம்"));
    expect(wrong.toBody()).toMatchObject({ code: "PDF_WRONG_PASSWORD", context: { file_index: 0 } });
    expect((await engineFailure(unlock(textPdf("Plain", 1), "x"))).code).toBe("PDF_NOT_ENCRYPTED");
  });
});

describe("protected inputs of the other PDF tools", () => {
  it("merge opens each protected input with its own password, or the shared one", async () => {
    const first = (await protect(textPdf("First", 2), { password: HINDI })).bytes;
    const second = (await protect(textPdf("Second", 1), { password: "shared" })).bytes;
    const inputs = [
      pdfInput("a.pdf", first),
      pdfInput("b.pdf", second),
      pdfInput("c.pdf", textPdf("Third", 1)),
    ];
    const parsed = parseToolOptions("merge-pdf", { password: "shared", passwords: JSON.stringify([HINDI]) });
    if (!parsed.success) throw new Error(parsed.issues);
    const opened = unlockInputs(inputs, inputPasswords(mergeTool, parsed.data, inputs.length));
    const { bytes } = await mergePdfs(opened, parsed.data, noProgress);
    expect(pageTexts(new mupdf.PDFDocument(bytes))).toEqual([
      pageText("First", 0),
      pageText("First", 1),
      pageText("Second", 0),
      pageText("Third", 0),
    ]);
  });

  it("a wrong password names the file; a missing one leaves PDF_ENCRYPTED to the tool", async () => {
    const locked = (await protect(textPdf("Locked", 1), { password: "right" })).bytes;
    const inputs = [pdfInput("a.pdf", textPdf("Open", 1)), pdfInput("b.pdf", locked)];
    let caught: unknown;
    try {
      unlockInputs(inputs, [undefined, "wrong"]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: "PDF_WRONG_PASSWORD", context: { file_index: 1 } });
    const untouched = unlockInputs(inputs, [undefined, undefined]);
    expect(untouched[1]?.bytes).toBe(locked);
    expect(() => inspectPdf(locked)).toThrow(expect.objectContaining({ code: "PDF_ENCRYPTED" }));
    expect(inspectPdf(locked, "right")).toMatchObject({ pages: 1 });
  });

  it("only the options a tool declares as opening its inputs are used for that", () => {
    expect(inputPasswords(protectTool, { password: "new" }, 1)).toEqual([undefined]);
    expect(inputPasswords(protectTool, { password: "new", input_password: "old" }, 1)).toEqual(["old"]);
    expect(inputPasswords(mergeTool, { password: "p", passwords: ["", "q"] }, 3)).toEqual(["p", "q", "p"]);
  });
});

describe.skipIf(!existsSync(corpus))("protect and unlock on the corpus", () => {
  const files = existsSync(corpus)
    ? corpusFiles().filter((f) => f.encrypted === "no" && f.pages > 0 && f.pages < 500)
    : [];

  it("protects every unencrypted file (qpdf opens it, R6, with a Hindi password) and unlocks it with its pages", async () => {
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const { bytes } = await protect(bytesOf(f.file), { password: HINDI });
      const report = qpdfEncryption(bytes, HINDI);
      expect([f.file, report.text.includes("R = 6")]).toEqual([f.file, true]);
      const back = await unlockPdf([pdfInput(f.file, bytes)], { password: HINDI }, noProgress);
      expect([f.file, back.facts.pages]).toEqual([f.file, f.pages]);
    }
  }, 240_000);
});

/**
 * Unlock PDF on files that open without a password (the empty user password, an owner password
 * restricting printing, copying and editing), written by qpdf as an independent writer with
 * AES-256 (R6) and RC4-128 (R3): unlocked with no password, an empty one or any other typed, the
 * output has no encryption (`qpdf --show-encryption`) and the same pages and text. A file that
 * needs its password and has none is PDF_ENCRYPTED.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { afterAll, describe, expect, it } from "vitest";
import { parseToolOptions } from "../../contract/index.ts";
import { unlockPdf } from "../../tools/unlock/unlock-pdf.ts";
import { qpdfEncrypted } from "../support/qpdf-encrypted.ts";
import { engineFailure } from "./engine-failure.ts";
import { pageText, pageTexts, pdfInput, textPdf } from "./fixtures.ts";

const dir = mkdtempSync(join(tmpdir(), "unlock-open-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `qpdf --show-encryption` of `bytes` opened without a password. */
function encryptionReport(bytes: Uint8Array): string {
  const path = join(dir, `report-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  const run = spawnSync("qpdf", ["--show-encryption", path], { encoding: "utf8" });
  return `${run.stdout}${run.stderr}`;
}

const unlock = (bytes: Uint8Array, password?: string) =>
  unlockPdf([pdfInput("statement.pdf", bytes)], password === undefined ? {} : { password }, () => {});

describe("unlock a PDF that opens without a password", () => {
  it.each([
    ["AES-256", 256, "R = 6"],
    ["RC4-128", 128, "R = 3"],
  ] as const)(
    "%s, owner password only: no password, an empty one or a wrong one",
    async (_, bits, revision) => {
      const locked = qpdfEncrypted(textPdf("Statement", 3), "", "bank-owner", bits);
      const before = encryptionReport(locked);
      expect(before).toContain(revision);
      expect(before).toContain("print high resolution: not allowed");
      for (const password of [undefined, "", "not the owner password"]) {
        const { bytes, facts } = await unlock(locked, password);
        expect([password, encryptionReport(bytes)]).toEqual([
          password,
          expect.stringContaining("File is not encrypted"),
        ]);
        const doc = new mupdf.PDFDocument(bytes);
        expect(doc.getTrailer().get("Encrypt").isNull()).toBe(true);
        expect(pageTexts(doc)).toEqual([0, 1, 2].map((i) => pageText("Statement", i)));
        expect(facts.pages).toBe(3);
      }
    },
  );

  it("a PDF that needs its password: none or an empty one is PDF_ENCRYPTED, a wrong one PDF_WRONG_PASSWORD", async () => {
    const locked = qpdfEncrypted(textPdf("Private", 1), "user-secret", "owner-secret", 256);
    for (const password of [undefined, ""]) {
      expect((await engineFailure(unlock(locked, password))).toBody()).toMatchObject({
        code: "PDF_ENCRYPTED",
        context: { file_index: 0 },
      });
    }
    expect((await engineFailure(unlock(locked, "guess"))).code).toBe("PDF_WRONG_PASSWORD");
    const { bytes } = await unlock(locked, "user-secret");
    expect(encryptionReport(bytes)).toContain("File is not encrypted");
  });

  it("a PDF the converter opened with the empty password (qpdf) is its decrypted copy; a repaired one is not encrypted", async () => {
    const upload = qpdfEncrypted(textPdf("Opened", 2), "", "owner", 256);
    const decrypted = textPdf("Opened", 2);
    const opened = await unlockPdf([{ ...pdfInput("a.pdf", decrypted), uploaded: upload }], {}, () => {});
    expect(opened.bytes).toBe(decrypted);
    const repaired = unlockPdf(
      [{ ...pdfInput("b.pdf", decrypted), uploaded: textPdf("Opened", 2) }],
      {},
      () => {},
    );
    expect((await engineFailure(repaired)).code).toBe("PDF_NOT_ENCRYPTED");
  });

  it("takes the password absent or empty as an option", () => {
    expect(parseToolOptions("unlock", {}).success).toBe(true);
    expect(parseToolOptions("unlock", { password: "" }).success).toBe(true);
    expect(parseToolOptions("unlock", { password: "த".repeat(43) }).success).toBe(false);
  });
});

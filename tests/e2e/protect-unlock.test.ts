import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as mupdf from "mupdf";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parseToolOptions } from "../../contract/index.ts";
import { protectPdf } from "../../tools/protect/protect-pdf.ts";
import { pageText, pageTexts, pdfInput, textPdf } from "../container/fixtures.ts";
import { qpdfEncrypted } from "../support/qpdf-encrypted.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();
const dir = mkdtempSync(join(tmpdir(), "protect-e2e-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** qpdf's encryption report of `bytes` opened with `password`. */
function qpdfEncryption(bytes: Uint8Array, password: string): string {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, bytes);
  const run = spawnSync("qpdf", [`--password=${password}`, "--show-encryption", path], { encoding: "utf8" });
  return `${run.stdout}${run.stderr}`;
}

async function lockedPdf(label: string, pages: number, password: string): Promise<Uint8Array> {
  const options = parseToolOptions("protect", { password });
  if (!options.success) throw new Error(options.issues);
  return (await protectPdf([pdfInput(`${label}.pdf`, textPdf(label, pages))], options.data, () => {})).bytes;
}

describe("Protect PDF in Hindi", () => {
  it("asks for the password twice, shows its strength and the notes, and encrypts with AES-256", async () => {
    const t = translator("hi");
    const page = await newPage();
    await page.goto(`${siteUrl}/hi/tools/protect`);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "योजना.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("Plan", 2)) },
      ]);
    for (const note of ["encryption", "permissions", "signatures", "forget"]) {
      expect(await page.getByText(t(`protect:notes.${note}`)).count(), note).toBe(1);
    }
    const password = "मेरा-गुप्त-पासवर्ड-२०२६";
    const button = page.getByTestId("protect-button");
    await page.getByTestId("password").fill(password);
    await page.getByTestId("password-repeat").fill(`${password}x`);
    expect(await page.getByText(t("protect:mismatch")).count()).toBe(1);
    expect(await button.isDisabled()).toBe(true);
    await page.getByTestId("password-repeat").fill(password);
    // One "show" checkbox, in the shared field, shows all three passwords.
    const fields = ["password", "password-repeat", "owner-password"].map((field) => page.getByTestId(field));
    expect(await page.getByRole("checkbox", { name: t("protect:show") }).count()).toBe(1);
    await page.getByTestId("password-show").check();
    expect(await Promise.all(fields.map((field) => field.getAttribute("type")))).toEqual([
      "text",
      "text",
      "text",
    ]);
    await page.getByTestId("password-show").uncheck();
    expect(await Promise.all(fields.map((field) => field.getAttribute("type")))).toEqual([
      "password",
      "password",
      "password",
    ]);
    expect(await page.getByTestId("password-strength").getAttribute("data-strength")).toBe("strong");
    expect(await page.getByTestId("password-strength").textContent()).toContain(t("protect:strength.strong"));
    await page.getByLabel(t("protect:permissions.allow_printing")).uncheck();
    await expect.poll(() => button.isDisabled(), { timeout: 30_000 }).toBe(false);
    await button.click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await page.getByRole("heading", { name: t("protect:resultTitle") }).count()).toBe(1);

    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("योजना-protected.pdf");
    const report = qpdfEncryption(file.bytes, password);
    expect(report).toContain("R = 6");
    expect(report).toContain("Supplied password is user password");
    expect(report).toContain("print high resolution: not allowed");
    expect(report).toContain("extract for any purpose: allowed");
    await page.context().close();
  });
});

describe("Protect PDF in English", () => {
  it("opens a PDF protected already with its current password, then protects it with the new one", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/protect`);
    const old = await lockedPdf("Old", 1, "old secret");
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "old.pdf", mimeType: "application/pdf", buffer: Buffer.from(old) }]);
    const prompt = page.getByTestId("pdf-password-prompt");
    await expect.poll(() => prompt.isVisible(), { timeout: 60_000 }).toBe(true);
    await page.getByTestId("pdf-password").fill("old secret");
    await prompt.getByRole("checkbox", { name: t("pdfPassword.show") }).check();
    expect(await page.getByTestId("pdf-password").getAttribute("type")).toBe("text");
    await page.getByTestId("pdf-password-open").click();
    await expect.poll(() => prompt.count(), { timeout: 60_000 }).toBe(0);
    await page.getByTestId("password").fill("new secret");
    await page.getByTestId("password-repeat").fill("new secret");
    const button = page.getByTestId("protect-button");
    await expect.poll(() => button.isDisabled(), { timeout: 30_000 }).toBe(false);
    await button.click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(qpdfEncryption(file.bytes, "new secret")).toContain("Supplied password is user password");
    expect(qpdfEncryption(file.bytes, "old secret")).toContain("Incorrect password supplied");
    await page.context().close();
  });
});

describe("Unlock PDF in Tamil", () => {
  it("names a wrong password, then unlocks with the right one", async () => {
    const t = translator("ta");
    const password = "இரகசியம்2026";
    const locked = await lockedPdf("Report", 3, password);
    const page = await newPage();
    await page.goto(`${siteUrl}/ta/tools/unlock`);
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.from(locked) }]);
    const button = page.getByTestId("unlock-button");
    expect(await button.isDisabled()).toBe(true);
    await page.getByTestId("password").fill("இரகசியம்");
    await page.getByRole("checkbox", { name: t("pdfPassword.show") }).check();
    expect(await page.getByTestId("password").getAttribute("type")).toBe("text");
    await button.click();
    await expect
      .poll(() => page.getByText(t("errors.codes.PDF_WRONG_PASSWORD"), { exact: false }).count(), {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    // A PDF that needs its password is not said to open without one.
    expect(await page.getByTestId("opens-without-password").count()).toBe(0);
    // The file and the typed password stay for the correction.
    expect(await page.getByTestId("chosen-pdf").textContent()).toContain("report.pdf");
    await page.getByTestId("password").fill(password);
    await button.click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("report-unlocked.pdf");
    const doc = mupdf.PDFDocument.openDocument(file.bytes, "application/pdf") as mupdf.PDFDocument;
    expect(doc.getTrailer().get("Encrypt").isNull()).toBe(true);
    expect(pageTexts(doc)).toEqual([0, 1, 2].map((i) => pageText("Report", i)));
    await page.context().close();
  });
});

describe("Unlock PDF in German", () => {
  it("says a PDF opens without a password and unlocks it without one typed", async () => {
    const t = translator("de");
    // A bank statement's kind: no password to open it, an owner password restricting it.
    const restricted = qpdfEncrypted(textPdf("Statement", 2), "", "bank-owner", 256);
    expect(qpdfEncryption(restricted, "")).toContain("print high resolution: not allowed");
    const page = await newPage();
    await page.goto(`${siteUrl}/de/tools/unlock`);
    await page
      .getByTestId("file-input")
      .setInputFiles([{ name: "auszug.pdf", mimeType: "application/pdf", buffer: Buffer.from(restricted) }]);
    const note = page.getByTestId("opens-without-password");
    await expect.poll(() => note.isVisible(), { timeout: 60_000 }).toBe(true);
    expect(await note.textContent()).toBe(t("unlock:opensWithoutPassword"));
    expect(await page.getByTestId("password").inputValue()).toBe("");
    const button = page.getByTestId("unlock-button");
    expect(await button.isDisabled()).toBe(false);
    await button.click();
    await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 60_000 }).toBe(true);
    const file = await downloadBytes(page, () =>
      page.getByRole("button", { name: t("result.download"), exact: true }).click(),
    );
    expect(file.name).toBe("auszug-unlocked.pdf");
    expect(qpdfEncryption(file.bytes, "")).toContain("File is not encrypted");
    const doc = mupdf.PDFDocument.openDocument(file.bytes, "application/pdf") as mupdf.PDFDocument;
    expect(pageTexts(doc)).toEqual([0, 1].map((i) => pageText("Statement", i)));
    await page.context().close();
  });
});

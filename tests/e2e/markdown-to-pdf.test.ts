import * as mupdf from "mupdf";
import { describe, expect, inject, it } from "vitest";
import { pdfText } from "../support/script-text.ts";
import { chromiumPages, downloadBytes, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();

const MARKDOWN = [
  "# Release notes",
  "हिन्दी में क्षत्रिय और श्री। తెలుగు భాషలో శ్రీ. தமிழ் மொழி.",
  "| a | b |\n|---|--:|\n| one | two |",
  "![logo from the web](https://example.org/logo.png)",
].join("\n\n");

async function convertIn(lang: string, pageSize: "a4" | "letter") {
  const t = translator(lang);
  const page = await newPage();
  await page.goto(`${siteUrl}/${lang}/tools/markdown-to-pdf`);
  await page
    .getByTestId("file-input")
    .setInputFiles([{ name: "release.md", mimeType: "text/markdown", buffer: Buffer.from(MARKDOWN) }]);
  const chosen = page.getByTestId("chosen-file");
  await expect.poll(() => chosen.textContent()).toContain("release.md");
  // Spec §2: the size in KB (one decimal under 1 MB), here under 1 KB so in bytes.
  const size = Buffer.byteLength(MARKDOWN);
  expect(await page.getByTestId("file-size").textContent()).toMatch(new RegExp(String(size)));
  if (pageSize === "letter") await page.getByLabel(t("markdown-to-pdf:pageSizes.letter.label")).check();
  await page.getByTestId("convert-button").click();
  await expect.poll(() => page.getByTestId("result-panel").isVisible(), { timeout: 90_000 }).toBe(true);
  expect(await page.getByRole("heading", { name: t("markdown-to-pdf:resultTitle") }).count()).toBe(1);
  expect(await page.getByTestId("images-replaced").textContent()).toBe(
    t("markdown-to-pdf:imagesReplaced_one", { count: 1 }),
  );
  const file = await downloadBytes(page, () =>
    page.getByRole("button", { name: t("markdown-to-pdf:download", { name: "release.pdf" }) }).click(),
  );
  await page.context().close();
  return file;
}

describe("Markdown to PDF in the browser", () => {
  it("converts on A4 in English and names the PDF after the file", async () => {
    const file = await convertIn("en", "a4");
    expect(file.name).toBe("release.pdf");
    const doc = mupdf.Document.openDocument(file.bytes, "application/pdf");
    const [, , width, height] = doc.loadPage(0).getBounds();
    expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
    const text = pdfText(new Uint8Array(file.bytes));
    expect(text).toContain("Release notes");
    expect(text).toContain("[logo from the web]");
    expect(text).toContain("తెలుగు");
  });

  it("converts on Letter with the interface in Telugu", async () => {
    const file = await convertIn("te", "letter");
    const doc = mupdf.Document.openDocument(file.bytes, "application/pdf");
    const [, , width, height] = doc.loadPage(0).getBounds();
    expect([width, height]).toEqual([612, 792]);
    expect(pdfText(new Uint8Array(file.bytes))).toContain("क्षत्रिय");
  });
});

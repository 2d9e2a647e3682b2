/** validate-pdf streams the PDF through R2 to the converter and keeps nothing afterwards. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_PATHS, validatePdfResponseSchema } from "../../contract/index.ts";
import { paddedPdf } from "../support/padded-pdf.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { damagedPdf, makePdf } from "./fixtures.ts";

async function objectsNamed(marker: string): Promise<string[]> {
  const listing = await env.FILES.list({ prefix: "tasks/", include: ["customMetadata"] });
  return listing.objects
    .filter((o) => decodeURIComponent(o.customMetadata?.name ?? "").startsWith(marker))
    .map((o) => o.key);
}

describe("validate-pdf", () => {
  it("answers the page count of a PDF larger than one R2 part and deletes its copy", async () => {
    const marker = `validate-${crypto.randomUUID()}`;
    const response = await new ApiClient().send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: `${marker}.pdf`, bytes: paddedPdf(12 * 1024 * 1024) }]),
    );
    expect(response.status).toBe(200);
    expect(validatePdfResponseSchema.parse(await response.json()).total_pages).toBe(1);
    expect(await objectsNamed(marker)).toEqual([]);
  });

  it("deletes its copy when the converter refuses the PDF", async () => {
    const marker = `validate-bad-${crypto.randomUUID()}`;
    const response = await new ApiClient().send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: `${marker}.pdf`, bytes: damagedPdf() }]),
    );
    expect(response.status).toBe(422);
    expect((await errorOf(response)).error.code).toMatch(/^PDF_/);
    expect(await objectsNamed(marker)).toEqual([]);
  });

  it.each([
    ["a password-protected PDF", makePdf(2, "Locked", { encrypted: true }), "PDF_ENCRYPTED"],
    ["a PDF with no pages", makePdf(0), "PDF_NO_PAGES"],
    ["a PDF with no readable object", damagedPdf(), "PDF_DAMAGED"],
  ])("names the cause of %s", async (_, bytes, code) => {
    const response = await new ApiClient().send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: "input.pdf", bytes }]),
    );
    expect(response.status).toBe(422);
    expect((await errorOf(response)).error.code).toBe(code);
  });

  it("refuses a file that is not a PDF, whatever its name", async () => {
    const response = await new ApiClient().send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: "photo.pdf", bytes: new TextEncoder().encode("just some text, no PDF header") }]),
    );
    expect(response.status).toBe(415);
    expect((await errorOf(response)).error.code).toBe("UNSUPPORTED_FILE_TYPE");
  });

  it("counts the pages of a PDF it had to repair, and says it was repaired", async () => {
    const response = await new ApiClient().send(
      "POST",
      API_PATHS.validatePdf,
      form("file", [{ name: "broken.pdf", bytes: makePdf(3, "Broken", { brokenXref: true }) }]),
    );
    expect(response.status).toBe(200);
    expect(validatePdfResponseSchema.parse(await response.json())).toEqual({
      total_pages: 3,
      repaired: true,
    });
  });
});

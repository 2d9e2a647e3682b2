/**
 * Starts the real converter (container/) as a Node HTTP service for the worker tests; the Worker
 * reaches it through CONVERTER_URL with CONVERTER_SECRET (vitest.config.ts injects both).
 */
import type { TestProject } from "vitest/node";
import { startConverter } from "../../container/src/server.ts";
import { qpdfEncrypted } from "../support/qpdf-encrypted.ts";
import { scanImage, scanPdf } from "../support/scan-pages.ts";
import { makePdf } from "./fixtures.ts";
import { SCAN_TEXT } from "./scan-text.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const secret = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  const converter = await startConverter({ port: 0, secret });
  project.provide("converterUrl", converter.url);
  project.provide("converterSecret", secret);
  // A one-page scan for the OCR tests (text drawn to a 200 dpi JPEG in a PDF): MuPDF and sharp run here, not in workerd.
  const scan = scanPdf([await scanImage({ markdown: `# Scanned page\n\n${SCAN_TEXT}.` })]);
  project.provide("scanPdf", Buffer.from(scan).toString("base64"));
  // Two pages that open without a password, an owner password restricting them (qpdf runs here).
  const ownerOnly = qpdfEncrypted(makePdf(2, "Statement"), "", "bank-owner", 256);
  project.provide("ownerOnlyPdf", Buffer.from(ownerOnly).toString("base64"));
  return () => converter.close();
}

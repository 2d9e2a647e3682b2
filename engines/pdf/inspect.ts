import { openPdf } from "./open-pdf.ts";

/** Page count of one PDF, with the same error rules as every PDF tool (see open-pdf.ts). */
export function inspectPdf(bytes: Uint8Array): { pages: number } {
  const pdf = openPdf(bytes, 0);
  try {
    return { pages: pdf.countPages() };
  } finally {
    pdf.destroy();
  }
}

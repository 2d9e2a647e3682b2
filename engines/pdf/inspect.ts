import { openPdf, wasRepaired } from "./open-pdf.ts";

/**
 * Page count of one PDF, with the same error rules as every PDF tool (see open-pdf.ts), and
 * whether MuPDF had to repair it to get there.
 */
export function inspectPdf(bytes: Uint8Array): { pages: number; repaired: boolean } {
  const pdf = openPdf(bytes, 0);
  try {
    return { pages: pdf.countPages(), repaired: wasRepaired(pdf) };
  } finally {
    pdf.destroy();
  }
}

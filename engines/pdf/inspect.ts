import { openPdf, wasRepaired } from "./open-pdf.ts";
import { unlockInputs } from "./unlock-inputs.ts";

/**
 * Page count of one PDF, with the same error rules as every PDF tool (see open-pdf.ts), and
 * whether MuPDF had to repair it to get there. With `password`, a protected PDF is opened with it
 * as the tools will open it (PDF_WRONG_PASSWORD when it does not).
 */
export function inspectPdf(bytes: Uint8Array, password?: string): { pages: number; repaired: boolean } {
  const [input] = unlockInputs([{ name: "", kind: "pdf", bytes }], [password]);
  const pdf = openPdf(input?.bytes ?? bytes, 0);
  try {
    return { pages: pdf.countPages(), repaired: wasRepaired(pdf) };
  } finally {
    pdf.destroy();
  }
}

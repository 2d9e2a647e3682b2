import type * as mupdf from "mupdf";
import { AppError, type JobFacts } from "../../contract/index.ts";
import type { EngineInput, EngineOutput, ProgressReporter } from "../types.ts";
import { isOutOfMemory, loadEveryObject, openPdf, wasRepaired } from "./open-pdf.ts";
import { qpdf } from "./open-without-password.ts";
import { asPdfJobError, savePdf } from "./write-pdf.ts";

/**
 * The document as qpdf writes it, when MuPDF loads every object of that copy: qpdf reads some
 * objects MuPDF cannot (a name with a space, "/BaseFont /AASGAA+Arial,Unicode MS" in
 * issue11549_reduced.pdf: MuPDF took the font for null, and the page lost its text). Else undefined.
 */
async function parsedByQpdf(bytes: Uint8Array): Promise<mupdf.PDFDocument | undefined> {
  const copy = await qpdf(bytes, []);
  if (copy === undefined) return undefined;
  let doc: mupdf.PDFDocument | undefined;
  try {
    doc = openPdf(copy, 0);
    if (loadEveryObject(doc) === 0) return doc;
  } catch (error) {
    if (isOutOfMemory(error)) throw error;
  }
  doc?.destroy();
  return undefined;
}

/** Lossless save: unused objects dropped, streams deflated, small objects packed. */
const SAVE_OPTIONS = "garbage=compact,compress,objstms";

/**
 * A tool that changes one PDF in place (its pages reordered, numbered, stamped): opens the input
 * with the shared rules, lets `edit` work on it (its facts join the page count and the repair
 * flag), saves it losslessly. Every object is loaded first (loadEveryObject). `job` names the work in English error messages.
 */
export async function editPdf(
  inputs: readonly EngineInput[],
  job: string,
  progress: ProgressReporter,
  edit: (doc: mupdf.PDFDocument) => Promise<JobFacts>,
): Promise<EngineOutput> {
  const input = inputs[0];
  if (input === undefined) throw new AppError("NO_FILE", `No PDF to ${job}.`);
  let doc = openPdf(input.bytes, 0);
  let rewritten = false;
  try {
    // Any repair before the edit: one during the save would drop it.
    if (loadEveryObject(doc) > 0) {
      const parsed = await parsedByQpdf(input.bytes);
      if (parsed !== undefined) {
        doc.destroy();
        doc = parsed;
        rewritten = true;
      }
    }
    const facts = await edit(doc);
    const bytes = savePdf(doc, SAVE_OPTIONS);
    progress(100);
    const repaired = rewritten || wasRepaired(doc);
    return {
      bytes,
      facts: { pages: doc.countPages(), ...facts, ...(repaired ? { repaired_files: 1 } : {}) },
    };
  } catch (error) {
    throw asPdfJobError(error, job, { file_index: 0 });
  } finally {
    doc.destroy();
  }
}

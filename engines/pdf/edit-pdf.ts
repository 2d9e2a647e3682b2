import type * as mupdf from "mupdf";
import { AppError, type JobFacts } from "../../contract/index.ts";
import type { EngineInput, EngineOutput, ProgressReporter } from "../types.ts";
import { loadEveryObject, openPdf, wasRepaired } from "./open-pdf.ts";
import { asPdfJobError, savePdf } from "./write-pdf.ts";

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
  const doc = openPdf(input.bytes, 0);
  try {
    // Any repair before the edit: one during the save would drop it.
    loadEveryObject(doc);
    const facts = await edit(doc);
    const bytes = savePdf(doc, SAVE_OPTIONS);
    progress(100);
    return {
      bytes,
      facts: { pages: doc.countPages(), ...facts, ...(wasRepaired(doc) ? { repaired_files: 1 } : {}) },
    };
  } catch (error) {
    throw asPdfJobError(error, job, { file_index: 0 });
  } finally {
    doc.destroy();
  }
}

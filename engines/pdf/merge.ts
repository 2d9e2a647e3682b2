import * as mupdf from "mupdf";
import { AppError, type JobFacts } from "../../contract/index.ts";
import type { EngineHandler } from "../types.ts";
import { documentLanguage, setDocumentLanguage } from "./document-language.ts";
import { detachAnnotations, graftAnnotations, type PagePlacement, pageObjects } from "./graft-annotations.ts";
import { DestinationRewriter } from "./graft-destinations.ts";
import { FormMerger } from "./merge-forms.ts";
import { OutlineMerger } from "./merge-outline.ts";
import { openPdf, wasRepaired } from "./open-pdf.ts";
import { asPdfJobError, savePdf } from "./write-pdf.ts";

/**
 * Lossless re-save: unused objects dropped and renumbered, streams (fonts and images included)
 * left uncompressed by the producer deflated, small objects packed into object streams.
 * (`garbage=deduplicate` is avoided: it ran over 2 minutes on a 59k-object manual.)
 */
const SAVE_OPTIONS = "garbage=compact,compress,compress-fonts,compress-images,objstms";

/** Share of the progress scale spent grafting files; the rest is the final save. */
const GRAFT_PROGRESS = 90;

/**
 * Merges PDFs in the order given. Each file gets its own graft map, so objects shared between its
 * pages (fonts, images) are copied once and references among its own objects survive. Bookmarks,
 * links, annotations and form fields are carried over. Facts: pages, files, and the bookmarks
 * (top-level entries), links and form fields of the result; signatures_removed when any was.
 */
export const mergePdfs: EngineHandler<unknown> = async (inputs, _options, progress) => {
  if (inputs.length === 0) throw new AppError("NO_FILE", "No PDF to merge.");
  const target = new mupdf.PDFDocument();
  try {
    const outline = new OutlineMerger(target);
    const forms = new FormMerger(target);
    let links = 0;
    let signatures = 0;
    let repaired = 0;
    const languages: (string | undefined)[] = [];
    for (const [fileIndex, input] of inputs.entries()) {
      const source = openPdf(input.bytes, fileIndex);
      if (wasRepaired(source)) repaired++;
      languages.push(documentLanguage(source));
      try {
        const placement = { source, target, offset: target.countPages() };
        const counts = appendFile(placement, { outline, forms, fileIndex, fileName: input.name });
        links += counts.links;
        signatures += counts.signatures;
      } catch (error) {
        throw asPdfJobError(error, "merge", { file_index: fileIndex });
      } finally {
        source.destroy();
      }
      progress(Math.round(((fileIndex + 1) / inputs.length) * GRAFT_PROGRESS));
    }
    outline.finish();
    setDocumentLanguage(target, languages);
    const facts: JobFacts = {
      pages: target.countPages(),
      files: inputs.length,
      bookmarks: outline.entryCount,
      links,
      form_fields: forms.fieldCount,
      // Signatures cannot survive a merge (see graft-annotations.ts): said when any was removed.
      ...(signatures > 0 ? { signatures_removed: signatures } : {}),
      // Inputs whose cross-reference table MuPDF rebuilt: said when any was.
      ...(repaired > 0 ? { repaired_files: repaired } : {}),
    };
    const bytes = save(target);
    progress(100);
    return { bytes, facts };
  } finally {
    target.destroy();
  }
};

interface FileContext {
  readonly outline: OutlineMerger;
  readonly forms: FormMerger;
  readonly fileIndex: number;
  readonly fileName: string;
}

/**
 * Appends one source after the target's last page: first every page reference in the source's
 * annotations, fields and bookmarks is detached (see graft-destinations.ts), then pages and those
 * objects are grafted, then the references are restored to the merged pages. Returns the links
 * copied and the signature values removed.
 */
function appendFile(placement: PagePlacement, context: FileContext): { links: number; signatures: number } {
  const { source, target, offset } = placement;
  const pageCount = source.countPages();
  const sourcePages = pageObjects(source, 0, pageCount);
  const rewriter = new DestinationRewriter(source, sourcePages);
  const bookmarks = context.outline.detach(source, rewriter);
  const { perPage, links, signatures } = detachAnnotations(source, sourcePages, rewriter);
  const map = target.newGraftMap();
  try {
    for (let page = 0; page < pageCount; page++) map.graftPage(-1, source, page);
    const targetPages = pageObjects(target, offset, pageCount);
    graftAnnotations(perPage, targetPages, map);
    context.forms.add(source, map, context.fileIndex);
    context.outline.append(bookmarks, map, context.fileName, targetPages[0] ?? null);
    rewriter.attach(map, targetPages);
  } finally {
    map.destroy();
  }
  return { links, signatures };
}

function save(target: mupdf.PDFDocument): Uint8Array {
  try {
    return savePdf(target, SAVE_OPTIONS);
  } catch (error) {
    throw asPdfJobError(error, "merge", {});
  }
}

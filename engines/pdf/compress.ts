import type * as mupdf from "mupdf";
import { AppError, type JobFacts } from "../../contract/index.ts";
import type { EngineHandler } from "../types.ts";
import { pruneCidFontData } from "./compress-cid-fonts.ts";
import { replaceSrgbProfiles } from "./compress-colour-spaces.ts";
import { roundPathCoordinates } from "./compress-content.ts";
import { mergeDuplicateStreams } from "./compress-duplicates.ts";
import { removeEmptyDrawings } from "./compress-empty-drawings.ts";
import { pruneUndrawnDifferences } from "./compress-encodings.ts";
import { extractFontCollections } from "./compress-font-collections.ts";
import { subsetFontPrograms } from "./compress-font-programs.ts";
import { subsetFonts } from "./compress-fonts.ts";
import { pruneGlyphMaps } from "./compress-glyph-maps.ts";
import { recompressImages } from "./compress-images.ts";
import { inlineSingleUseForms } from "./compress-inline-forms.ts";
import { COMPRESSION_LEVELS, type CompressionLevelName } from "./compress-levels.ts";
import { pdfAPart, removePrivateData } from "./compress-private-data.ts";
import { removeRedundantEntries } from "./compress-redundant-entries.ts";
import { removeUnusedResources } from "./compress-resources.ts";
import { compactScripts } from "./compress-scripts.ts";
import { redeflateStreams } from "./compress-streams.ts";
import { subsetType1Fonts } from "./compress-type1.ts";
import { convertType1ToCff } from "./compress-type1-cff.ts";
import { hasType3Fonts, pruneType3Glyphs } from "./compress-type3.ts";
import { findDrawnGlyphs } from "./drawn-glyphs.ts";
import { type HarfBuzz, loadHarfBuzz } from "./harfbuzz-subset.ts";
import { isOutOfMemory, openPdf, wasRepaired } from "./open-pdf.ts";
import { savePdf } from "./write-pdf.ts";

/**
 * Lossless structure: unused objects dropped and renumbered, uncompressed streams (fonts and
 * images included) deflated, small objects packed into object streams, new streams deflated at
 * the highest effort. `garbage=deduplicate` is avoided: it ran over 2 minutes on a 59k-object
 * manual (compress-duplicates.ts merges copies by hash instead). `decompress` to deflate every
 * stream again undid the font subsetting on some files (compress-streams.ts does it instead).
 */
const SAVE_OPTIONS = "garbage=compact,compress,compress-fonts,compress-images,objstms,compression-effort=100";
/**
 * PDF/A-1 (ISO 19005-1) is based on PDF 1.4, which has neither object streams nor
 * cross-reference streams (PDF 1.5), and validators reject both: a file whose XMP claims part 1
 * is saved with a classic cross-reference table, so that it stays what its XMP says it is.
 */
const PDF_A1_SAVE_OPTIONS = SAVE_OPTIONS.replace(",objstms", "");

/** Progress scale: open and fonts, then images, then the save. */
const FONTS_DONE = 10;
const IMAGES_DONE = 85;

/**
 * Compresses one PDF: fonts subset, images resampled and re-encoded as the level says (see
 * compress-levels.ts), path coordinates written with fewer digits, then a lossless re-save. Everything else (text, form fields and XFA,
 * links, bookmarks, structure tags, attachments) is kept as it is. When the result is not smaller
 * than the input (as uploaded), the upload comes back unchanged with `already_optimized: true`.
 */
export const compressPdf: EngineHandler<{ quality: CompressionLevelName }> = async (
  inputs,
  options,
  progress,
) => {
  const input = inputs[0];
  if (input === undefined) throw new AppError("NO_FILE", "No PDF to compress.");
  const level = COMPRESSION_LEVELS[options.quality];
  const harfBuzz = await loadHarfBuzz();
  const pdf = openPdf(input.bytes, 0);
  try {
    const pages = pdf.countPages();
    const repaired = wasRepaired(pdf);
    const privateData = removePrivateData(pdf);
    const pdfAClaim = pdfAPart(pdf.getTrailer().get("Root", "Metadata"));
    const pdfA = pdfAClaim > 0;
    const redundant = removeRedundantEntries(pdf, pdfA);
    replaceSrgbProfiles(pdf, pdfA);
    removeEmptyDrawings(pdf);
    const unusedResources = removeUnusedResources(pdf);
    inlineSingleUseForms(pdf);
    const duplicates = mergeDuplicateStreams(pdf);
    const fontsSubset = trySubsetFonts(pdf, harfBuzz, pdfA);
    progress(FONTS_DONE);
    const images = await recompressImages(pdf, level, (share) =>
      progress(Math.round(FONTS_DONE + share * (IMAGES_DONE - FONTS_DONE))),
    );
    roundPathCoordinates(pdf, level.pathDigits);
    compactScripts(pdf, pdfAClaim !== 1);
    redeflateStreams(pdf);
    const saved = savePdf(pdf, pdfAClaim === 1 ? PDF_A1_SAVE_OPTIONS : SAVE_OPTIONS);
    progress(100);
    // Against the upload, when preparation rewrote it (a repair can grow a file): never larger.
    const original = input.uploaded ?? input.bytes;
    const smaller = saved.length < original.length;
    const bytes = smaller ? saved : original;
    const facts: JobFacts = {
      pages,
      quality: options.quality,
      original_size: original.length,
      new_size: bytes.length,
      images_recompressed: smaller ? images.recompressed : 0,
      images_downsampled: smaller ? images.downsampled : 0,
      fonts_subset: smaller && fontsSubset,
      private_data_removed: smaller ? privateData + redundant : 0,
      duplicates_merged: smaller ? duplicates : 0,
      unused_resources_removed: smaller ? unusedResources : 0,
      already_optimized: !smaller,
      ...(repaired ? { repaired: true } : {}),
    };
    return { bytes, facts };
  } catch (error) {
    throw asCompressError(error);
  } finally {
    pdf.destroy();
  }
};

/**
 * Subsetting is an optimisation: a font that cannot be subset stays as it was. MuPDF's subsetter
 * runs first; then the glyphs every page draws (one run of the pages) cut the Type 1 programs it
 * leaves whole, the Type 3 glyphs no page draws, and, with HarfBuzz, the TrueType and CFF programs
 * it refused or left larger; then the encoding entries of codes whose glyph went.
 */
function trySubsetFonts(pdf: mupdf.PDFDocument, harfBuzz: HarfBuzz, pdfA: boolean): boolean {
  try {
    extractFontCollections(pdf);
    subsetFonts(pdf);
    const drawn = findDrawnGlyphs(pdf);
    if (drawn !== null) {
      if (hasType3Fonts(pdf)) pruneType3Glyphs(pdf, drawn.used, drawn.untouchableFonts);
      subsetType1Fonts(pdf, drawn);
      convertType1ToCff(pdf, drawn);
      subsetFontPrograms(pdf, drawn, harfBuzz);
      pruneCidFontData(pdf, drawn, pdfA);
      pruneUndrawnDifferences(pdf, drawn);
    }
    pruneGlyphMaps(pdf);
    return true;
  } catch {
    return false;
  }
}

/** MuPDF throws plain errors; a failure on a file that opened is damage inside it (or memory). */
function asCompressError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const context = { file_index: 0 };
  // MuPDF's own text goes to the log line only (detail), never to the API message.
  const detail = error instanceof Error ? error.message : String(error);
  if (isOutOfMemory(error))
    return new AppError("JOB_OUT_OF_MEMORY", "Compression ran out of memory.", context, detail);
  return new AppError(
    "PDF_DAMAGED",
    "The PDF has damaged content that cannot be rewritten.",
    context,
    detail,
  );
}

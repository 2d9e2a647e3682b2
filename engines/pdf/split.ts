import * as mupdf from "mupdf";
import { AppError, type JobFacts, type PageRange } from "../../contract/index.ts";
import type { EngineHandler } from "../types.ts";
import { type ZipEntry, zipFiles } from "../zip.ts";
import { documentLanguage, setDocumentLanguage } from "./document-language.ts";
import {
  detachAnnotations,
  graftPageAnnotations,
  type PageAnnotations,
  pageObjects,
} from "./graft-annotations.ts";
import { DestinationRewriter } from "./graft-destinations.ts";
import { DetachedFieldTree } from "./graft-forms.ts";
import { detachOutline, OutlineBuilder, type OutlineEntry, type OutlineNode } from "./graft-outline.ts";
import { openPdf, wasRepaired } from "./open-pdf.ts";
import { type LabelRange, readPageLabels, writePageLabels } from "./page-labels.ts";
import { partName, partStem, type SplitOptions, splitParts } from "./split-parts.ts";
import { asPdfJobError, savePdf } from "./write-pdf.ts";

/**
 * Lossless save of each part: unused objects dropped and renumbered, streams deflated, small
 * objects packed into object streams. (`garbage=deduplicate` ran over 2 minutes on a 59k-object
 * manual; grafting already copies each shared font or image once per part.)
 */
const SAVE_OPTIONS = "garbage=compact,compress,objstms";

/**
 * Pages all parts of one split may hold together: twice the document's pages (so ranges may
 * overlap, and every page or every N always fits), at least 100. Ranges may repeat pages: "1-14"
 * typed 290 times made a 1 MB PDF a 275 MB ZIP, "1" typed 2,000 times 2,000 parts.
 */
export function maxSplitOutputPages(pageCount: number): number {
  return Math.max(2 * pageCount, 100);
}
/** Bytes all parts may hold together (parts each carry the fonts and images their pages use). */
export const MAX_SPLIT_OUTPUT_BYTES = 512 * 1024 * 1024;

/** Share of the progress scale spent writing parts; the rest is the ZIP. */
const PARTS_PROGRESS = 95;

/** A source prepared once for all its parts: every page reference detached (graft-destinations.ts). */
interface PreparedSource {
  readonly source: mupdf.PDFDocument;
  readonly rewriter: DestinationRewriter;
  readonly outline: readonly OutlineNode[];
  readonly annotations: readonly (PageAnnotations | undefined)[];
  readonly fields: DetachedFieldTree;
  readonly labels: readonly LabelRange[];
}

/**
 * Splits one PDF into parts (page ranges, every page, or every N pages). Each part is a new
 * document with its pages grafted through its own graft map, so a font or image its pages share is
 * copied once. Bookmarks and links are kept where their target page is in the part (a bookmark
 * whose target is elsewhere stays only as the heading of kept ones), the form fields of its pages,
 * its annotations, page labels, rotation and boxes too. One part is answered as a PDF, several as a
 * ZIP of PDFs named after the source and their pages. Facts: parts and pages (total written).
 */
export const splitPdf: EngineHandler<SplitOptions> = async (inputs, options, progress) => {
  const input = inputs[0];
  if (input === undefined) throw new AppError("NO_FILE", "No PDF to split.");
  const source = openPdf(input.bytes, 0);
  try {
    const pageCount = source.countPages();
    const parts = splitParts(options, pageCount);
    const pages = parts.reduce((sum, part) => sum + part.end - part.start + 1, 0);
    const maxPages = maxSplitOutputPages(pageCount);
    if (pages > maxPages) throw outputTooLarge({ pages, max_pages: maxPages });
    const prepared = prepare(source);
    const stem = partStem(input.name);
    const entries: ZipEntry[] = [];
    let bytes = 0;
    for (const [index, part] of parts.entries()) {
      const written = writePart(prepared, part);
      bytes += written.length;
      if (bytes > MAX_SPLIT_OUTPUT_BYTES) throw outputTooLarge({ max_bytes: MAX_SPLIT_OUTPUT_BYTES });
      entries.push({ name: partName(stem, part), bytes: written });
      progress(Math.round(((index + 1) / parts.length) * PARTS_PROGRESS));
    }
    const facts: JobFacts = {
      parts: parts.length,
      pages,
      ...(wasRepaired(source) ? { repaired_files: 1 } : {}),
    };
    const only = entries.length === 1 ? entries[0] : undefined;
    const output =
      only !== undefined
        ? { bytes: only.bytes, facts, kind: "pdf" as const, name: only.name }
        : { bytes: zipFiles(entries), facts, kind: "zip" as const, name: `${stem}-split.zip` };
    progress(100);
    return output;
  } catch (error) {
    throw asPdfJobError(error, "split", { file_index: 0 });
  } finally {
    source.destroy();
  }
};

function outputTooLarge(context: Record<string, number>): AppError {
  return new AppError("OUTPUT_TOO_LARGE", "The parts asked for hold too many pages or bytes together.", {
    file_index: 0,
    ...context,
  });
}

function prepare(source: mupdf.PDFDocument): PreparedSource {
  const sourcePages = pageObjects(source, 0, source.countPages());
  const rewriter = new DestinationRewriter(source, sourcePages);
  const outline = detachOutline(source, rewriter);
  // Signature values go: each part is a new document the signatures do not cover.
  const { perPage } = detachAnnotations(source, sourcePages, rewriter);
  const fields = new DetachedFieldTree(source, rewriter);
  return { source, rewriter, outline, annotations: perPage, fields, labels: readPageLabels(source) };
}

/** One part (1-based inclusive pages) as a saved PDF. */
function writePart(prepared: PreparedSource, part: PageRange): Uint8Array {
  const { source, rewriter } = prepared;
  const from = part.start - 1;
  const to = part.end - 1;
  const isKept = (page: number) => page >= from && page <= to;
  const target = new mupdf.PDFDocument();
  try {
    const map = target.newGraftMap();
    try {
      for (let page = from; page <= to; page++) map.graftPage(-1, source, page);
      const newPages = pageObjects(target, 0, to - from + 1);
      // Indexed by source page: where each kept page landed (others stay undefined).
      const targetPages: (mupdf.PDFObject | undefined)[] = [];
      const widgets: number[] = [];
      for (const [i, page] of newPages.entries()) {
        targetPages[from + i] = page;
        const annotations = prepared.annotations[from + i];
        if (annotations !== undefined) widgets.push(...graftPageAnnotations(annotations, page, map, isKept));
      }
      prepared.fields.graft(target, map, widgets, isKept);
      const outline = keptOutline(prepared.outline, isKept);
      if (outline.length > 0) {
        const builder = new OutlineBuilder(target);
        builder.append(outline, map);
        builder.finish();
      }
      rewriter.attach(map, targetPages);
      writePageLabels(target, prepared.labels, from, to);
      setDocumentLanguage(target, [documentLanguage(source)]);
    } finally {
      map.destroy();
    }
    return savePdf(target, SAVE_OPTIONS);
  } finally {
    target.destroy();
  }
}

/**
 * The bookmarks a part keeps: those whose targets are all in it, and as headings (destination
 * removed) those whose own target is elsewhere but that have kept bookmarks below them.
 */
function keptOutline(topLevel: readonly OutlineNode[], isKept: (page: number) => boolean): OutlineEntry[] {
  // Preorder, walked backwards: every node after its descendants (no recursion on deep outlines).
  const order: OutlineNode[] = [];
  const pending = [...topLevel];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    order.push(node);
    for (const child of node.children) pending.push(child);
  }
  const kept = new Map<OutlineNode, OutlineEntry>();
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i] as OutlineNode;
    const children = keptOf(node.children, kept);
    const targeted = node.pages.length > 0;
    const reaches = targeted && node.pages.every(isKept);
    if (reaches || children.length > 0) {
      kept.set(node, { item: node.item, open: node.open, children, heading: !reaches && targeted });
    }
  }
  return keptOf(topLevel, kept);
}

function keptOf(nodes: readonly OutlineNode[], kept: ReadonlyMap<OutlineNode, OutlineEntry>): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  for (const node of nodes) {
    const entry = kept.get(node);
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}

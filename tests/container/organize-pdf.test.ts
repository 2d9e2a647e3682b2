import * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { organizePdf } from "../../tools/organize-pdf/organize.ts";
import { formatOrder, parseOrder } from "../../tools/organize-pdf/page-order.ts";
import { popplerPages, popplerPageTexts } from "../support/poppler.ts";
import { pdfOfObjects } from "../worker/fixtures.ts";
import { engineFailure } from "./engine-failure.ts";
import {
  countPageObjects,
  encryptedPdf,
  flatOutline,
  openPdf,
  pageText,
  pdfInput,
  save,
  textPdf,
  textPdfDocument,
} from "./fixtures.ts";

async function organize(bytes: Uint8Array, order: string) {
  const progress: number[] = [];
  const output = await organizePdf([pdfInput("report.pdf", bytes)], { order }, (p) => progress.push(p));
  return { ...output, progress };
}

const linksOf = (doc: mupdf.PDFDocument, index: number) =>
  doc
    .loadPage(index)
    .getLinks()
    .map((link) => link.getURI());

describe("Organize PDF", () => {
  it("puts pages in the new order, turns them, inserts blanks and repeats pages (read back by Poppler)", async () => {
    const source = textPdf("Report", 4);
    const output = await organize(source, "4,2@90,0,1,1@270");
    const texts = popplerPageTexts(output.bytes);
    expect(texts).toEqual([
      pageText("Report", 3),
      pageText("Report", 1),
      "",
      pageText("Report", 0),
      pageText("Report", 0),
    ]);
    expect(popplerPages(output.bytes).map((page) => page.rotation)).toEqual([0, 90, 0, 0, 270]);
    // The blank page takes the size of the page before it.
    expect(popplerPages(output.bytes)[2]).toMatchObject({ width: 595, height: 842 });
    expect(output.facts).toMatchObject({ pages: 5, removed_pages: 1, blank_pages: 1, turned_pages: 2 });
    expect(output.progress.at(-1)).toBe(100);
    // The removed page is gone from the file, not only from the page tree.
    expect(countPageObjects(openPdf(output.bytes))).toBe(5);
  });

  it("adds a turn to the page's own rotation", async () => {
    const doc = new mupdf.PDFDocument(textPdf("Turned", 2));
    doc.findPage(0).put("Rotate", 90);
    const turned = doc.saveToBuffer("").asUint8Array().slice();
    const output = await organize(turned, "1@270,2@180");
    expect(popplerPages(output.bytes).map((page) => page.rotation)).toEqual([0, 180]);
  });

  it("keeps links, bookmarks and form fields of kept pages and drops those of removed ones", async () => {
    const source = textPdf("Linked", 4, {
      links: true,
      outline: [
        ["One", 0],
        ["Three", 2],
        ["Four", 3],
      ],
      field: ["name", "Ada"],
    });
    const output = await organize(source, "4,1,2");
    const doc = openPdf(output.bytes);
    // Page 4 links to page 1 (now 2), page 1 to page 2 (now 3); page 2 linked to the removed page 3.
    expect(linksOf(doc, 0)).toEqual(["#page=2", "https://example.com/Linked"]);
    expect(linksOf(doc, 1)).toEqual(["#page=3", "https://example.com/Linked"]);
    expect(linksOf(doc, 2)).toEqual(["https://example.com/Linked"]);
    expect(flatOutline(doc).map(({ title, page }) => [title, page])).toEqual([
      ["One", 1],
      ["Four", 0],
    ]);
    const widgets = doc.loadPage(1).getWidgets();
    expect(widgets.map((widget) => [widget.getName(), widget.getValue()])).toEqual([["name", "Ada"]]);
  });

  it("gives a repeated page its own copy with its links", async () => {
    const output = await organize(textPdf("Twice", 2, { links: true }), "1,1,2");
    const doc = openPdf(output.bytes);
    const pages = [0, 1, 2].map((index) => doc.findPage(index).asIndirect());
    expect(new Set(pages).size).toBe(3);
    expect(linksOf(doc, 1)).toEqual(["#page=3", "https://example.com/Twice"]);
  });

  it("keeps text whose fonts the pages inherit from a direct /Resources on the page tree", async () => {
    // Resources and MediaBox only on the root, /Rotate on inner nodes: MuPDF's rearrangement gives
    // every page the root's dictionary itself, and a compacting save renumbered its font once per
    // page (the font reference then pointed nowhere: /Font << >>, no text on any page).
    const text = (words: string) => {
      const content = `BT /F1 24 Tf 72 700 Td (${words}) Tj ET`;
      return `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
    };
    const source = pdfOfObjects([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 3 /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> >>",
      "<< /Type /Pages /Parent 2 0 R /Kids [6 0 R 7 0 R] /Count 2 /Rotate 90 >>",
      "<< /Type /Page /Parent 2 0 R /Contents 10 0 R >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      "<< /Type /Page /Parent 3 0 R /Contents 8 0 R >>",
      "<< /Type /Page /Parent 3 0 R /Contents 9 0 R >>",
      text("Inherited one"),
      text("Inherited two"),
      text("Own three"),
    ]);
    const output = await organize(source, "3,2,1,1");
    expect(popplerPageTexts(output.bytes)).toEqual([
      "Own three",
      "Inherited two",
      "Inherited one",
      "Inherited one",
    ]);
    expect(popplerPages(output.bytes).map((page) => page.rotation)).toEqual([0, 90, 90, 90]);
  });

  it("keeps a repeated page's link actions pointing at their pages", async () => {
    // The link's action is a direct dictionary: the copy shared it, and the save renumbered the
    // page reference inside it twice.
    const doc = new mupdf.PDFDocument(textPdf("Direct", 3));
    const page = doc.findPage(0);
    const link = doc.addObject({
      Type: "Annot",
      Subtype: "Link",
      Rect: [72, 100, 300, 130],
      A: { S: "GoTo", D: [doc.findPage(2), doc.newName("Fit")] },
    });
    page.put("Annots", [link]);
    const output = await organize(save(doc), "1,1,3");
    const organized = openPdf(output.bytes);
    expect(linksOf(organized, 0)).toEqual(["#page=3&view=Fit"]);
    expect(linksOf(organized, 1)).toEqual(["#page=3&view=Fit"]);
  });

  it("keeps the form, attachments, language and metadata of the catalog, without what removed pages held", async () => {
    // MuPDF's rearrangement keeps only /Pages, /Outlines, /OCProperties and destinations in the
    // catalog: every form field stopped being one, even with every page kept.
    const doc = textPdfDocument("Form", 3, { field: ["name", "Ada"] });
    const root = doc.getTrailer().get("Root");
    const attachment = doc.addObject({ Type: "Filespec", F: doc.newString("notes.txt") });
    root.put("Names", { EmbeddedFiles: { Names: [doc.newString("notes.txt"), attachment] } });
    root.put("Lang", doc.newString("de-DE"));
    root.put("ViewerPreferences", { DisplayDocTitle: true });
    root.put("PageLabels", { Nums: [0, { S: doc.newName("r") }] });
    root.put("OpenAction", [doc.findPage(0), doc.newName("Fit")]);
    const source = save(doc);
    const catalogOf = (bytes: Uint8Array) => openPdf(bytes).getTrailer().get("Root");

    const reordered = catalogOf((await organize(source, "3,2,1")).bytes);
    expect(reordered.get("AcroForm", "Fields").length).toBe(1);
    expect(reordered.get("AcroForm", "Fields", 0, "V").asString()).toBe("Ada");
    expect(reordered.get("Names", "EmbeddedFiles", "Names", 0).asString()).toBe("notes.txt");
    expect(reordered.get("Lang").asString()).toBe("de-DE");
    expect(reordered.get("ViewerPreferences", "DisplayDocTitle").asBoolean()).toBe(true);
    expect(reordered.get("OpenAction").isArray()).toBe(true);
    // Labels follow page positions: after a new order they would name the wrong pages.
    expect(reordered.get("PageLabels").isNull()).toBe(true);
    expect(
      catalogOf((await organize(source, "1-3@90")).bytes)
        .get("PageLabels")
        .isNull(),
    ).toBe(false);

    // Page 1, with the field's widget and the open action's target, removed: both go.
    const removed = catalogOf((await organize(source, "2,3")).bytes);
    expect(removed.get("AcroForm").isNull()).toBe(true);
    expect(removed.get("OpenAction").isNull()).toBe(true);
    expect(removed.get("Lang").asString()).toBe("de-DE");
  });

  it("keeps links to destinations named in the catalog's /Dests, as Chromium writes them", async () => {
    // Chromium's internal links are "/Dest /s3" with a /Dests dictionary in the catalog: MuPDF's
    // rearrangement dropped the dictionary and every such link (a name is no destination to it).
    const doc = textPdfDocument("Named", 3);
    const page = doc.findPage(0);
    page.put("Annots", [
      doc.addObject({ Type: "Annot", Subtype: "Link", Rect: [72, 100, 300, 130], Dest: doc.newName("s3") }),
      doc.addObject({
        Type: "Annot",
        Subtype: "Link",
        Rect: [72, 200, 300, 230],
        A: { S: "GoTo", D: doc.newName("s2") },
      }),
    ]);
    doc
      .getTrailer()
      .get("Root")
      .put("Dests", { s2: [doc.findPage(1), doc.newName("Fit")], s3: [doc.findPage(2), doc.newName("Fit")] });
    const source = save(doc);
    const targets = (bytes: Uint8Array, index: number) => {
      const organized = openPdf(bytes);
      return organized
        .loadPage(index)
        .getLinks()
        .map((link) => organized.resolveLink(link) + 1);
    };
    expect(targets((await organize(source, "3,2,1")).bytes, 2)).toEqual([1, 2]);
    // Page 3 removed: the link to it goes, the other stays.
    expect(targets((await organize(source, "1,2")).bytes, 0)).toEqual([2]);
  });

  it("reads a name tree or a field hierarchy whose kids repeat themselves once per node, not once per path", async () => {
    // A node listing itself twice as a kid: followed along every path to a fixed depth, 2^32 visits.
    const doc = textPdfDocument("Loop", 3, { field: ["name", "Ada"] });
    const root = doc.getTrailer().get("Root");
    const node = doc.addObject({ Names: [doc.newString("s9"), [doc.findPage(1), doc.newName("Fit")]] });
    node.put("Kids", [node, node]);
    root.put("Names", { Dests: node });
    root.put("Dests", { s2: [doc.findPage(1), doc.newName("Fit")] });
    const field = root.get("AcroForm", "Fields", 0);
    const parent = doc.addObject({ T: doc.newString("group") });
    // The field's widget (on page 1) listed twice: dropped both times with its page.
    parent.put("Kids", [parent, parent, field, field]);
    root.get("AcroForm").put("Fields", [parent]);
    const started = Date.now();
    const output = await organize(save(doc), "2,3");
    const organized = openPdf(output.bytes);
    expect(organized.countPages()).toBe(2);
    expect(organized.getTrailer().get("Root", "AcroForm", "Fields", 0, "Kids").length).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 20_000);

  it("repeats a page whose /Annots holds a null entry", async () => {
    const doc = textPdfDocument("Nulls", 2);
    const link = doc.addObject({
      Type: "Annot",
      Subtype: "Link",
      Rect: [72, 100, 300, 130],
      A: { S: "URI", URI: doc.newString("https://example.org/") },
    });
    doc.findPage(0).put("Annots", [doc.newNull(), link]);
    const output = await organize(save(doc), "1,1,2");
    const organized = openPdf(output.bytes);
    expect(organized.countPages()).toBe(3);
    expect(linksOf(organized, 1)).toEqual(["https://example.org/"]);
  });

  it("accepts runs and writes orders back in the shortest form", () => {
    const parsed = parseOrder("1-3, 5@90, 0", 5);
    expect(parsed.ok && parsed.pages.map((page) => page.source)).toEqual([1, 2, 3, 5, 0]);
    expect(parsed.ok && formatOrder(parsed.pages)).toBe("1-3,5@90,0");
    expect(parseOrder("6", 5)).toEqual({ ok: false, error: { key: "invalidPage", page: "6", pages: 5 } });
    expect(parseOrder("3-1", 5)).toEqual({
      ok: false,
      error: { key: "invalidRange", range: "3-1", pages: 5 },
    });
    expect(parseOrder("2@45", 5)).toEqual({ ok: false, error: { key: "invalidOrder" } });
  });

  it("refuses a page the document does not have, naming it", async () => {
    const error = await engineFailure(organize(textPdf("Short", 3), "1,7"));
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(error.context).toEqual({ page_ranges_error: "invalidPage", page: "7", pages: 3 });
  });

  it("refuses a protected PDF", async () => {
    const error = await engineFailure(organize(encryptedPdf(), "1"));
    expect(error.code).toBe("PDF_ENCRYPTED");
  });
});

import { unzipSync } from "fflate";
import type * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { splitPdf } from "../../engines/pdf/split.ts";
import type { SplitOptions } from "../../engines/pdf/split-parts.ts";
import { engineFailure } from "./engine-failure.ts";
import {
  countPageObjects,
  encryptedPdf,
  flatOutline,
  irreparablePdf,
  openPdf,
  pageText,
  pageTexts,
  pdfInput,
  repairablePdf,
  save,
  textPdf,
  textPdfDocument,
} from "./fixtures.ts";

async function split(bytes: Uint8Array, options: Partial<SplitOptions>, name = "report.pdf") {
  const progress: number[] = [];
  const output = await splitPdf(
    [pdfInput(name, bytes)],
    { split_mode: "ranges", pages_per_part: 2, ...options },
    (percent) => progress.push(percent),
  );
  const parts =
    output.kind === "zip"
      ? Object.entries(unzipSync(output.bytes)).map(([entry, data]) => ({ name: entry, doc: openPdf(data) }))
      : [{ name: output.name ?? "", doc: openPdf(output.bytes) }];
  return { ...output, parts, progress };
}

const texts = (label: string, pages: number[]) => pages.map((page) => pageText(label, page - 1));

/** Widgets of every page as [page, full field name, value]. */
function widgets(doc: mupdf.PDFDocument): [number, string, string][] {
  const found: [number, string, string][] = [];
  for (let i = 0; i < doc.countPages(); i++) {
    for (const widget of doc.loadPage(i).getWidgets()) found.push([i, widget.getName(), widget.getValue()]);
  }
  return found;
}

/**
 * Six pages with a form: top-level text fields "p1" (page 1) and "p4" (page 4), and a field
 * "person" whose kids "name" and "city" have their widgets on pages 2 and 5.
 */
function formPdf(): Uint8Array {
  const doc = textPdfDocument("Form", 6);
  const root = doc.getTrailer().get("Root");
  const fields = doc.newArray();
  const widget = (page: number, name: string, value: string, parent?: mupdf.PDFObject) => {
    const pageObject = doc.findPage(page - 1);
    const field = doc.addObject(doc.newDictionary());
    field.put("Type", doc.newName("Annot"));
    field.put("Subtype", doc.newName("Widget"));
    field.put("FT", doc.newName("Tx"));
    field.put("T", doc.newString(name));
    field.put("V", doc.newString(value));
    field.put("Rect", [72, 400, 300, 430]);
    field.put("P", pageObject);
    if (parent) {
      field.put("Parent", parent);
      const kids = parent.get("Kids");
      if (kids.isArray()) kids.push(field);
      else parent.put("Kids", [field]);
    } else fields.push(field);
    const annots = pageObject.get("Annots");
    if (annots.isArray()) annots.push(field);
    else pageObject.put("Annots", [field]);
  };
  const person = doc.addObject(doc.newDictionary());
  person.put("T", doc.newString("person"));
  fields.push(person);
  widget(1, "p1", "one");
  widget(2, "name", "Ada", person);
  widget(4, "p4", "four");
  widget(5, "city", "Paris", person);
  const form = doc.newDictionary();
  form.put("Fields", fields);
  form.put("DA", doc.newString("/Helv 12 Tf 0 g"));
  root.put("AcroForm", form);
  return save(doc);
}

describe("splitPdf", () => {
  it("gives every part the document's language", async () => {
    const { parts } = await split(textPdf("Bericht", 2, { lang: "de-DE" }), { split_mode: "every-page" });
    expect(parts.map((part) => part.doc.getTrailer().get("Root", "Lang").asString())).toEqual([
      "de-DE",
      "de-DE",
    ]);
  });

  it("makes one part per range, in the order typed, named after the source and the range", async () => {
    const { parts, facts, kind, name, progress } = await split(textPdf("R", 10), {
      page_ranges: "1-3, 5,7-9",
    });
    expect(kind).toBe("zip");
    expect(name).toBe("report-split.zip");
    expect(parts.map((part) => part.name)).toEqual([
      "report-pages-1-3.pdf",
      "report-page-5.pdf",
      "report-pages-7-9.pdf",
    ]);
    expect(parts.map((part) => pageTexts(part.doc))).toEqual([
      texts("R", [1, 2, 3]),
      texts("R", [5]),
      texts("R", [7, 8, 9]),
    ]);
    expect(facts).toEqual({ parts: 3, pages: 7 });
    expect(progress).toEqual([32, 63, 95, 100]);
    // Each part holds its own pages only: no other page was copied along.
    expect(parts.map((part) => countPageObjects(part.doc))).toEqual([3, 1, 3]);
  });

  it("answers one range as a PDF, not a ZIP", async () => {
    const { parts, kind, name, bytes, facts } = await split(textPdf("R", 5), { page_ranges: "2-4" });
    expect(kind).toBe("pdf");
    expect(name).toBe("report-pages-2-4.pdf");
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    expect(pageTexts(parts[0]?.doc as mupdf.PDFDocument)).toEqual(texts("R", [2, 3, 4]));
    expect(facts).toEqual({ parts: 1, pages: 3 });
  });

  it("splits every page, and every N pages with a shorter last part", async () => {
    const every = await split(textPdf("E", 4), { split_mode: "every-page" }, "Q3 figures.pdf");
    expect(every.parts.map((part) => part.name)).toEqual([1, 2, 3, 4].map((n) => `Q3 figures-page-${n}.pdf`));
    expect(every.parts.map((part) => pageTexts(part.doc))).toEqual([1, 2, 3, 4].map((n) => texts("E", [n])));

    const byThree = await split(textPdf("N", 7), { split_mode: "every-n", pages_per_part: 3 });
    expect(byThree.parts.map((part) => part.name)).toEqual([
      "report-pages-1-3.pdf",
      "report-pages-4-6.pdf",
      "report-page-7.pdf",
    ]);
    expect(byThree.parts.map((part) => pageTexts(part.doc))).toEqual([
      texts("N", [1, 2, 3]),
      texts("N", [4, 5, 6]),
      texts("N", [7]),
    ]);
    expect(byThree.facts).toEqual({ parts: 3, pages: 7 });

    const whole = await split(textPdf("W", 3), { split_mode: "every-n", pages_per_part: 50 });
    expect(whole.kind).toBe("pdf");
    expect(whole.name).toBe("report-pages-1-3.pdf");
  });

  it("keeps bookmarks whose target is in the part, pointing at the right page, and their headings", async () => {
    const source = textPdf("B", 8, {
      outline: [
        ["Intro", 0],
        [
          "Part one",
          1,
          [
            ["Detail", 2],
            ["Later detail", 5],
          ],
        ],
        ["Appendix", 6],
      ],
    });
    const { parts } = await split(source, { page_ranges: "1-3,5-7,8" });
    const [first, second, third] = parts.map((part) => flatOutline(part.doc));
    expect(first).toEqual([
      { title: "Intro", page: 0, depth: 0 },
      { title: "Part one", page: 1, depth: 0 },
      { title: "Detail", page: 2, depth: 1 },
    ]);
    // "Part one" opens page 2, not in this part: it stays as the heading of "Later detail", without a target.
    expect(second).toEqual([
      { title: "Part one", page: undefined, depth: 0 },
      { title: "Later detail", page: 1, depth: 1 },
      { title: "Appendix", page: 2, depth: 0 },
    ]);
    expect(third).toEqual([]);
    const heading = parts[1]?.doc.getTrailer().get("Root", "Outlines", "First");
    expect(heading?.get("Dest").isNull()).toBe(true);
    expect(heading?.get("A").isNull()).toBe(true);
    // Closed in the source (/Count -2), it stays closed over the one child left.
    expect(heading?.get("Count").asNumber()).toBe(-1);
  });

  it("keeps links whose target is in the part, drops the others, and keeps external links", async () => {
    // Page i links to page i + 1 (the last to the first) and to https://example.com/L.
    const { parts } = await split(textPdf("L", 5, { links: true }), { page_ranges: "1-3,5" });
    const [first, last] = parts.map((part) => part.doc);
    const internal = (doc: mupdf.PDFDocument, page: number) =>
      doc
        .loadPage(page)
        .getLinks()
        .filter((link) => !link.isExternal())
        .map((link) => doc.resolveLink(link));
    const external = (doc: mupdf.PDFDocument, page: number) =>
      doc
        .loadPage(page)
        .getLinks()
        .filter((link) => link.isExternal())
        .map((link) => link.getURI());
    if (first === undefined || last === undefined) throw new Error("two parts expected");
    expect([0, 1, 2].map((page) => internal(first, page))).toEqual([[1], [2], []]);
    expect([0, 1, 2].map((page) => external(first, page))).toEqual(
      [1, 2, 3].map(() => ["https://example.com/L"]),
    );
    // Page 5 links to page 1, which is not in its part.
    expect(internal(last, 0)).toEqual([]);
    expect(external(last, 0)).toEqual(["https://example.com/L"]);
    // No destination was left pointing at a page of another part (or at none).
    for (const doc of [first, last]) expect(countPageObjects(doc)).toBe(doc.countPages());
  });

  it("keeps the form fields of the kept pages, with their parents, and only those", async () => {
    const { parts } = await split(formPdf(), { page_ranges: "1-2,3-4,6" });
    const [first, second, third] = parts.map((part) => part.doc);
    if (first === undefined || second === undefined || third === undefined) throw new Error("three parts");
    expect(widgets(first)).toEqual([
      [0, "p1", "one"],
      [1, "person.name", "Ada"],
    ]);
    expect(widgets(second)).toEqual([[1, "p4", "four"]]);
    expect(widgets(third)).toEqual([]);
    const topLevel = (doc: mupdf.PDFDocument) => {
      const fields = doc.getTrailer().get("Root", "AcroForm", "Fields");
      const names: string[] = [];
      for (let i = 0; i < fields.length; i++) names.push(fields.get(i).get("T").asString());
      return names;
    };
    expect(topLevel(first)).toEqual(["person", "p1"]);
    expect(topLevel(second)).toEqual(["p4"]);
    expect(third.getTrailer().get("Root", "AcroForm").isNull()).toBe(true);
    // "person" keeps only the kid whose widget is in the part.
    const person = first.getTrailer().get("Root", "AcroForm", "Fields").get(0);
    expect(person.get("Kids").length).toBe(1);
    expect(first.getTrailer().get("Root", "AcroForm", "DA").asString()).toBe("/Helv 12 Tf 0 g");
    expect(countPageObjects(first)).toBe(2);
  });

  it("keeps page labels, rotation and page boxes", async () => {
    const doc = textPdfDocument("P", 5);
    doc.findPage(1).put("Rotate", 90);
    doc.findPage(2).put("CropBox", [50, 50, 500, 800]);
    doc.setPageLabels(0, "r");
    doc.setPageLabels(2, "D", "A-");
    const { parts } = await split(save(doc), { page_ranges: "2-4,5" });
    const [first, second] = parts.map((part) => part.doc);
    if (first === undefined || second === undefined) throw new Error("two parts");
    expect([0, 1, 2].map((i) => first.loadPage(i).getLabel())).toEqual(["ii", "A-1", "A-2"]);
    expect(second.loadPage(0).getLabel()).toBe("A-3");
    expect(first.findPage(0).get("Rotate").asNumber()).toBe(90);
    const box = (name: string) => first.findPage(1).get(name).toString();
    expect([box("CropBox"), box("MediaBox")]).toEqual(["[50 50 500 800]", "[0 0 595 842]"]);
    // A rotation the page inherits from the page tree is written on the part's page.
    const inherited = textPdfDocument("I", 2);
    inherited.getTrailer().get("Root", "Pages").put("Rotate", 180);
    for (const i of [0, 1]) inherited.findPage(i).delete("Rotate");
    const single = await split(save(inherited), { page_ranges: "2" });
    expect(single.parts[0]?.doc.findPage(0).get("Rotate").asNumber()).toBe(180);
  });

  it("copies a font its pages share once per part", async () => {
    const { parts } = await split(textPdf("F", 6), { page_ranges: "1-3,4-6" });
    for (const { doc } of parts) {
      let fonts = 0;
      for (let i = 1; i < doc.countObjects(); i++) {
        const object = doc.newIndirect(i).resolve();
        if (object.isDictionary() && object.get("Type").asName() === "Font") fonts++;
      }
      expect(fonts).toBe(1);
    }
  });

  it("refuses bad ranges with the spec's message key and values", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["1-3,x", { page_ranges_error: "invalidPageRanges" }],
      ["2-12", { page_ranges_error: "invalidRange", range: "2-12", pages: 10 }],
      ["4-2", { page_ranges_error: "invalidRange", range: "4-2", pages: 10 }],
      ["11", { page_ranges_error: "invalidPage", page: "11", pages: 10 }],
    ];
    for (const [ranges, context] of cases) {
      const error = await engineFailure(split(textPdf("X", 10), { page_ranges: ranges }));
      expect(error.toBody()).toMatchObject({ code: "INVALID_OPTIONS", context });
    }
  });

  it("refuses encrypted and damaged PDFs, and splits a repaired one saying so", async () => {
    const locked = await engineFailure(split(encryptedPdf(), { split_mode: "every-page" }));
    expect(locked.toBody()).toMatchObject({ code: "PDF_ENCRYPTED", context: { file_index: 0 } });
    const damaged = await engineFailure(split(irreparablePdf(), { split_mode: "every-page" }));
    expect(damaged.toBody()).toMatchObject({ code: "PDF_DAMAGED", context: { file_index: 0 } });
    const repaired = await split(repairablePdf("R", 2), { split_mode: "every-page" });
    expect(repaired.parts.map((part) => pageTexts(part.doc))).toEqual([texts("R", [1]), texts("R", [2])]);
    expect(repaired.facts).toEqual({ parts: 2, pages: 2, repaired_files: 1 });
  });
});

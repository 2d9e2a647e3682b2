import { describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { inspectPdf } from "../../engines/pdf/inspect.ts";
import { mergePdfs } from "../../engines/pdf/merge.ts";
import { engineFailure } from "./engine-failure.ts";
import {
  countPageObjects,
  emptyPdf,
  encryptedPdf,
  flatOutline,
  irreparablePdf,
  openPdf,
  pageText,
  pageTexts,
  pdfInput,
  repairablePdf,
  textPdf,
} from "./fixtures.ts";

async function merge(...files: [string, Uint8Array][]) {
  const progress: number[] = [];
  const output = await mergePdfs(
    files.map(([name, bytes]) => pdfInput(name, bytes)),
    {},
    (percent) => progress.push(percent),
  );
  return { ...output, doc: openPdf(output.bytes), progress };
}

const languageOf = (doc: ReturnType<typeof openPdf>) => doc.getTrailer().get("Root", "Lang").asString();

describe("mergePdfs", () => {
  it("keeps the documents' language when they all have the same one", async () => {
    // A new document had none: screen readers read merged German reports in their own default.
    const german = (label: string) => textPdf(label, 1, { lang: "de-DE" });
    expect(languageOf((await merge(["a.pdf", german("A")], ["b.pdf", german("B")])).doc)).toBe("de-DE");
    const mixed = await merge(["a.pdf", german("A")], ["b.pdf", textPdf("B", 1, { lang: "fr" })]);
    expect(mixed.doc.getTrailer().get("Root", "Lang").isNull()).toBe(true);
  });

  it("keeps every page in the order given", async () => {
    const { doc, facts, progress } = await merge(
      ["a.pdf", textPdf("A", 3)],
      ["b.pdf", textPdf("B", 2)],
      ["c.pdf", textPdf("C", 1)],
    );
    const expected = [0, 1, 2].map((i) => pageText("A", i));
    expected.push(pageText("B", 0), pageText("B", 1), pageText("C", 0));
    expect(pageTexts(doc)).toEqual(expected);
    expect(facts).toMatchObject({ pages: 6, files: 3 });
    expect(progress).toEqual([30, 60, 90, 100]);
  });

  it("keeps the order when the same file is given twice", async () => {
    const b = textPdf("B", 1);
    const { doc } = await merge(["b.pdf", b], ["a.pdf", textPdf("A", 1)], ["b.pdf", b]);
    expect(pageTexts(doc)).toEqual([pageText("B", 0), pageText("A", 0), pageText("B", 0)]);
  });

  it("rebuilds bookmarks with page offsets and adds one per file without bookmarks", async () => {
    const withOutline = textPdf("A", 3, {
      outline: [
        ["Intro", 0],
        ["Part", 1, [["Detail", 2]]],
      ],
    });
    const { doc, facts } = await merge(["Plain report.pdf", textPdf("P", 2)], ["a.pdf", withOutline]);
    expect(flatOutline(doc)).toEqual([
      { title: "Plain report", page: 0, depth: 0 },
      { title: "Intro", page: 2, depth: 0 },
      { title: "Part", page: 3, depth: 0 },
      { title: "Detail", page: 4, depth: 1 },
    ]);
    expect(facts.bookmarks).toBe(3);
  });

  it("keeps internal links pointing at the same pages, and external links", async () => {
    const { doc, facts } = await merge(
      ["p.pdf", textPdf("P", 2)],
      ["l.pdf", textPdf("L", 3, { links: true })],
    );
    expect(facts.links).toBe(6);
    for (let i = 0; i < 3; i++) {
      const links = doc.loadPage(2 + i).getLinks();
      const internal = links.filter((link) => !link.isExternal());
      const external = links.filter((link) => link.isExternal());
      expect(internal.map((link) => doc.resolveLink(link))).toEqual([2 + ((i + 1) % 3)]);
      expect(external.map((link) => link.getURI())).toEqual(["https://example.com/L"]);
    }
    // Link targets point at merged pages: no source page (and its page tree) was copied along.
    expect(countPageObjects(doc)).toBe(5);
  });

  it("keeps annotations and form fields, renaming fields that collide", async () => {
    const form = textPdf("F", 1, { note: "Check this", field: ["name", "Ada"] });
    const { doc, facts } = await merge(["1.pdf", form], ["2.pdf", form]);
    const widgets = [0, 1].map((i) =>
      doc
        .loadPage(i)
        .getWidgets()
        .map((w) => [w.getName(), w.getValue()]),
    );
    expect(widgets).toEqual([[["name", "Ada"]], [["name_2", "Ada"]]]);
    const notes = [0, 1].map((i) =>
      doc
        .loadPage(i)
        .getAnnotations()
        .map((a) => [a.getType(), a.getContents()]),
    );
    expect(notes).toEqual([[["Text", "Check this"]], [["Text", "Check this"]]]);
    expect(facts.form_fields).toBe(2);
    expect(countPageObjects(doc)).toBe(2);
  });

  it("removes signature values, which would copy the whole signed file along", async () => {
    const { doc, facts } = await merge(
      ["signed.pdf", textPdf("S", 2, { signed: true })],
      ["a.pdf", textPdf("A", 1)],
    );
    const widgets = doc.loadPage(0).getWidgets();
    expect(widgets.map((w) => [w.getFieldType(), w.getObject().get("V").isNull()])).toEqual([
      ["signature", true],
    ]);
    expect(facts.signatures_removed).toBe(1);
    expect(countPageObjects(doc)).toBe(3);
  });

  it("accepts a PDF with broken cross-references, which MuPDF repairs, and counts it in the facts", async () => {
    const { doc, facts } = await merge(
      ["ok.pdf", textPdf("A", 1)],
      ["repaired.pdf", repairablePdf("R", 2)],
      ["again.pdf", repairablePdf("S", 1)],
    );
    expect(pageTexts(doc)).toEqual([pageText("A", 0), pageText("R", 0), pageText("R", 1), pageText("S", 0)]);
    expect(facts.repaired_files).toBe(2);
    const plain = await merge(["a.pdf", textPdf("A", 1)], ["b.pdf", textPdf("B", 1)]);
    expect(plain.facts.repaired_files).toBeUndefined();
  });

  it("refuses a password-protected PDF, naming its position", async () => {
    const error = await engineFailure(merge(["a.pdf", textPdf("A", 1)], ["locked.pdf", encryptedPdf()]));
    expect(error.toBody()).toMatchObject({ code: "PDF_ENCRYPTED", context: { file_index: 1 } });
  });

  it("refuses an irreparable PDF as damaged, naming its position", async () => {
    const error = await engineFailure(merge(["bad.pdf", irreparablePdf()], ["a.pdf", textPdf("A", 1)]));
    expect(error.toBody()).toMatchObject({ code: "PDF_DAMAGED", context: { file_index: 0 } });
  });

  it("refuses a PDF without pages", async () => {
    const error = await engineFailure(
      merge(["a.pdf", textPdf("A", 1)], ["b.pdf", textPdf("B", 1)], ["e.pdf", emptyPdf()]),
    );
    expect(error.toBody()).toMatchObject({ code: "PDF_NO_PAGES", context: { file_index: 2 } });
  });

  it("writes a compressed file that re-opens", async () => {
    const inputs: [string, Uint8Array][] = [1, 2, 3].map((n) => [`${n}.pdf`, textPdf(`F${n}`, 20)]);
    const { bytes, doc } = await merge(...inputs);
    expect(doc.countPages()).toBe(60);
    expect(new TextDecoder("latin1").decode(bytes)).toContain("/ObjStm");
  });
});

describe("inspectPdf", () => {
  it("counts pages, repaired files included", () => {
    expect(inspectPdf(textPdf("A", 7))).toEqual({ pages: 7, repaired: false });
    expect(inspectPdf(repairablePdf("R", 3))).toEqual({ pages: 3, repaired: true });
  });

  it("gives the same codes as the merge", () => {
    const code = (bytes: Uint8Array) => {
      try {
        inspectPdf(bytes);
        return "none";
      } catch (error) {
        return error instanceof AppError ? error.code : "other";
      }
    };
    expect([encryptedPdf(), irreparablePdf(), emptyPdf()].map(code)).toEqual([
      "PDF_ENCRYPTED",
      "PDF_DAMAGED",
      "PDF_NO_PAGES",
    ]);
  });
});

import { existsSync } from "node:fs";
import { unzipSync } from "fflate";
import type * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { splitPdf } from "../../engines/pdf/split.ts";
import type { SplitOptions } from "../../engines/pdf/split-parts.ts";
import { bytesOf, corpus, corpusFiles } from "./corpus-files.ts";
import { countPageObjects, flatOutline, openPdf, pdfInput } from "./fixtures.ts";

/** The parts of a split as documents, in order. */
async function parts(file: string, options: SplitOptions): Promise<mupdf.PDFDocument[]> {
  const output = await splitPdf([pdfInput(file, bytesOf(file))], options, () => {});
  if (output.kind !== "zip") return [openPdf(output.bytes)];
  return Object.values(unzipSync(output.bytes)).map((bytes) => openPdf(bytes));
}

const linksOf = (doc: mupdf.PDFDocument, page: number) =>
  doc
    .loadPage(page)
    .getLinks()
    .map((link) => (link.isExternal() ? link.getURI() : doc.resolveLink(link)));

describe.skipIf(!existsSync(corpus))("split of real files", () => {
  const files = existsSync(corpus) ? corpusFiles() : [];
  const plain = files.filter((f) => f.encrypted === "no" && f.pages > 0);

  it("splits every unencrypted file into 10-page parts whose pages add up, none copied along", async () => {
    expect(plain.length).toBeGreaterThan(5);
    for (const { file, pages } of plain) {
      const split = await parts(file, { split_mode: "every-n", pages_per_part: 10 });
      expect([file, split.length]).toEqual([file, Math.ceil(pages / 10)]);
      expect([file, split.reduce((sum, doc) => sum + doc.countPages(), 0)]).toEqual([file, pages]);
      for (const doc of split) expect([file, countPageObjects(doc)]).toEqual([file, doc.countPages()]);
    }
  });

  it("keeps a manual's links inside each part at the same pages and drops those to other parts", async () => {
    const name = "deb_R-intro.pdf";
    if (!files.some((f) => f.file === name)) return;
    const source = openPdf(bytesOf(name));
    const split = await parts(name, { split_mode: "every-n", pages_per_part: 20 });
    let kept = 0;
    let dropped = 0;
    for (const [index, part] of split.entries()) {
      const offset = index * 20;
      for (let page = 0; page < part.countPages(); page++) {
        const expected: (string | number)[] = [];
        for (const target of linksOf(source, offset + page)) {
          if (typeof target === "string") expected.push(target);
          else if (target >= offset && target < offset + part.countPages()) expected.push(target - offset);
          else dropped++;
        }
        expect(linksOf(part, page)).toEqual(expected);
        kept += expected.length;
      }
    }
    // 78 links stay inside their 20-page part, 448 go to other parts.
    expect(kept).toBeGreaterThan(50);
    expect(dropped).toBeGreaterThan(100);
  });

  it("keeps a manual's bookmarks whose page is in the part, at the same page", async () => {
    const name = "deb_R-intro.pdf";
    if (!files.some((f) => f.file === name)) return;
    const source = flatOutline(openPdf(bytesOf(name))).filter((b) => b.page !== undefined);
    const split = await parts(name, { split_mode: "ranges", page_ranges: "1-30,31-113", pages_per_part: 1 });
    let found = 0;
    for (const [index, part] of split.entries()) {
      const [from, to] = index === 0 ? [0, 29] : [30, 112];
      const expected = source
        .filter((b) => (b.page ?? -1) >= from && (b.page ?? -1) <= to)
        .map((b) => [b.title, (b.page ?? 0) - from]);
      const actual = flatOutline(part)
        .filter((b) => b.page !== undefined)
        .map((b) => [b.title, b.page]);
      expect(actual).toEqual(expected);
      found += actual.length;
    }
    expect(found).toBe(source.length);
  });

  it("keeps the fields of a real form on the page they were on", async () => {
    const form = files.find((f) => /AcroForm/.test(f.kind) && f.pages > 1 && f.encrypted === "no");
    if (form === undefined) return;
    const source = openPdf(bytesOf(form.file));
    const split = await parts(form.file, { split_mode: "every-page", pages_per_part: 1 });
    let fields = 0;
    for (const [page, part] of split.entries()) {
      const widgets = (doc: mupdf.PDFDocument, index: number) =>
        doc
          .loadPage(index)
          .getWidgets()
          .map((w) => [w.getName(), w.getValue()]);
      expect(widgets(part, 0)).toEqual(widgets(source, page));
      fields += widgets(part, 0).length;
    }
    expect(fields).toBeGreaterThan(10);
  });
});

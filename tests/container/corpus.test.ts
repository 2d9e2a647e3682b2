/**
 * Real files from ../shared/corpus/pdf (never copied into the repository); SOURCES.tsv there says
 * what each file is. Skipped when the corpus is absent.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AppError } from "../../contract/index.ts";
import { inspectPdf } from "../../engines/pdf/inspect.ts";
import { mergePdfs } from "../../engines/pdf/merge.ts";
import { bytesOf, corpus, corpusFiles } from "./corpus-files.ts";
import { countPageObjects, openPdf, pdfInput } from "./fixtures.ts";

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "none",
    (error: unknown) =>
      error instanceof AppError ? `${error.code} ${JSON.stringify(error.context)}` : "other",
  );
}

describe.skipIf(!existsSync(corpus))("corpus", () => {
  const files = existsSync(corpus) ? corpusFiles() : [];
  const plain = files.filter((f) => f.encrypted === "no");

  it("counts the pages SOURCES.tsv lists for every unencrypted file", () => {
    expect(plain.length).toBeGreaterThan(5);
    for (const f of plain) expect([f.file, inspectPdf(bytesOf(f.file)).pages]).toEqual([f.file, f.pages]);
  });

  it("merges every unencrypted file: page count is the sum, the output re-opens", async () => {
    const inputs = plain.map((f) => pdfInput(f.file, bytesOf(f.file)));
    const sum = inputs.reduce((total, input) => total + openPdf(input.bytes).countPages(), 0);
    const output = await mergePdfs(inputs, {}, () => {});
    const merged = openPdf(output.bytes);
    expect([output.facts.pages, merged.countPages()]).toEqual([sum, sum]);
    // No page was copied along through a link, bookmark or field (they point at merged pages).
    expect(countPageObjects(merged)).toBe(sum);
  });

  it("keeps named-destination links of real manuals pointing at the same pages", async () => {
    const names = ["deb_R-intro.pdf", "deb_gnuplot.pdf"].filter((name) => files.some((f) => f.file === name));
    const sources = names.map((name) => openPdf(bytesOf(name)));
    const output = await mergePdfs(
      names.map((name) => pdfInput(name, bytesOf(name))),
      {},
      () => {},
    );
    const merged = openPdf(output.bytes);
    let offset = 0;
    let checked = 0;
    for (const source of sources) {
      for (let page = 0; page < source.countPages(); page++) {
        const expected = source
          .loadPage(page)
          .getLinks()
          .map((link) => (link.isExternal() ? link.getURI() : source.resolveLink(link) + offset));
        const actual = merged
          .loadPage(offset + page)
          .getLinks()
          .map((link) => (link.isExternal() ? link.getURI() : merged.resolveLink(link)));
        expect(actual).toEqual(expected);
        checked += expected.length;
      }
      offset += source.countPages();
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("gives clear codes for the PDF 2.0 Brotli file and password-protected files", async () => {
    const smallest = plain.reduce((a, b) => (bytesOf(b.file).length < bytesOf(a.file).length ? b : a));
    const sample = pdfInput("sample.pdf", bytesOf(smallest.file));
    const unreadable = files.filter((f) => f.pages === 0);
    expect(unreadable.length).toBeGreaterThan(0);
    for (const f of unreadable) {
      const code = await codeOf(mergePdfs([sample, pdfInput(f.file, bytesOf(f.file))], {}, () => {}));
      expect([f.file, code]).toEqual([f.file, 'PDF_DAMAGED {"file_index":1}']);
    }
    const encrypted = files.filter((f) => f.encrypted === "yes");
    expect(encrypted.length).toBeGreaterThan(0);
    for (const f of encrypted) {
      const result = mergePdfs([sample, pdfInput(f.file, bytesOf(f.file))], {}, () => {});
      // An empty user password opens the file (only its owner password restricts it).
      if (/empty user pw/i.test(f.kind)) {
        const merged = openPdf((await result).bytes);
        expect([merged.countPages(), merged.getMetaData("encryption")]).toEqual([
          openPdf(sample.bytes).countPages() + f.pages,
          "None",
        ]);
      } else {
        expect([f.file, await codeOf(result)]).toEqual([f.file, 'PDF_ENCRYPTED {"file_index":1}']);
      }
    }
  });

  it("keeps both copies of a filled tax form, with separate field names and the values", async () => {
    const form = files.find((f) => /AcroForm/.test(f.kind) && f.pages > 1);
    if (form === undefined) return;
    const bytes = bytesOf(form.file);
    const source = openPdf(bytes);
    const widgetsOf = (doc: ReturnType<typeof openPdf>, from: number, count: number) =>
      Array.from({ length: count }, (_, i) => doc.loadPage(from + i).getWidgets()).flat();
    const original = widgetsOf(source, 0, source.countPages());
    const output = await mergePdfs([pdfInput("1.pdf", bytes), pdfInput("2.pdf", bytes)], {}, () => {});
    const merged = openPdf(output.bytes);
    const first = widgetsOf(merged, 0, source.countPages());
    const second = widgetsOf(merged, source.countPages(), source.countPages());
    expect(first.map((w) => [w.getName(), w.getValue()])).toEqual(
      original.map((w) => [w.getName(), w.getValue()]),
    );
    expect(second.map((w) => w.getValue())).toEqual(original.map((w) => w.getValue()));
    const firstNames = new Set(first.map((w) => w.getName()));
    expect(second.some((w) => firstNames.has(w.getName()))).toBe(false);
  });
});

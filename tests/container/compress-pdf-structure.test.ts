/**
 * Compress PDF on the structure around the pages: the file format a PDF/A-1 claim requires, and
 * the document-level objects of small files (scripts, forms without fields, metadata that repeats
 * the document information, drawings that draw nothing). PDFs built in code.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as mupdf from "mupdf";
import { describe, expect, it } from "vitest";
import { compressPdf } from "../../engines/pdf/compress.ts";
import { openPdf, pageTexts, pdfInput, save, textPdfDocument } from "./fixtures.ts";

async function compressed(bytes: Uint8Array): Promise<Uint8Array> {
  const { bytes: out } = await compressPdf([pdfInput("in.pdf", bytes)], { quality: "medium" }, () => {});
  return out;
}

const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

/** Whether `qpdf --check` passes on `bytes`. */
function qpdfChecks(bytes: Uint8Array): boolean {
  const dir = mkdtempSync(join(tmpdir(), "compress-structure-"));
  try {
    const path = join(dir, "out.pdf");
    writeFileSync(path, bytes);
    return spawnSync("qpdf", ["--check", path]).status === 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A document with an XMP packet whose description holds `properties`. */
function withXmp(doc: mupdf.PDFDocument, properties: string): string {
  const xml = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">${properties}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  const stream = doc.addRawStream(new TextEncoder().encode(xml), { Type: "Metadata", Subtype: "XML" });
  doc.getTrailer().get("Root").put("Metadata", stream);
  return xml;
}

describe("compressPdf on files claiming PDF/A", () => {
  it("writes a PDF/A-1 file with a cross-reference table and no object streams (PDF 1.4 has neither)", async () => {
    const archival = (part: number) => {
      const doc = textPdfDocument(`Archived${part}`, 12);
      // Drawings stored without a filter: something for the compression to gain.
      const lines = Array.from({ length: 200 }, (_, i) => `${i} 10 m ${i} 20 l`).join(" ");
      for (let i = 0; i < 12; i++) {
        const contents = doc.findPage(i).get("Contents");
        contents.writeStream(`${contents.readStream().asString()} q ${lines} S Q`);
      }
      const xml = withXmp(
        doc,
        `<pdfaid:part>${part}</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance>`,
      );
      return { input: save(doc, ""), xml };
    };
    const part1 = archival(1);
    const out = await compressed(part1.input);
    expect(out.length).toBeLessThan(part1.input.length);
    const text = latin1(out);
    expect(text).toMatch(/\nxref\r?\n0 \d+/);
    expect(text).not.toContain("/ObjStm");
    expect(text).not.toContain("/XRef");
    expect(qpdfChecks(out)).toBe(true);
    const doc = openPdf(out);
    expect(pageTexts(doc)).toEqual(Array.from({ length: 12 }, (_, i) => `Archived1 page ${i + 1}`));
    const metadata = doc.getTrailer().get("Root", "Metadata");
    expect(metadata.get("Filter").isNull()).toBe(true);
    expect(metadata.readStream().asString()).toBe(part1.xml);
    // PDF/A-2 is based on PDF 1.7: object streams stay.
    const part2 = archival(2);
    expect(latin1(await compressed(part2.input))).toContain("/ObjStm");
  });
});

describe("compressPdf on document JavaScript held in streams", () => {
  it("stores each script as a string in its action (packed into an object stream), its bytes unchanged", async () => {
    const doc = textPdfDocument("Scripted", 1);
    // Parentheses, backslashes, CR LF, tabs and Latin-1 bytes: what a string must escape.
    const ascii = Array.from(
      { length: 40 },
      (_, i) => `function f${i}(a) {\r\n\tif (a > ${i}) app.alert("(${i}) \\\\ done");\r\n}\r\n`,
    ).join("");
    const latin = Uint8Array.from([...new TextEncoder().encode("app.alert('"), 0xe9, 0xe8, 0xff, 0x28, 0x29]);
    const utf16 = Uint8Array.from([0xfe, 0xff, 0x00, 0x52, 0x00, 0xe9, 0x00, 0x73, 0x00, 0x75]);
    const shared = doc.addStream(new TextEncoder().encode(ascii), {});
    const action = (script: mupdf.PDFObject) => doc.addObject({ S: doc.newName("JavaScript"), JS: script });
    const actions = [
      action(shared),
      action(doc.addStream(latin, {})),
      action(doc.addStream(utf16, {})),
      action(shared),
    ];
    const names = doc.newArray();
    actions.forEach((item, i) => {
      names.push(doc.newString(`script${i}`));
      names.push(item);
    });
    doc
      .getTrailer()
      .get("Root")
      .put("Names", doc.addObject({ JavaScript: doc.addObject({ Names: names }) }));
    const out = openPdf(await compressed(save(doc, "")));
    const tree = out.getTrailer().get("Root", "Names", "JavaScript", "Names");
    const expected = [new TextEncoder().encode(ascii), latin, utf16, new TextEncoder().encode(ascii)];
    expected.forEach((bytes, i) => {
      const script = tree.get(2 * i + 1, "JS");
      expect(script.isString()).toBe(true);
      expect([...script.asByteString()]).toEqual([...bytes]);
    });
  });
});

/**
 * The page trees of bench/outside-pdfs.ts written object by object (a /Rotate inherited from inner
 * nodes, offset and rotated crop boxes, UserUnit, very large and very small pages, pages without
 * /Contents or /Resources, an incremental update replacing a page, a filled form of every field
 * kind) and with MuPDF (40 pages with outline, links, a note, ink, free text and a field).
 */
import { save, textPdfDocument } from "../tests/container/fixtures.ts";
import { pdfOfObjects } from "../tests/worker/fixtures.ts";

const stream = (content: string) =>
  `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`;
const HELVETICA = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
const textAt = (x: number, y: number, size: number, text: string) =>
  stream(`BT /F1 ${size} Tf ${x} ${y} Td (${text}) Tj ET`);

/**
 * Four pages under two intermediate nodes: /Rotate 90 on the first node (pages 1–2, page 2
 * overriding it with 270), /Rotate 180 on the second; /Resources and /MediaBox only on the root.
 */
export function inheritedRotatePdf(): Uint8Array {
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 4 /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> >>",
    "<< /Type /Pages /Parent 2 0 R /Kids [6 0 R 7 0 R] /Count 2 /Rotate 90 >>",
    "<< /Type /Pages /Parent 2 0 R /Kids [8 0 R 9 0 R] /Count 2 /Rotate 180 >>",
    HELVETICA,
    "<< /Type /Page /Parent 3 0 R /Contents 10 0 R >>",
    "<< /Type /Page /Parent 3 0 R /Contents 11 0 R /Rotate 270 >>",
    "<< /Type /Page /Parent 4 0 R /Contents 12 0 R >>",
    "<< /Type /Page /Parent 4 0 R /Contents 13 0 R /Rotate 0 >>",
    textAt(72, 700, 24, "Inherited rotate 90 page one"),
    textAt(72, 700, 24, "Own rotate 270 page two"),
    textAt(72, 700, 24, "Inherited rotate 180 page three"),
    textAt(72, 700, 24, "Own rotate 0 page four"),
  ]);
}

/**
 * Boxes: a crop box offset inside the media box; a media box not at the origin; a crop box with a
 * /Rotate 90; UserUnit 2; a page of 14,400 × 14,400 points (the largest Acrobat makes) and one of
 * 3 × 3 points.
 */
export function boxesPdf(): Uint8Array {
  const pages = [
    "/MediaBox [0 0 612 792] /CropBox [100 150 500 650]",
    "/MediaBox [-300 -400 312 392]",
    "/MediaBox [0 0 612 792] /CropBox [50 50 400 500] /Rotate 90",
    "/MediaBox [0 0 612 792] /UserUnit 2",
    "/MediaBox [0 0 14400 14400]",
    "/MediaBox [0 0 3 3]",
  ];
  const texts = [
    textAt(120, 400, 20, "Offset crop box page one"),
    textAt(-250, 0, 20, "Media box off the origin page two"),
    textAt(80, 300, 20, "Rotated crop page three"),
    textAt(72, 700, 20, "UserUnit two page four"),
    textAt(1000, 7000, 400, "Huge page five"),
    textAt(0, 1, 1, "tiny"),
  ];
  const n = pages.length;
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i} 0 R`).join(" ")}] /Count ${n} >>`,
    HELVETICA,
    ...pages.map(
      (box, i) =>
        `<< /Type /Page /Parent 2 0 R ${box} /Resources << /Font << /F1 3 0 R >> >> /Contents ${4 + n + i} 0 R >>`,
    ),
    ...texts,
  ]);
}

/** Pages without /Contents, without /Resources (text in the default font), and both missing. */
export function barePagesPdf(): Uint8Array {
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R 6 0 R] /Count 4 /MediaBox [0 0 595 842] >>",
    `<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 7 0 R >> >> /Contents 8 0 R >>`,
    "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 7 0 R >> >> >>",
    "<< /Type /Page /Parent 2 0 R /Contents 9 0 R >>",
    "<< /Type /Page /Parent 2 0 R >>",
    HELVETICA,
    textAt(72, 700, 24, "A page with text before blank pages"),
    stream("0.5 g 72 72 200 200 re f"),
  ]);
}

/**
 * A three-page file and an incremental update that replaces page 2 by a new page object (the old
 * one left in the file) and changes page 3's contents, as an editor's "save" does.
 */
export function incrementalUpdatePdf(): Uint8Array {
  const base = pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 /MediaBox [0 0 595 842] /Resources << /Font << /F1 6 0 R >> >> >>",
    "<< /Type /Page /Parent 2 0 R /Contents 7 0 R >>",
    "<< /Type /Page /Parent 2 0 R /Contents 8 0 R >>",
    "<< /Type /Page /Parent 2 0 R /Contents 9 0 R >>",
    HELVETICA,
    textAt(72, 700, 24, "Original page one"),
    textAt(72, 700, 24, "Original page two, replaced"),
    textAt(72, 700, 24, "Original page three, edited"),
  ]);
  const prev = Number(/startxref\n(\d+)/.exec(Buffer.from(base).toString("latin1"))?.[1]);
  let update = "";
  const offsets: [number, number][] = [];
  const add = (n: number, body: string) => {
    offsets.push([n, base.length + Buffer.byteLength(update, "latin1")]);
    update += `${n} 0 obj\n${body}\nendobj\n`;
  };
  add(
    2,
    "<< /Type /Pages /Kids [3 0 R 10 0 R 5 0 R] /Count 3 /MediaBox [0 0 595 842] /Resources << /Font << /F1 6 0 R >> >> >>",
  );
  add(9, textAt(72, 700, 24, "Edited page three"));
  add(10, "<< /Type /Page /Parent 2 0 R /Contents 11 0 R >>");
  add(11, textAt(72, 700, 24, "Replacement page two"));
  const xref = base.length + Buffer.byteLength(update, "latin1");
  update += "xref\n0 1\n0000000000 65535 f \n";
  for (const [n, offset] of offsets) update += `${n} 1\n${String(offset).padStart(10, "0")} 00000 n \n`;
  update += `trailer\n<< /Size 12 /Root 1 0 R /Prev ${prev} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.concat([base, Buffer.from(update, "latin1")]);
}

/** A form with filled fields of each kind (text, checkbox, radio, choice), in an AcroForm with /NeedAppearances. */
export function filledFormPdf(): Uint8Array {
  const widget = (rect: string, rest: string) =>
    `<< /Type /Annot /Subtype /Widget /Rect [${rect}] /P 3 0 R /F 4 ${rest} >>`;
  return pdfOfObjects([
    "<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 6 0 R 7 0 R 8 0 R] /NeedAppearances true /DA (/Helv 0 Tf 0 g) /DR << /Font << /Helv 4 0 R >> >> >> >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 12 0 R /Annots [5 0 R 6 0 R 9 0 R 10 0 R 8 0 R 11 0 R] >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    widget("150 700 400 720", "/FT /Tx /T (name) /V (Ada Lovelace) /DA (/Helv 12 Tf 0 g)"),
    widget("150 660 165 675", "/FT /Btn /T (agree) /V /Yes /AS /Yes /MK << /CA (4) >> /DA (/ZaDb 0 Tf 0 g)"),
    "<< /FT /Btn /Ff 49152 /T (size) /V /M /Kids [9 0 R 10 0 R] >>",
    widget(
      "150 580 300 600",
      "/FT /Ch /Ff 131072 /T (country) /Opt [(France) (India) (Spain)] /V (India) /DA (/Helv 12 Tf 0 g)",
    ),
    `<< /Type /Annot /Subtype /Widget /Parent 7 0 R /Rect [150 620 165 635] /P 3 0 R /F 4 /AS /Off /AP << /N << /S 13 0 R /Off 13 0 R >> >> >>`,
    `<< /Type /Annot /Subtype /Widget /Parent 7 0 R /Rect [200 620 215 635] /P 3 0 R /F 4 /AS /M /AP << /N << /M 13 0 R /Off 13 0 R >> >> >>`,
    "<< /Type /Annot /Subtype /Highlight /Rect [70 760 300 780] /QuadPoints [70 780 300 780 70 760 300 760] /C [1 1 0] /Contents (Check the name) /P 3 0 R >>",
    stream(
      "BT /F1 12 Tf 72 705 Td (Name:) Tj 0 -40 Td (I agree:) Tj 0 -40 Td (Size:) Tj 0 -40 Td (Country:) Tj ET BT /F1 18 Tf 72 765 Td (Filled application form) Tj ET",
    ),
    "<< /Type /XObject /Subtype /Form /BBox [0 0 15 15] /Length 17 >>\nstream\n0 g 3 3 9 9 re f\n\nendstream",
  ]);
}

/** MuPDF: 40 pages (OCR's limit) with an outline, links on every page, a note and a filled text field. */
export function annotatedPdf(): Uint8Array {
  const doc = textPdfDocument("Annotated", 40, {
    outline: [
      [
        "Part one",
        0,
        [
          ["Chapter 1", 1],
          ["Chapter 2", 9],
        ],
      ],
      ["Part two", 20, [["Chapter 3", 25]]],
    ],
    links: true,
    note: "Reviewer: please check page one",
    field: ["reference", "INV-2026-0412"],
  });
  const ink = doc.loadPage(2).createAnnotation("Ink");
  ink.setInkList([
    [
      [100, 100],
      [150, 160],
      [200, 120],
    ],
  ]);
  ink.update();
  const free = doc.loadPage(3).createAnnotation("FreeText");
  free.setRect([100, 500, 400, 540]);
  free.setContents("A free text comment");
  free.update();
  return save(doc);
}

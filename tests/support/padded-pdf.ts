/**
 * A valid one-page PDF of about `totalBytes`: the page's second content stream is `totalBytes` worth
 * of spaces (harmless page content), so readers and mergers handle it as a real large PDF. Built in
 * code, used by the upload tests and bench/upload-memory.ts.
 */
export function paddedPdf(totalBytes: number): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const text = "BT /F1 24 Tf 72 700 Td (Padded) Tj ET";
  const head = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents [5 0 R 6 0 R] >>",
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let prefix = "%PDF-1.7\n";
  const offsets: number[] = [];
  head.forEach((body, i) => {
    offsets.push(prefix.length);
    prefix += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  offsets.push(prefix.length);
  const padding = Math.max(0, totalBytes - prefix.length - 400);
  prefix += `6 0 obj\n<< /Length ${padding} >>\nstream\n`;
  const afterPadding = prefix.length + padding;
  let suffix = "\nendstream\nendobj\n";
  const xref = afterPadding + suffix.length;
  suffix += `xref\n0 7\n0000000000 65535 f \n`;
  for (const offset of offsets) suffix += `${String(offset).padStart(10, "0")} 00000 n \n`;
  suffix += `trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const prefixBytes = encoder.encode(prefix);
  const suffixBytes = encoder.encode(suffix);
  const out = new Uint8Array(prefixBytes.length + padding + suffixBytes.length);
  out.set(prefixBytes);
  out.fill(0x20, prefixBytes.length, prefixBytes.length + padding);
  out.set(suffixBytes, prefixBytes.length + padding);
  return out;
}

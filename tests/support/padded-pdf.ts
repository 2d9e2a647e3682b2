/**
 * A valid one-page PDF of about `totalBytes`, built in code, used by the upload tests and the memory
 * benchmarks. The padding is
 * - "spaces": a second content stream of spaces (harmless page content, compresses to nothing);
 * - "noise": a grey image of random (incompressible) pixels drawn on the page, 1024 pixels wide, so
 *   a merge keeps it and its output is as large as its input.
 */
export function paddedPdf(totalBytes: number, fill: "spaces" | "noise" = "spaces"): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const noise = fill === "noise";
  const text = noise ? "q 612 0 0 792 0 0 cm /Im1 Do Q" : "BT /F1 24 Tf 72 700 Td (Padded) Tj ET";
  const resources = noise ? "/XObject << /Im1 6 0 R >>" : "/Font << /F1 3 0 R >>";
  const contents = noise ? "5 0 R" : "[5 0 R 6 0 R]";
  const head = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${resources} >> /Contents ${contents} >>`,
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
  ];
  let prefix = "%PDF-1.7\n";
  const offsets: number[] = [];
  head.forEach((body, i) => {
    offsets.push(prefix.length);
    prefix += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  offsets.push(prefix.length);
  const wanted = Math.max(0, totalBytes - prefix.length - 500);
  // An image's data is whole rows of 1024 pixels.
  const padding = noise ? Math.max(1024, wanted - (wanted % 1024)) : wanted;
  const image = `/Type /XObject /Subtype /Image /Width 1024 /Height ${padding / 1024} /ColorSpace /DeviceGray /BitsPerComponent 8 `;
  prefix += `6 0 obj\n<< ${noise ? image : ""}/Length ${padding} >>\nstream\n`;
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
  const body = out.subarray(prefixBytes.length, prefixBytes.length + padding);
  if (noise) {
    // getRandomValues fills at most 64 KiB per call.
    for (let at = 0; at < body.length; at += 65_536) crypto.getRandomValues(body.subarray(at, at + 65_536));
  } else body.fill(0x20);
  out.set(suffixBytes, prefixBytes.length + padding);
  return out;
}

/**
 * Test files built in code: small valid PDFs (hand-written objects with a correct xref table),
 * PNGs (zlib via CompressionStream, CRC-32 per chunk) and a JPEG header reader.
 */
const ascii = new TextEncoder();

export interface MakePdfOptions {
  /** Locked with a user password (Standard security handler): no reader opens it without one. */
  readonly encrypted?: boolean;
  /** Cross-reference offsets that point beside the objects: readers must rebuild the table. */
  readonly brokenXref?: boolean;
}

const HEX_32 = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/** A PDF with `pages` Letter pages (0 makes an empty page tree), each showing "{label} n" in Helvetica. */
export function makePdf(pages: number, label = "Page", options: MakePdfOptions = {}): Uint8Array {
  const bodies: string[] = [];
  const pageIds = Array.from({ length: pages }, (_, i) => 4 + 2 * i);
  bodies.push("<< /Type /Catalog /Pages 2 0 R >>");
  bodies.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages} >>`);
  bodies.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (let i = 0; i < pages; i++) {
    const content = `BT /F1 24 Tf 72 700 Td (${label} ${i + 1}) Tj ET`;
    bodies.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
    );
    bodies.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  // An /O and /U no password matches: the empty user password fails, so the file stays locked.
  const encrypt = options.encrypted
    ? ` /Encrypt << /Filter /Standard /V 1 /R 2 /O <${HEX_32}> /U <${HEX_32}> /P -44 >> /ID [<${HEX_32.slice(0, 32)}> <${HEX_32.slice(0, 32)}>]`
    : "";
  return pdfOfObjects(bodies, encrypt, options.brokenXref ? 7 : 0);
}

/**
 * A PDF of the given object bodies (object i + 1 is `bodies[i]`, the catalog first) with a correct
 * xref table, or one whose offsets are `shift` bytes off; `trailer` adds trailer entries.
 */
export function pdfOfObjects(bodies: readonly string[], trailer = "", shift = 0): Uint8Array {
  let text = "%PDF-1.7\n";
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset + shift).padStart(10, "0")} 00000 n \n`;
  text += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return ascii.encode(text);
}

/** Starts like a PDF, but holds no objects at all: no reader can repair it. */
export function damagedPdf(): Uint8Array {
  const noise = Uint8Array.from({ length: 2048 }, (_, i) => (i * 73 + 41) % 251);
  return new Uint8Array([...ascii.encode("%PDF-1.7\n"), ...noise]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(ascii.encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export type Rgba = readonly [number, number, number, number];

/** An 8-bit RGBA PNG whose pixel (x, y) is `pixel(x, y)`. */
export async function makePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => Rgba,
): Promise<Uint8Array> {
  const raw = new Uint8Array(height * (1 + width * 4));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 4);
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 4);
  }
  return rgbaPng(width, height, raw);
}

/**
 * A PNG whose header says `width`×`height` RGBA while its image data inflates to `inflatedBytes`
 * zeros: a few hundred KB that a decoder trusting the stream turns into hundreds of MB.
 */
export function makeLyingPng(width: number, height: number, inflatedBytes: number): Promise<Uint8Array> {
  return rgbaPng(width, height, new Uint8Array(inflatedBytes));
}

/** An 8-bit RGBA PNG around `raw`, the filtered image data (each row after its filter byte). */
async function rgbaPng(width: number, height: number, raw: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const compressed = new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"));
  const idat = new Uint8Array(await new Response(compressed).arrayBuffer());
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 6, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

/** Width and height from a JPEG's start-of-frame marker; null when there is none. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1] ?? 0;
    const length = ((bytes[i + 2] ?? 0) << 8) | (bytes[i + 3] ?? 0);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      return {
        height: ((bytes[i + 5] ?? 0) << 8) | (bytes[i + 6] ?? 0),
        width: ((bytes[i + 7] ?? 0) << 8) | (bytes[i + 8] ?? 0),
      };
    }
    i += 2 + length;
  }
  return null;
}

/** True when the bytes begin with the PDF header. */
export function startsWithPdfHeader(bytes: Uint8Array): boolean {
  return new TextDecoder().decode(bytes.subarray(0, 5)) === "%PDF-";
}

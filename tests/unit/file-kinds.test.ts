/**
 * Markdown is sniffed as NUL-free UTF-8 (contract/file-kinds.ts). Devanagari, Telugu and Tamil take
 * three bytes a character: wherever the file or the 4 KiB sniff window ends, inside a character or
 * not, a Hindi, Telugu or Tamil document is Markdown; a byte that is not UTF-8 anywhere is not.
 */
import { describe, expect, it } from "vitest";
import { markdownText, SNIFF_BYTES, sniffFileKind } from "../../contract/index.ts";
import { utf16WithMark } from "../support/text-encodings.ts";

/** Short documents written for this test, one per script, with headings, lists and emphasis. */
const DOCUMENTS = {
  hindi: [
    "# यात्रा की योजना",
    "",
    "अगले महीने हम पहाड़ों की ओर जाएँगे। **सुबह जल्दी** निकलना होगा ताकि दोपहर तक पहुँच सकें।",
    "",
    "## सामान की सूची",
    "",
    "- गरम कपड़े और एक छाता",
    "- पानी की बोतल, नक्शा और दवाइयाँ",
    "- कैमरा, ताकि झील की तस्वीरें ले सकें",
    "",
    "रास्ते में एक छोटा गाँव है जहाँ *ताज़ी चाय* मिलती है।",
  ],
  telugu: [
    "# వారాంతపు వంటకాలు",
    "",
    "ఈ ఆదివారం మేము ఇంట్లో **పులిహోర** మరియు పాయసం చేస్తాము.",
    "",
    "## కావలసిన పదార్థాలు",
    "",
    "- బియ్యం, చింతపండు మరియు వేరుశనగలు",
    "- పాలు, బెల్లం మరియు యాలకులు",
    "- కరివేపాకు, ఆవాలు, పసుపు",
    "",
    "వంట అయిన తర్వాత అందరం కలిసి *భోజనం* చేద్దాం.",
  ],
  tamil: [
    "# நூலக அறிவிப்பு",
    "",
    "புதிய நூல்கள் இந்த வாரம் **வெள்ளிக்கிழமை** முதல் கிடைக்கும்.",
    "",
    "## நேரங்கள்",
    "",
    "- திங்கள் முதல் சனி வரை காலை பத்து மணி",
    "- ஞாயிறு அன்று நூலகம் மூடப்பட்டிருக்கும்",
    "- சிறுவர் பகுதி மாலை ஐந்து மணி வரை",
    "",
    "உறுப்பினர் அட்டையை *மறக்காமல்* கொண்டு வாருங்கள்.",
  ],
} as const;

const encode = (lines: readonly string[], times = 1) =>
  new TextEncoder().encode(Array.from({ length: times }, () => `${lines.join("\n")}\n`).join("\n"));

describe("Markdown in Indic scripts by content", () => {
  for (const [script, lines] of Object.entries(DOCUMENTS)) {
    it(`accepts ${script} Markdown ending at every byte, inside a character or not`, () => {
      const document = encode(lines);
      expect(document.length).toBeGreaterThan(500);
      const refused: number[] = [];
      for (let end = 1; end <= document.length; end++) {
        if (sniffFileKind(document.subarray(0, end), "notes.md") !== "markdown") refused.push(end);
      }
      expect(refused).toEqual([]);
    });

    it(`accepts a long ${script} document whatever byte its 4 KiB sniff window ends on`, () => {
      const document = encode(lines, 12);
      expect(document.length).toBeGreaterThan(SNIFF_BYTES + 3);
      const refused: number[] = [];
      // Shift the window's end through three characters' worth of bytes.
      for (let start = 0; start < 9; start++) {
        const head = document.subarray(start, start + SNIFF_BYTES);
        // A window may also start inside a character: skip continuation bytes as a file's start would not have them.
        let from = 0;
        while (((head[from] ?? 0) & 0xc0) === 0x80) from++;
        if (sniffFileKind(head.subarray(from), "notes.md") !== "markdown") refused.push(start);
      }
      expect(refused).toEqual([]);
    });
  }

  it("refuses bytes that are not UTF-8 anywhere, the last byte included", () => {
    const document = encode(DOCUMENTS.hindi);
    for (const bad of [0xff, 0xc0, 0x80]) {
      expect(sniffFileKind(new Uint8Array([...document, bad]), "notes.md"), `${bad}`).toBeNull();
      // After "# ", before the first character of the heading.
      expect(
        sniffFileKind(new Uint8Array([...document.subarray(0, 2), bad, ...document.subarray(2)]), "notes.md"),
      ).toBeNull();
    }
    // A three-byte lead followed by ASCII: broken, not cut.
    expect(sniffFileKind(new Uint8Array([...document, 0xe0, 0x41]), "notes.md")).toBeNull();
    // A Latin-1 file: é is 0xE9 alone.
    expect(
      sniffFileKind(new Uint8Array([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a, 0x41]), "cafe.md"),
    ).toBeNull();
  });
});

describe("a PDF without its %PDF- header", () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  const body =
    "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n";

  it("is a PDF when it starts with an object, after white space and comment lines", () => {
    expect(sniffFileKind(latin1(`%\xe2\xe3\xcf\xd3\n${body}`))).toBe("pdf");
    expect(sniffFileKind(latin1(`\r\n  ${body}`))).toBe("pdf");
    expect(sniffFileKind(latin1("12 0 obj<</Type/Catalog>>endobj"))).toBe("pdf");
  });

  it("is not a PDF when no object starts it", () => {
    expect(sniffFileKind(latin1("1 0 objects are listed below\n"), "notes.md")).toBe("markdown");
    expect(sniffFileKind(latin1(`% a comment\nplain text\n${body}`))).toBeNull();
    expect(sniffFileKind(latin1(`${" ".repeat(1030)}${body}`))).toBeNull();
  });
});

describe("UTF-16 Markdown with a byte order mark", () => {
  const utf16 = utf16WithMark;
  const document = `${DOCUMENTS.hindi.join("\n")}\n\nCafé, 😀 and **bold**.\n`;

  it("is Markdown in either byte order (Notepad's 'Unicode', PowerShell's redirection)", () => {
    for (const order of ["le", "be"] as const) {
      expect(sniffFileKind(utf16(document, order), "notes.md"), order).toBe("markdown");
      expect(markdownText(utf16(document, order)), order).toBe(document);
    }
  });

  it("is Markdown whatever byte the sniffed bytes end on, inside a character or a surrogate pair", () => {
    const bytes = utf16(document, "le");
    const refused: number[] = [];
    for (let end = 2; end <= bytes.length; end++)
      if (sniffFileKind(bytes.subarray(0, end), "notes.md") !== "markdown") refused.push(end);
    expect(refused).toEqual([]);
  });

  it("is not Markdown with a NUL character, a lone low surrogate or without the Markdown extension", () => {
    expect(sniffFileKind(utf16("# a\u0000b", "le"), "notes.md")).toBeNull();
    expect(sniffFileKind(utf16("# a\udc00b", "be"), "notes.md")).toBeNull();
    expect(sniffFileKind(utf16("# a\ud83dxb", "le"), "notes.md")).toBeNull();
    expect(sniffFileKind(utf16(document, "le"), "notes.txt")).toBeNull();
  });

  it("reads UTF-8 with or without its byte order mark as before", () => {
    const utf8 = new TextEncoder().encode(document);
    expect(markdownText(utf8)).toBe(document);
    expect(markdownText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8]))).toBe(document);
  });
});

import { describe, expect, it } from "vitest";
import {
  contentDisposition,
  decodeFormDataName,
  safeFilename,
  stripFormatCharacters,
  uploadedName,
} from "../../worker/file-names.ts";

describe("file names", () => {
  it("decodes exactly the %22, %0D and %0A a browser writes into a multipart file name", () => {
    expect(decodeFormDataName("say %22hi%22%0d%0A.pdf")).toBe('say "hi"\r\n.pdf');
    // Any other % is the user's own character: browsers do not escape it.
    expect(decodeFormDataName("100%25 %41.pdf")).toBe("100%25 %41.pdf");
  });

  it("strips bidi overrides, zero-width characters and the BOM (Unicode category Cf)", () => {
    expect(stripFormatCharacters("\uFEFFinvoice\u202Efdp.exe\u200B\u200D\u2066")).toBe("invoicefdp.exe");
    expect(uploadedName("C:\\Users\\me\\re\u202Eport%22%0D%0A.pdf")).toBe('report".pdf');
    expect(uploadedName("\u200B\u202E")).toBe("file");
  });

  it("keeps the zero-width joiners Indic spellings need inside words, and only there", () => {
    const hindi = "क्\u200Dष-रिपोर्ट.pdf";
    const telugu = "నివేది\u200Cక.pdf";
    expect(stripFormatCharacters(hindi)).toBe(hindi);
    expect(stripFormatCharacters(telugu)).toBe(telugu);
    expect(stripFormatCharacters("a\u200D.pdf")).toBe("a.pdf");
    expect(stripFormatCharacters("\u200Dx\u202E\u200Cy")).toBe("xy");
  });

  it("keeps format characters out of download names and headers", () => {
    expect(safeFilename("a\u202Egnp.exe")).toBe("agnp.exe");
    const header = contentDisposition('x\u202E"y".pdf');
    expect(header).not.toMatch(/%E2%80%AE|\u202E/);
    expect(header).toBe(`attachment; filename="x_y_.pdf"; filename*=UTF-8''x_y_.pdf`);
  });

  it("keeps ordinary Unicode letters", () => {
    expect(uploadedName("résumé ñ 文件 हिन्दी.pdf")).toBe("résumé ñ 文件 हिन्दी.pdf");
  });
});

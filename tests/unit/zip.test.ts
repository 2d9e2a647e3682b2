import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { zipFiles } from "../../engines/zip.ts";

describe("zipFiles", () => {
  it("stores every entry byte for byte and never lets two share a name", () => {
    const a = new Uint8Array([1, 2, 3]);
    const b = new Uint8Array([4, 5]);
    const c = new Uint8Array(1000).fill(7);
    const zip = zipFiles([
      { name: "page-1.jpg", bytes: a },
      { name: "page-1.jpg", bytes: b },
      { name: "notes", bytes: c },
      { name: "notes", bytes: b },
    ]);
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual(["notes", "notes (2)", "page-1 (2).jpg", "page-1.jpg"]);
    expect(files["page-1.jpg"]).toEqual(a);
    expect(files["page-1 (2).jpg"]).toEqual(b);
    expect(files.notes).toEqual(c);
    // Stored, not deflated: 1000 equal bytes would shrink to a few if compressed.
    expect(zip.length).toBeGreaterThan(1000);
  });
});

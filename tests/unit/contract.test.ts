import { describe, expect, it } from "vitest";
import {
  CUSTOM_QUALITY,
  ERROR_CODES,
  errorStatus,
  inputPasswordNames,
  isTransient,
  jpegQuality,
  LANGUAGE_CODES,
  POLLING,
  parseToolOptions,
  QUALITY_PRESETS,
  secretOptionNames,
  sniffFileKind,
  TOOL_IDS,
  TOOLS,
  type ToolId,
} from "../../contract/index.ts";

/** Tool ids of the spec (§2 tools index order, then the image tools). */
const SPEC_TOOL_IDS = [
  "merge-pdf",
  "split-pdf",
  "compress-pdf",
  "pdf-to-word",
  "pdf-to-excel",
  "pdf-to-jpg",
  "images-to-pdf",
  "markdown-to-pdf",
  "ocr",
  "protect",
  // Beyond the spec (issue 27): removing a password is the other half of protecting.
  "unlock",
  // Beyond the spec (issue 28): organize pages, page numbers and watermark.
  "organize-pdf",
  "page-numbers",
  "watermark",
  "sign",
  "png-to-jpg",
  "jpg-to-png",
  "webp-to-jpg",
  "compress-image",
  // Beyond the spec (issue 12): what people search for most after PNG/JPG.
  "heic-to-jpg",
];

describe("tool declarations", () => {
  it("declares every tool of the spec, in the spec's order", () => {
    expect(TOOL_IDS).toEqual(SPEC_TOOL_IDS);
    for (const id of TOOL_IDS) expect(TOOLS[id].id).toBe(id);
  });

  it("announces no tool as coming soon: sign, the last one, is available", () => {
    for (const id of TOOL_IDS) expect(TOOLS[id].comingSoon, id).toBe(false);
    expect(TOOLS.sign.available).toBe(true);
    expect(Object.keys(TOOLS.sign.input.extraFiles)).toEqual(["signature", "initials", "date"]);
    expect(TOOLS.sign.input.extraFiles.signature.required).toBe(true);
  });

  it("makes merge-pdf and png-to-jpg available, merge in the container and png-to-jpg at the edge", () => {
    expect(TOOLS["merge-pdf"].available).toBe(true);
    expect(TOOLS["merge-pdf"].engine.kind).toBe("container");
    expect(TOOLS["png-to-jpg"].available).toBe(true);
    expect(TOOLS["png-to-jpg"].engine).toMatchObject({ kind: "edge" });
  });

  it("gives every edge tool a positive budget and every tool sane limits", () => {
    for (const id of TOOL_IDS) {
      const tool = TOOLS[id];
      expect(tool.input.kinds.length, id).toBeGreaterThan(0);
      expect(tool.input.maxFiles, id).toBeGreaterThanOrEqual(1);
      expect(tool.input.maxFileBytes, id).toBeLessThanOrEqual(tool.input.maxTotalBytes);
      if (tool.engine.kind === "edge") {
        expect(tool.engine.edgeBudget.maxPixels, id).toBeGreaterThan(0);
        expect(tool.engine.edgeBudget.maxBytes, id).toBeLessThanOrEqual(tool.input.maxFileBytes);
      }
    }
    // One file per upload, except images to PDF and merge (spec §9).
    const multi = TOOL_IDS.filter((id) => TOOLS[id].input.maxFiles > 1);
    expect(multi.sort()).toEqual(["images-to-pdf", "merge-pdf"]);
  });

  it("parses every tool's options from an empty form with the spec's defaults", () => {
    // A password has no default: protect needs one. Unlock's is optional (a PDF that opens without one).
    for (const id of TOOL_IDS) {
      expect(parseToolOptions(id, {}).success, id).toBe(id !== "protect");
      expect(parseToolOptions(id, { password: "p" }).success, id).toBe(true);
    }
    expect(parseToolOptions("images-to-pdf", {})).toEqual({
      success: true,
      data: { margin: "small", orientation: "portrait" },
    });
    expect(parseToolOptions("png-to-jpg", {})).toEqual({ success: true, data: { quality: "medium" } });
    expect(parseToolOptions("compress-image", {})).toEqual({ success: true, data: { quality: "medium" } });
    expect(parseToolOptions("pdf-to-word", {})).toEqual({ success: true, data: { ocr: false } });
  });

  it("lets every PDF tool open a protected input with its password, and keeps passwords secret", () => {
    const opening = [
      "merge-pdf",
      "split-pdf",
      "compress-pdf",
      "pdf-to-word",
      "pdf-to-excel",
      "pdf-to-jpg",
      "protect",
    ];
    for (const id of opening)
      expect(inputPasswordNames(TOOLS[id as ToolId].options).length, id).toBeGreaterThan(0);
    expect(secretOptionNames(TOOLS.protect.options).sort()).toEqual([
      "input_password",
      "owner_password",
      "password",
    ]);
    expect(secretOptionNames(TOOLS.unlock.options)).toEqual(["password"]);
    // Unlock opens its input itself: its password must reach the engine, not the shared opening step.
    expect(inputPasswordNames(TOOLS.unlock.options)).toEqual([]);
    expect(secretOptionNames(TOOLS["png-to-jpg"].options)).toEqual([]);
  });

  it("checks option ranges", () => {
    expect(parseToolOptions("png-to-jpg", { quality: "ultra" }).success).toBe(false);
    expect(parseToolOptions("images-to-pdf", { margin: "huge" }).success).toBe(false);
    expect(parseToolOptions("compress-image", { quality: String(CUSTOM_QUALITY.min) })).toEqual({
      success: true,
      data: { quality: 30 },
    });
    expect(parseToolOptions("compress-image", { quality: "29" }).success).toBe(false);
    expect(parseToolOptions("compress-image", { quality: "101" }).success).toBe(false);
    expect(parseToolOptions("pdf-to-excel", { page_ranges: "1-3,5,7-9" }).success).toBe(true);
    expect(parseToolOptions("pdf-to-excel", { page_ranges: "1-3;5" }).success).toBe(false);
  });

  it("maps quality presets to the spec's numbers", () => {
    expect(QUALITY_PRESETS).toEqual({ low: 60, medium: 85, high: 95 });
    expect(jpegQuality("medium")).toBe(85);
    expect(jpegQuality(42)).toBe(42);
    expect(CUSTOM_QUALITY).toMatchObject({ min: 30, max: 100, step: 1, default: 85 });
  });
});

describe("endpoints", () => {
  it("names an API path for every tool", () => {
    for (const id of TOOL_IDS) expect(TOOLS[id].endpoint.path, id).toMatch(/^\/api\/(pdf|image)\//);
  });
});

describe("errors", () => {
  it("gives every code an HTTP error status", () => {
    for (const code of ERROR_CODES) {
      expect(errorStatus(code), code).toBeGreaterThanOrEqual(400);
      expect(errorStatus(code), code).toBeLessThan(600);
    }
    expect(errorStatus("FILE_TOO_LARGE")).toBe(413);
    expect(errorStatus("UNSUPPORTED_FILE_TYPE")).toBe(415);
    expect(errorStatus("CSRF_INVALID")).toBe(403);
    expect(isTransient("CONVERTER_UNAVAILABLE")).toBe(true);
    expect(isTransient("PDF_DAMAGED")).toBe(false);
  });
});

describe("file kinds by content", () => {
  const bytes = (...parts: (string | number[])[]) =>
    new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

  it("recognises signatures regardless of the name", () => {
    expect(sniffFileKind(bytes("%PDF-1.7\n"), "photo.png")).toBe("pdf");
    expect(sniffFileKind(bytes("junk before header %PDF-1.4"), "x")).toBe("pdf");
    expect(sniffFileKind(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a]), "a.pdf")).toBe("png");
    expect(sniffFileKind(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(sniffFileKind(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("webp");
    expect(sniffFileKind(bytes("GIF89a"))).toBe("gif");
  });

  it("accepts Markdown only as NUL-free UTF-8 with a Markdown extension", () => {
    expect(sniffFileKind(new TextEncoder().encode("# Title\n\nText ü"), "notes.md")).toBe("markdown");
    // ü as Latin-1 (one byte, 0xFC) is not UTF-8.
    expect(sniffFileKind(bytes("# Title\n\nText ü"), "notes.md")).toBeNull();
    expect(sniffFileKind(bytes("# Title"), "notes.txt")).toBeNull();
    expect(sniffFileKind(bytes("# Ti", [0], "tle"), "notes.md")).toBeNull();
    expect(sniffFileKind(bytes([0xc3, 0x28, 0x41, 0x42, 0x43, 0x44]), "bad.md")).toBeNull();
  });

  it("refuses unknown content", () => {
    expect(sniffFileKind(bytes("hello world"), "file.pdf")).toBeNull();
    expect(sniffFileKind(new Uint8Array(0), "empty.pdf")).toBeNull();
  });
});

describe("constants", () => {
  it("uses the spec's polling constants and languages", () => {
    expect(POLLING).toEqual({ initialIntervalMs: 3000, maxIntervalMs: 8000, backoffFactor: 1.5 });
    expect(LANGUAGE_CODES).toEqual(["en", "es", "de", "fr", "hi", "te", "ta"]);
  });
});

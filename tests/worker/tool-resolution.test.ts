/** Which tool a start request is for, on the paths several tools share (spec §7). */
import { describe, expect, it } from "vitest";
import { declarationOf, TOOL_IDS, TOOLS, type ToolId } from "../../contract/index.ts";
import { resolveTool, unresolvedToolError, uploadPlanFor } from "../../worker/tool-resolution.ts";

describe("resolution of shared paths", () => {
  const convert = "/api/image/convert";
  const tool = (kind: "png" | "jpeg" | "webp" | "gif", target: string, quality: string) =>
    resolveTool(convert, { target_format: target, quality }, kind);

  it("picks the image tool from the file's kind, the target and the quality", () => {
    expect(tool("png", "jpg", "medium")).toBe("png-to-jpg");
    expect(tool("png", "jpeg", "high")).toBe("png-to-jpg");
    expect(tool("jpeg", "png", "low")).toBe("jpg-to-png");
    expect(tool("webp", "jpg", "medium")).toBe("webp-to-jpg");
    expect(tool("jpeg", "jpg", "85")).toBe("compress-image");
    expect(tool("png", "png", "60")).toBe("compress-image");
    expect(tool("gif", "png", "medium")).toBeNull();
  });

  it("sends HEIC to HEIC to JPG, and AVIF, TIFF and BMP to a JPG or PNG converter", () => {
    const heic = TOOL_IDS.find((id) => TOOLS[id].input.kinds[0] === "heic");
    expect(heic && resolveTool(convert, { target_format: "jpg", quality: "medium" }, "heic")).toBe(heic);
    for (const kind of ["avif", "tiff", "bmp"] as const) {
      const jpg = resolveTool(convert, { target_format: "jpg", quality: "medium" }, kind);
      expect([kind, jpg && TOOLS[jpg].output.kind]).toEqual([kind, "jpeg"]);
      const png = resolveTool(convert, { target_format: "png", quality: "high" }, kind);
      expect([kind, png && TOOLS[png].output.kind]).toEqual([kind, "png"]);
    }
    // Compress image: the file's own format and a number.
    expect(resolveTool(convert, { target_format: "heic", quality: "85" }, "heic")).toBe("compress-image");
  });

  it("answers a JPEG sent for a JPG conversion as a wrong file type (415), naming the kinds that fit", () => {
    expect(tool("jpeg", "jpg", "medium")).toBeNull();
    const error = unresolvedToolError(convert, { target_format: "jpg", quality: "medium" });
    expect(error.code).toBe("UNSUPPORTED_FILE_TYPE");
    expect(String(error.context?.expected).split(", ").sort()).toEqual([
      "avif",
      "bmp",
      "heic",
      "png",
      "tiff",
      "webp",
    ]);
  });

  it("names the known values of an unknown output format (400 INVALID_OPTIONS)", () => {
    const error = unresolvedToolError("/api/pdf/convert", { output_format: "bmp" });
    expect(error.code).toBe("INVALID_OPTIONS");
    expect(String(error.context?.output_format)).toContain("docx");
  });

  it("plans uploads with the widest limits of the candidates, pixel limit included", () => {
    const candidates = TOOL_IDS.filter((id) => TOOLS[id].endpoint.path === convert) as ToolId[];
    const plan = uploadPlanFor(candidates);
    expect(plan.maxPixels).toBe(declarationOf("png-to-jpg").input.maxPixels);
    expect([...plan.kinds].sort()).toEqual(["avif", "bmp", "gif", "heic", "jpeg", "png", "tiff", "webp"]);
  });
});

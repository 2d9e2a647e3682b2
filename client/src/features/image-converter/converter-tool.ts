import { type FileKind, QUALITY_PRESETS, type QualityPreset, TOOLS, type ToolId } from "../../lib/contract";
import { formatLabel } from "../../lib/files/file-formats";

/** Quality presets, best first (high, medium, low). */
export const QUALITY_CHOICES = (Object.keys(QUALITY_PRESETS) as QualityPreset[]).sort(
  (a, b) => QUALITY_PRESETS[b] - QUALITY_PRESETS[a],
);

function isPreset(value: unknown): value is QualityPreset {
  return typeof value === "string" && Object.hasOwn(QUALITY_PRESETS, value);
}

/** What the converter screen needs, read from the tool's declaration. */
export function converterSettings(id: ToolId) {
  const tool = TOOLS[id];
  const defaults: Record<string, unknown> = tool.options.parse({});
  const outputKind: FileKind = tool.output.kind;
  return {
    tool,
    sourceFormat: tool.input.kinds.map(formatLabel).join(", "),
    targetFormat: formatLabel(outputKind),
    /** The quality number only means something for JPEG output. */
    showsJpegQuality: outputKind === "jpeg",
    defaultQuality: isPreset(defaults.quality) ? defaults.quality : ("medium" as const),
  };
}

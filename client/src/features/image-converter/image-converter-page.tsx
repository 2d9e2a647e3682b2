import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QualityPreset, ToolId } from "../../lib/contract";
import { converterSettings } from "./converter-tool";
import { ImageBatchPage } from "./image-batch-page";
import { QualityPicker } from "./quality-picker";
import type { DoneItem } from "./use-batch-tasks";

/**
 * One image converter screen (png-to-jpg, jpg-to-png, webp-to-jpg), driven by the tool declaration:
 * one or many images, each converted by its own task.
 */
export default function ImageConverterPage({ toolId }: { toolId: ToolId }) {
  const { t } = useTranslation();
  const settings = converterSettings(toolId);
  const [quality, setQuality] = useState<QualityPreset>(settings.defaultQuality);
  const format = settings.targetFormat;
  // The pixel size made, and what the engines say when it mattered: metadata never copied, an
  // animation's first frame kept.
  const noteFor = ({ state }: DoneItem) => {
    const {
      width,
      height,
      metadata_removed: metadataRemoved,
      first_frame_only: firstFrameOnly,
    } = state.result.facts;
    const notes = [
      ...(typeof width === "number" && typeof height === "number"
        ? [t("result.pixels", { width, height })]
        : []),
      ...(metadataRemoved === true ? [t("imageConverter.metadataRemoved")] : []),
      ...(firstFrameOnly === true ? [t("imageConverter.firstFrameOnly")] : []),
    ];
    return notes.length > 0 ? notes.join(" · ") : null;
  };
  return (
    <ImageBatchPage
      toolId={toolId}
      labels={{
        action: t("imageConverter.convert", { format }),
        busy: t("imageConverter.converting"),
        resultTitle: (count) => t("imageConverter.resultTitle", { format, count }),
        download: t("imageConverter.download", { format }),
        another: t("imageConverter.another"),
      }}
      settings={(disabled) =>
        // PNG is lossless: a quality choice would change nothing, so it is not offered.
        settings.showsJpegQuality ? (
          <QualityPicker value={quality} disabled={disabled} onChange={setQuality} />
        ) : (
          <p className="converter__note">{t("imageConverter.losslessNote", { format })}</p>
        )
      }
      fieldsFor={(): Record<string, string> => (settings.showsJpegQuality ? { quality } : {})}
      noteFor={noteFor}
    />
  );
}

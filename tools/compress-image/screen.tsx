import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ImageBatchPage } from "../../client/src/features/image-converter/image-batch-page";
import type { DoneItem } from "../../client/src/features/image-converter/use-batch-tasks";
import { CUSTOM_QUALITY, FILE_KINDS } from "../../client/src/lib/contract";
import { type QualityChoice, QualityChoiceField, qualityOf } from "./quality-choice";
import tool from "./tool.ts";
import "./compress-image.css";

/** The spec's target format: the file's own extension, jpg when it has none we know. */
function targetFormatOf(file: File): string {
  const extension = file.name.slice(file.name.lastIndexOf(".") + 1).toLowerCase();
  const known = tool.input.kinds.some((kind) =>
    (FILE_KINDS[kind].extensions as readonly string[]).includes(extension),
  );
  return known ? extension : "jpg";
}

/**
 * Compress image (spec §2, §4, §9): one or many JPEG, PNG, WebP or GIF images, each compressed by
 * its own task at the chosen quality and kept in its type; then original size, new size and
 * reduction per file and in total, a before/after comparison, and download one by one or as a ZIP.
 */
export default function CompressImageScreen() {
  const { t } = useTranslation([tool.id, "common"]);
  const [choice, setChoice] = useState<QualityChoice>("medium");
  const [custom, setCustom] = useState<number>(CUSTOM_QUALITY.default);
  const noteFor = ({ state }: DoneItem) => {
    const { facts } = state.result;
    if (facts.alreadyOptimized === true) return t("alreadyOptimized");
    const frames =
      typeof facts.frames === "number" && facts.frames > 1
        ? ` ${t("framesKept", { frames: facts.frames })}`
        : "";
    const changed =
      typeof facts.formatFrom === "string" && typeof facts.formatTo === "string"
        ? ` ${t("formatChanged", { from: facts.formatFrom, to: facts.formatTo })}`
        : "";
    return `${t("metadataRemoved")}${frames}${changed}`;
  };
  return (
    <ImageBatchPage
      toolId={tool.id}
      labels={{
        action: t("compress"),
        busy: t("compressing"),
        resultTitle: () => t("resultTitle"),
        download: t("download"),
        another: t("another"),
      }}
      settings={(disabled) => (
        <QualityChoiceField
          choice={choice}
          custom={custom}
          disabled={disabled}
          onChoice={setChoice}
          onCustom={setCustom}
        />
      )}
      fieldsFor={(file) => ({
        target_format: targetFormatOf(file),
        quality: String(qualityOf(choice, custom)),
      })}
      noteFor={noteFor}
      compare
    />
  );
}

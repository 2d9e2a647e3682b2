import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChosenPdf } from "../../client/src/components/pdf/chosen-pdf";
import { PagePreview, type PageSize } from "../../client/src/components/pdf/page-preview";
import { PageRangesInput } from "../../client/src/components/pdf/page-ranges-input";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { documentFacts, ResultPanel } from "../../client/src/components/tool/result-panel";
import { TaskActions } from "../../client/src/components/tool/task-actions";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { finishedTaskActions, useToolTask } from "../../client/src/components/tool/use-tool-task";
import { pagesOf, parsePageRanges } from "../../client/src/lib/contract";
import { showApiError } from "../../client/src/lib/show-error";
import tool, { MAX_WATERMARK_TEXT, WATERMARK_POSITIONS } from "./tool.ts";
import "./watermark.css";

type Position = (typeof WATERMARK_POSITIONS)[number];
const ROTATIONS = ["diagonal", "0", "45", "90"] as const;
type Rotation = (typeof ROTATIONS)[number];
const LAYERS = ["over", "under"] as const;
type Layer = (typeof LAYERS)[number];

/** Degrees anticlockwise on a page of `size` (the diagonal runs from bottom left to top right). */
function angleOf(rotation: Rotation, size: PageSize): number {
  return rotation === "diagonal" ? (Math.atan2(size.height, size.width) * 180) / Math.PI : Number(rotation);
}

/** Where the preview draws the text's centre, as fractions of the page (tiled: a few rows). */
function previewCentres(position: Position): [number, number][] {
  if (position === "tiled") {
    return [0.15, 0.5, 0.85].flatMap((y, row) =>
      [0.2, 0.55, 0.9].map((x): [number, number] => [row % 2 === 0 ? x : x - 0.17, y]),
    );
  }
  if (position === "center") return [[0.5, 0.5]];
  const [vertical, horizontal] = position.split("-");
  return [[horizontal === "left" ? 0.25 : 0.75, vertical === "top" ? 0.15 : 0.85]];
}

/**
 * Add watermark: one PDF; the text (any of the site's scripts), size, opacity, rotation, colour,
 * position or tiled, over or under the content, pages; previewed on the first page it goes on.
 */
export default function WatermarkPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis } = usePickedPdf();
  const [text, setText] = useState("");
  const [size, setSize] = useState(60);
  const [opacity, setOpacity] = useState(30);
  const [rotation, setRotation] = useState<Rotation>("diagonal");
  const [position, setPosition] = useState<Position>("center");
  const [layer, setLayer] = useState<Layer>("over");
  const [color, setColor] = useState("#808080");
  const [rangesText, setRangesText] = useState("");
  const task = useToolTask(tool, (error) => showApiError(shared, t("failed"), error));
  const { phase, busy } = task;

  const startOver = () => {
    task.reset();
    setFile(null);
  };

  if (phase.name === "done") {
    return (
      <ToolShell toolId={tool.id}>
        <ResultPanel
          title={t("resultTitle")}
          facts={documentFacts(phase.result, shared, language)}
          downloadLabel={shared("result.download")}
          anotherLabel={t("another")}
          {...finishedTaskActions(task, phase, () => setFile(null))}
          onAnother={startOver}
        />
      </ToolShell>
    );
  }

  const pageCount = analysis.state === "ready" ? analysis.pages : null;
  const parsed = pageCount === null ? null : parsePageRanges(rangesText, pageCount);
  const rangeError = parsed !== null && !parsed.ok ? parsed.error : null;
  const first = parsed?.ok ? Math.min(...pagesOf(parsed.ranges)) : undefined;
  const words = text.trim();
  const valid = file !== null && first !== undefined && words !== "";

  const run = () => {
    if (!valid || file === null) return;
    void task.run([file], {
      text: words,
      size: String(size),
      opacity: String(opacity / 100),
      rotation,
      color,
      position,
      layer,
      pages: rangesText.replace(/\s+/g, ""),
    });
  };

  return (
    <ToolShell toolId={tool.id}>
      <div className="watermark">
        <FileDropzone
          limits={tool.input}
          disabled={busy}
          compact={file !== null}
          onAccept={(files) => {
            task.reset();
            setFile(files[0] ?? null);
          }}
        />
        {file ? <ChosenPdf file={file} analysis={analysis} disabled={busy} onRemove={startOver} /> : null}
        {file !== null && pageCount !== null ? (
          <div className="watermark__layout">
            <div className="watermark__options">
              <div className="field">
                <label htmlFor="watermark-text">{t("text.label")}</label>
                <input
                  id="watermark-text"
                  type="text"
                  value={text}
                  maxLength={MAX_WATERMARK_TEXT}
                  placeholder={t("text.placeholder")}
                  disabled={busy}
                  onChange={(event) => setText(event.target.value)}
                  data-testid="watermark-text"
                />
              </div>
              <div className="watermark__row">
                <div className="field">
                  <label htmlFor="watermark-size">{t("size", { size })}</label>
                  <input
                    id="watermark-size"
                    type="range"
                    min={8}
                    max={200}
                    value={size}
                    disabled={busy}
                    onChange={(event) => setSize(Number(event.target.value))}
                  />
                </div>
                <div className="field">
                  <label htmlFor="watermark-opacity">{t("opacity", { opacity })}</label>
                  <input
                    id="watermark-opacity"
                    type="range"
                    min={5}
                    max={100}
                    value={opacity}
                    disabled={busy}
                    onChange={(event) => setOpacity(Number(event.target.value))}
                  />
                </div>
                <div className="field">
                  <label htmlFor="watermark-color">{t("color")}</label>
                  <input
                    id="watermark-color"
                    type="color"
                    value={color}
                    disabled={busy}
                    onChange={(event) => setColor(event.target.value)}
                  />
                </div>
              </div>
              <ChoiceGroup
                legend={t("rotation.legend")}
                name="rotation"
                choices={ROTATIONS.map((value) => ({ value, label: t(`rotation.${value}`) }))}
                value={rotation}
                disabled={busy}
                onChange={setRotation}
              />
              <ChoiceGroup
                legend={t("position.legend")}
                name="position"
                choices={WATERMARK_POSITIONS.map((value) => ({ value, label: t(`position.${value}`) }))}
                value={position}
                disabled={busy}
                onChange={setPosition}
              />
              <ChoiceGroup
                legend={t("layer.legend")}
                name="layer"
                choices={LAYERS.map((value) => ({ value, label: t(`layer.${value}`) }))}
                value={layer}
                disabled={busy}
                onChange={setLayer}
              />
              <PageRangesInput
                label={t("pages.label")}
                hint={t("pages.hint")}
                placeholder={t("pages.placeholder")}
                value={rangesText}
                error={rangeError}
                disabled={busy}
                onChange={setRangesText}
              />
            </div>
            {first !== undefined && words !== "" ? (
              <PagePreview
                file={file}
                page={first}
                overlay={(scale, page) =>
                  previewCentres(position).map(([x, y]) => (
                    <span
                      key={`${x}-${y}`}
                      className="watermark__preview-text"
                      style={{
                        left: `${x * 100}%`,
                        top: `${y * 100}%`,
                        fontSize: size * scale,
                        color,
                        opacity: opacity / 100,
                        rotate: `${-angleOf(rotation, page)}deg`,
                      }}
                      data-testid="watermark-preview"
                    >
                      {words}
                    </span>
                  ))
                }
              />
            ) : null}
          </div>
        ) : null}
        <TaskActions
          phase={phase}
          busy={busy}
          disabled={!valid}
          label={t("add")}
          busyLabel={t("adding")}
          onStart={run}
          testId="watermark-button"
        >
          {file !== null && pageCount !== null && words === "" ? (
            <p className="tool-actions__hint">{t("text.required")}</p>
          ) : null}
        </TaskActions>
      </div>
    </ToolShell>
  );
}

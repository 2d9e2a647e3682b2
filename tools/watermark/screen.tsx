import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type PageSize, PreviewedOptions } from "../../client/src/components/pdf/page-preview";
import { PageRangesInput } from "../../client/src/components/pdf/page-ranges-input";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import { documentFacts, ResultPanel } from "../../client/src/components/tool/result-panel";
import { SinglePdfScreen } from "../../client/src/components/tool/single-pdf-screen";
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
/** The image kinds the `image` field takes, and its size limit (the server checks both again). */
const imageField = tool.input.extraFiles.image;
const WATERMARK_IMAGE_TYPES = imageField.kinds.map((kind) => `image/${kind}`);
const WATERMARK_IMAGE_MB = imageField.maxFileBytes / (1024 * 1024);
const isWatermarkImage = (file: File) =>
  WATERMARK_IMAGE_TYPES.includes(file.type) && file.size <= imageField.maxFileBytes;

const KINDS = ["text", "image"] as const;
type Kind = (typeof KINDS)[number];

/** A labelled range input of whole numbers. */
function Slider(props: {
  id: string;
  label: string;
  min: number;
  max: number;
  value: number;
  disabled: boolean;
  onChange: (value: number) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="range"
        min={props.min}
        max={props.max}
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => props.onChange(Number(event.target.value))}
      />
    </div>
  );
}

/** A local address for the chosen image, for its previews; revoked when it changes. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (file === null) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

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
 * Add watermark: one PDF; the text (any of the site's scripts, with its size and colour) or an
 * image (PNG, JPEG, WebP, with its width on the page), opacity, rotation, position or tiled, over
 * or under the content, pages; previewed on the first page it goes on.
 */
export default function WatermarkPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis } = usePickedPdf();
  const [kind, setKind] = useState<Kind>("text");
  const [text, setText] = useState("");
  const [image, setImage] = useState<File | null>(null);
  const [imageRefused, setImageRefused] = useState(false);
  const [imageSize, setImageSize] = useState(40);
  const imageUrl = useObjectUrl(image);
  const [size, setSize] = useState(60);
  const [opacity, setOpacity] = useState(30);
  const [rotation, setRotation] = useState<Rotation>("diagonal");
  const [position, setPosition] = useState<Position>("center");
  const [layer, setLayer] = useState<Layer>("over");
  const [color, setColor] = useState("#808080");
  const [rangesText, setRangesText] = useState("");
  const task = useToolTask(tool, (error) => showApiError(shared, t("failed"), error));
  const { busy } = task;

  const pick = (next: File | null) => {
    task.reset();
    setFile(next);
  };
  const startOver = () => pick(null);

  const pageCount = analysis.state === "ready" ? analysis.pages : null;
  const parsed = pageCount === null ? null : parsePageRanges(rangesText, pageCount);
  const rangeError = parsed !== null && !parsed.ok ? parsed.error : null;
  const first = parsed?.ok ? Math.min(...pagesOf(parsed.ranges)) : undefined;
  const words = text.trim();
  const markChosen = kind === "text" ? words !== "" : image !== null;
  const valid = file !== null && first !== undefined && markChosen;

  const chooseImage = (chosen: File | undefined) => {
    if (chosen === undefined) return;
    const accepted = isWatermarkImage(chosen);
    setImageRefused(!accepted);
    setImage(accepted ? chosen : null);
  };

  const run = () => {
    if (!valid || file === null) return;
    const shared = {
      opacity: String(opacity / 100),
      rotation,
      position,
      layer,
      pages: rangesText.replace(/\s+/g, ""),
    };
    if (kind === "image" && image !== null) {
      void task.run([file], { ...shared, image_size: String(imageSize) }, { image });
      return;
    }
    void task.run([file], { ...shared, text: words, size: String(size), color });
  };

  return (
    <SinglePdfScreen
      toolId={tool.id}
      limits={tool.input}
      className="watermark"
      task={task}
      file={file}
      analysis={analysis}
      onPick={pick}
      result={(done) => (
        <ResultPanel
          title={t("resultTitle")}
          facts={documentFacts(done.result, shared, language)}
          downloadLabel={shared("result.download")}
          anotherLabel={t("another")}
          {...finishedTaskActions(task, done, () => setFile(null))}
          onAnother={startOver}
        />
      )}
      action={{
        label: t("add"),
        busyLabel: t("adding"),
        testId: "watermark-button",
        disabled: !valid,
        onStart: run,
        hint:
          file !== null && pageCount !== null && !markChosen ? (
            <p className="tool-actions__hint">{t(kind === "text" ? "text.required" : "image.required")}</p>
          ) : null,
      }}
    >
      {file !== null && pageCount !== null ? (
        <PreviewedOptions
          file={file}
          preview={
            first !== undefined && markChosen
              ? {
                  page: first,
                  overlay: (scale, page) =>
                    previewCentres(position).map(([x, y]) => {
                      const place = {
                        left: `${x * 100}%`,
                        top: `${y * 100}%`,
                        opacity: opacity / 100,
                        rotate: `${-angleOf(rotation, page)}deg`,
                      };
                      return kind === "image" && imageUrl !== null ? (
                        <img
                          key={`${x}-${y}`}
                          className="watermark__preview-image"
                          src={imageUrl}
                          alt=""
                          style={{ ...place, width: (page.width * imageSize * scale) / 100 }}
                          data-testid="watermark-preview"
                        />
                      ) : (
                        <span
                          key={`${x}-${y}`}
                          className="watermark__preview-text"
                          style={{ ...place, fontSize: size * scale, color }}
                          data-testid="watermark-preview"
                        >
                          {words}
                        </span>
                      );
                    }),
                }
              : null
          }
        >
          <ChoiceGroup
            legend={t("kind.legend")}
            name="kind"
            choices={KINDS.map((value) => ({ value, label: t(`kind.${value}`) }))}
            value={kind}
            disabled={busy}
            onChange={setKind}
          />
          {kind === "text" ? (
            <>
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
              <div className="previewed-options__row">
                <Slider
                  id="watermark-size"
                  label={t("size", { size })}
                  min={8}
                  max={200}
                  value={size}
                  disabled={busy}
                  onChange={setSize}
                />
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
            </>
          ) : (
            <>
              <div className="field">
                <label htmlFor="watermark-image">{t("image.label")}</label>
                <div className="watermark__image">
                  {imageUrl !== null ? (
                    <img
                      className="watermark__image-thumb"
                      src={imageUrl}
                      alt={t("image.alt")}
                      data-testid="watermark-image-thumb"
                    />
                  ) : null}
                  <input
                    id="watermark-image"
                    type="file"
                    accept={WATERMARK_IMAGE_TYPES.join(",")}
                    disabled={busy}
                    aria-describedby="watermark-image-hint"
                    onChange={(event) => chooseImage(event.target.files?.[0])}
                    data-testid="watermark-image"
                  />
                </div>
                <p
                  id="watermark-image-hint"
                  className={imageRefused ? "pdf-converter__error" : "pdf-converter__hint"}
                  role={imageRefused ? "alert" : undefined}
                >
                  {t(imageRefused ? "image.refused" : "image.hint", { megabytes: WATERMARK_IMAGE_MB })}
                </p>
              </div>
              <Slider
                id="watermark-image-size"
                label={t("imageSize", { size: imageSize })}
                min={5}
                max={100}
                value={imageSize}
                disabled={busy}
                onChange={setImageSize}
              />
            </>
          )}
          <Slider
            id="watermark-opacity"
            label={t("opacity", { opacity })}
            min={5}
            max={100}
            value={opacity}
            disabled={busy}
            onChange={setOpacity}
          />
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
        </PreviewedOptions>
      ) : null}
    </SinglePdfScreen>
  );
}

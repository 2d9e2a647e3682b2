import { type KeyboardEvent, type PointerEvent, useRef } from "react";
import { useTranslation } from "react-i18next";
import { type PageSize, usePageSize } from "../../client/src/components/pdf/page-preview";
import { PageThumbnail } from "../../client/src/components/pdf/page-thumbnails";
import tool from "./tool.ts";

/** A box's top-left corner and width as fractions of the page as seen (the API's placement). */
export interface BoxPlacement {
  readonly x: number;
  readonly y: number;
  readonly width: number;
}

/** One image laid over the page, movable and resizable. */
export interface PlacedBox {
  readonly id: string;
  readonly label: string;
  readonly url: string;
  /** The image's height / width. */
  readonly aspect: number;
  readonly placement: BoxPlacement;
}

const MIN_WIDTH = 0.03;
/** Keyboard steps, as fractions of the page: arrows move, +/- resize; Shift takes bigger steps. */
const STEP = 0.01;
const BIG_STEP = 0.05;

/** The box's height as a fraction of the page's height. */
export function heightFraction(placement: BoxPlacement, aspect: number, size: PageSize): number {
  return (placement.width * aspect * size.width) / size.height;
}

/** The placement moved and sized back inside the page (as the server requires). */
export function clampPlacement(placement: BoxPlacement, aspect: number, size: PageSize): BoxPlacement {
  const maxWidth = Math.min(1, size.height / (aspect * size.width));
  const width = Math.min(Math.max(placement.width, MIN_WIDTH), maxWidth);
  const height = heightFraction({ ...placement, width }, aspect, size);
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    x: round(Math.min(Math.max(placement.x, 0), Math.min(0.99, 1 - width))),
    y: round(Math.min(Math.max(placement.y, 0), Math.min(0.99, 1 - height))),
    width: round(width),
  };
}

/**
 * The page drawn by pdf.js with the boxes over it: drag a box to move it, its corner to resize
 * it; with the keyboard, arrows move the focused box and + / − resize it.
 */
export function PlacementEditor({
  file,
  page,
  boxes,
  onChange,
  width = 420,
}: {
  file: File;
  page: number;
  boxes: readonly PlacedBox[];
  onChange: (id: string, placement: BoxPlacement) => void;
  width?: number;
}) {
  const { t } = useTranslation([tool.id, "common"]);
  const size = usePageSize(file, page);
  const layer = useRef<HTMLDivElement>(null);
  const drag = useRef<{
    id: string;
    mode: "move" | "resize";
    start: { x: number; y: number };
    from: BoxPlacement;
  } | null>(null);

  const update = (box: PlacedBox, next: BoxPlacement) => {
    if (size !== null) onChange(box.id, clampPlacement(next, box.aspect, size));
  };

  const pointerDown = (box: PlacedBox, mode: "move" | "resize") => (event: PointerEvent<HTMLElement>) => {
    event.stopPropagation();
    event.preventDefault();
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    drag.current = { id: box.id, mode, start: { x: event.clientX, y: event.clientY }, from: box.placement };
  };
  const pointerMove = (box: PlacedBox) => (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    const rect = layer.current?.getBoundingClientRect();
    if (current === null || current.id !== box.id || rect === undefined) return;
    const dx = (event.clientX - current.start.x) / rect.width;
    const dy = (event.clientY - current.start.y) / rect.height;
    if (current.mode === "move")
      update(box, { ...current.from, x: current.from.x + dx, y: current.from.y + dy });
    else update(box, { ...current.from, width: current.from.width + dx });
  };
  const pointerUp = () => {
    drag.current = null;
  };

  const keyDown = (box: PlacedBox) => (event: KeyboardEvent<HTMLElement>) => {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const { x, y, width: w } = box.placement;
    const moves: Record<string, BoxPlacement> = {
      ArrowLeft: { x: x - step, y, width: w },
      ArrowRight: { x: x + step, y, width: w },
      ArrowUp: { x, y: y - step, width: w },
      ArrowDown: { x, y: y + step, width: w },
      "+": { x, y, width: w + step },
      "=": { x, y, width: w + step },
      "-": { x, y, width: w - step },
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    update(box, next);
  };

  return (
    <figure className="sign-editor" data-testid="sign-editor">
      <div className="sign-editor__page" style={{ width }} ref={layer}>
        <PageThumbnail file={file} page={page} width={width} />
        {size === null
          ? null
          : boxes.map((box) => (
              <button
                type="button"
                key={box.id}
                aria-label={t("place.boxLabel", { what: box.label })}
                aria-describedby="sign-editor-keys"
                className="sign-editor__box"
                style={{
                  left: `${box.placement.x * 100}%`,
                  top: `${box.placement.y * 100}%`,
                  width: `${box.placement.width * 100}%`,
                  height: `${heightFraction(box.placement, box.aspect, size) * 100}%`,
                }}
                onPointerDown={pointerDown(box, "move")}
                onPointerMove={pointerMove(box)}
                onPointerUp={pointerUp}
                onPointerCancel={pointerUp}
                onKeyDown={keyDown(box)}
                data-testid={`sign-box-${box.id}`}
              >
                <img src={box.url} alt="" draggable={false} />
                <span
                  className="sign-editor__handle"
                  aria-hidden="true"
                  onPointerDown={pointerDown(box, "resize")}
                  onPointerMove={pointerMove(box)}
                  onPointerUp={pointerUp}
                  onPointerCancel={pointerUp}
                  data-testid={`sign-handle-${box.id}`}
                />
              </button>
            ))}
      </div>
      <figcaption className="sign-editor__caption">
        {t("common:thumbnails.page", { page })}
        <span id="sign-editor-keys" className="sign-editor__keys">
          {t("place.keys")}
        </span>
      </figcaption>
    </figure>
  );
}

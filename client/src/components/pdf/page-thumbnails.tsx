import { type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { acquirePdf, releasePdf, renderPage } from "./pdf-pages";
import "./page-thumbnails.css";

/** Default preview width in CSS pixels: small, so a screenful renders in a blink. */
const THUMBNAIL_WIDTH = 112;

type Drawing = "waiting" | "drawn" | "failed";

/**
 * One page of a picked PDF, drawn only once it scrolls into view (or near it). A page pdf.js
 * cannot draw shows a plain placeholder: the server, not the preview, decides what converts.
 */
export function PageThumbnail({
  file,
  page,
  width = THUMBNAIL_WIDTH,
}: {
  file: File;
  page: number;
  width?: number;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawing, setDrawing] = useState<Drawing>("waiting");
  const [ratio, setRatio] = useState(Math.SQRT2);

  useEffect(() => {
    const element = frame.current;
    const target = canvas.current;
    if (element === null || target === null) return;
    const controller = new AbortController();
    setDrawing("waiting");
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        renderPage(file, page, target, width, controller.signal).then(
          (pageRatio) => {
            setRatio(pageRatio);
            setDrawing("drawn");
          },
          () => {
            if (!controller.signal.aborted) setDrawing("failed");
          },
        );
      },
      { rootMargin: "300px" },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      controller.abort();
    };
  }, [file, page, width]);

  return (
    <div
      ref={frame}
      className={`page-thumbnail page-thumbnail--${drawing}`}
      style={{ width, height: Math.round(width * ratio) }}
      data-testid="page-thumbnail"
      data-state={drawing}
    >
      <canvas
        ref={canvas}
        className="page-thumbnail__canvas"
        role="img"
        aria-label={t("thumbnails.page", { page })}
      />
    </div>
  );
}

/** Whether a click or key press on a page extends a run (shift held). */
export interface ToggleGesture {
  readonly shift: boolean;
}

/**
 * Every page of a picked PDF as numbered thumbnails. With `onToggle` the pages are toggle buttons
 * (pressed when in `selected`); the screen decides what a toggle means (e.g. shift for a run).
 */
export function PageGrid({
  file,
  pages,
  selected,
  onToggle,
  width,
}: {
  file: File;
  pages: number;
  selected?: ReadonlySet<number>;
  onToggle?: (page: number, gesture: ToggleGesture) => void;
  width?: number;
}) {
  const { t } = useTranslation();
  // Hold the document for the grid's lifetime so thumbnails scrolled in later reuse it.
  useEffect(() => {
    void acquirePdf(file).catch(() => undefined);
    return () => releasePdf(file);
  }, [file]);
  const numbers = Array.from({ length: pages }, (_, index) => index + 1);
  return (
    <ol className="page-grid" aria-label={t("thumbnails.gridLabel")} data-testid="page-grid">
      {numbers.map((page) => {
        const label = t("thumbnails.page", { page });
        const content = (
          <>
            <PageThumbnail file={file} page={page} width={width} />
            <span className="page-grid__number">{page}</span>
          </>
        );
        if (onToggle === undefined) {
          return (
            <li key={page} className="page-grid__item">
              {content}
            </li>
          );
        }
        const pressed = selected?.has(page) ?? false;
        const toggle = (event: MouseEvent | KeyboardEvent) => onToggle(page, { shift: event.shiftKey });
        return (
          <li key={page} className="page-grid__item">
            <button
              type="button"
              className={`page-grid__button${pressed ? " page-grid__button--selected" : ""}`}
              aria-pressed={pressed}
              aria-label={label}
              onClick={toggle}
              data-page={page}
            >
              {content}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageThumbnail } from "./page-thumbnails";
import { acquirePdf, releasePdf } from "./pdf-pages";
import "./page-preview.css";

/** A displayed page's size in points (its rotation applied). */
export interface PageSize {
  readonly width: number;
  readonly height: number;
}

/** The displayed size of page `page` of `file` as pdf.js reads it, or null until it is known. */
export function usePageSize(file: File, page: number): PageSize | null {
  const [size, setSize] = useState<PageSize | null>(null);
  useEffect(() => {
    let live = true;
    setSize(null);
    acquirePdf(file)
      .then((document) => document.getPage(page))
      .then((loaded) => {
        const viewport = loaded.getViewport({ scale: 1 });
        if (live) setSize({ width: viewport.width, height: viewport.height });
      })
      .catch(() => undefined)
      .finally(() => releasePdf(file));
    return () => {
      live = false;
    };
  }, [file, page]);
  return size;
}

/**
 * One page drawn by pdf.js with what a tool will add laid over it: `overlay` gets the scale (CSS
 * pixels per point) and the page's size in points, and draws in a layer the size of the page.
 */
export function PagePreview({
  file,
  page,
  width = 260,
  overlay,
}: {
  file: File;
  page: number;
  width?: number;
  overlay: (scale: number, size: PageSize) => ReactNode;
}) {
  const { t } = useTranslation();
  const size = usePageSize(file, page);
  return (
    <figure className="page-preview" data-testid="page-preview">
      <div className="page-preview__page" style={{ width }}>
        <PageThumbnail file={file} page={page} width={width} />
        {size === null ? null : (
          <div className="page-preview__overlay" aria-hidden="true" data-testid="page-preview-overlay">
            {overlay(width / size.width, size)}
          </div>
        )}
      </div>
      <figcaption className="page-preview__caption">{t("thumbnails.page", { page })}</figcaption>
    </figure>
  );
}

/**
 * A stamping tool's options beside the preview of the first page they change (page numbers,
 * watermark): the options column grows, the preview keeps its width and wraps under on a phone.
 * `preview` is null while the options cannot be drawn yet (no page chosen, a value out of range).
 */
export function PreviewedOptions({
  file,
  preview,
  children,
}: {
  file: File;
  preview: { readonly page: number; readonly overlay: (scale: number, size: PageSize) => ReactNode } | null;
  children: ReactNode;
}) {
  return (
    <div className="previewed-options">
      <div className="previewed-options__options">{children}</div>
      {preview === null ? null : <PagePreview file={file} page={preview.page} overlay={preview.overlay} />}
    </div>
  );
}

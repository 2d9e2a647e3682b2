import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { RotateCw, Trash2 } from "lucide-react";
import type { MouseEvent, PointerEventHandler } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "../../client/src/components/icon";
import { PageThumbnail } from "../../client/src/components/pdf/page-thumbnails";
import type { BoardPage } from "./board.ts";
import tool from "./tool.ts";

/** Thumbnail width in CSS pixels: an A4 page is then 136 px tall, and fits its square frame turned. */
const THUMBNAIL_WIDTH = 96;

interface PageTileProps {
  readonly file: File;
  readonly page: BoardPage;
  readonly label: string;
  readonly position: number;
  readonly selected: boolean;
  readonly disabled: boolean;
  readonly onToggle: (key: string, shift: boolean) => void;
  readonly onRotate: (key: string) => void;
  readonly onDelete: (key: string) => void;
}

/**
 * One page of the board: a drag handle (pointer, touch or keyboard), the thumbnail turned as the
 * page will be (a toggle button that selects it, and can be dragged too), its position and buttons
 * to turn or delete it.
 */
export function PageTile({ file, page, label, position, selected, disabled, ...on }: PageTileProps) {
  const { t } = useTranslation(tool.id);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: page.key, disabled });
  const full = page.rotate === 0 ? label : `${label}, ${t("turned", { degrees: page.rotate })}`;
  const toggle = (event: MouseEvent) => on.onToggle(page.key, event.shiftKey);
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`organize-tile${selected ? " organize-tile--selected" : ""}${isDragging ? " organize-tile--dragging" : ""}`}
      data-testid="organize-page"
      data-source={page.source}
      data-rotate={page.rotate}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="organize-tile__handle"
        aria-label={t("tileLabel", { label: full, position })}
        disabled={disabled}
        {...attributes}
        {...listeners}
      >
        <Icon name="grip" />
      </button>
      <button
        type="button"
        className="organize-tile__select"
        aria-pressed={selected}
        aria-label={full}
        disabled={disabled}
        onClick={toggle}
        onPointerDown={listeners?.onPointerDown as PointerEventHandler | undefined}
        data-testid="organize-select"
      >
        <span className="organize-tile__frame">
          <span className="organize-tile__turn" style={{ transform: `rotate(${page.rotate}deg)` }}>
            {page.source === 0 ? (
              <span className="organize-tile__blank">{t("blank")}</span>
            ) : (
              <PageThumbnail file={file} page={page.source} width={THUMBNAIL_WIDTH} />
            )}
          </span>
        </span>
      </button>
      <span className="organize-tile__footer">
        <span className="organize-tile__position" aria-hidden="true">
          {position}
        </span>
        <span className="organize-tile__label" aria-hidden="true">
          {page.source === 0 ? t("blank") : page.source}
        </span>
        <button
          type="button"
          className="organize-tile__action"
          aria-label={t("page.rotate", { label })}
          title={t("page.rotate", { label })}
          disabled={disabled}
          onClick={() => on.onRotate(page.key)}
        >
          <RotateCw className="icon" width={18} height={18} aria-hidden="true" focusable="false" />
        </button>
        <button
          type="button"
          className="organize-tile__action"
          aria-label={t("page.delete", { label })}
          title={t("page.delete", { label })}
          disabled={disabled}
          onClick={() => on.onDelete(page.key)}
        >
          <Trash2 className="icon" width={18} height={18} aria-hidden="true" focusable="false" />
        </button>
      </span>
    </li>
  );
}

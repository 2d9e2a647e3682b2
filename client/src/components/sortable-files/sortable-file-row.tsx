import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { extensionOf } from "../../lib/contract";
import { formatFileSize } from "../../lib/format/file-size";
import { FileName } from "../file-name";
import { Icon } from "../icon";
import type { ChosenFile } from "./chosen-file";

interface SortableFileRowProps {
  item: ChosenFile;
  position: number;
  disabled: boolean;
  /** Why this file cannot be used (a check, or the last run, named it), shown under its name. */
  problem?: string | undefined;
  /** A short fact shown under its name (page count, checking…). */
  detail?: string | undefined;
  /** What stands for the file (a preview); by default a badge with its format. */
  thumbnail?: ReactNode;
  /** Shown under its name after the problem (e.g. the password a protected PDF asks for). */
  footer?: ReactNode;
  onRemove: (id: string) => void;
}

/** One file of a sortable list: drag handle, position badge, thumbnail, name, size, problem, remove. */
export function SortableFileRow({
  item,
  position,
  disabled,
  problem,
  detail,
  thumbnail,
  footer,
  onRemove,
}: SortableFileRowProps) {
  const { t, i18n } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({
      id: item.id,
      disabled,
    });
  const name = item.file.name;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`file-row${isDragging ? " file-row--dragging" : ""}${problem ? " file-row--problem" : ""}`}
      data-testid="file-row"
      data-problem={problem ? "true" : undefined}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        className="file-row__handle"
        aria-label={t("fileList.dragHandle", { name })}
        disabled={disabled}
        {...attributes}
        {...listeners}
      >
        <Icon name="grip" />
      </button>
      <span className="file-row__badge" title={t("fileList.position", { position })}>
        <span className="visually-hidden">{t("fileList.position", { position })}</span>
        <span aria-hidden="true">{position}</span>
      </span>
      {thumbnail ?? (
        <span className="file-row__icon" aria-hidden="true">
          {extensionOf(item.file.name).toUpperCase()}
        </span>
      )}
      <span className="file-row__name" title={name}>
        <FileName name={name} />
        {detail && !problem ? <span className="file-row__detail">{detail}</span> : null}
        {problem ? (
          <span className="file-row__problem" role="alert">
            {problem}
          </span>
        ) : null}
        {footer}
      </span>
      <span className="file-row__size">
        {formatFileSize(item.file.size, t, i18n.resolvedLanguage ?? "en")}
      </span>
      <button
        type="button"
        className="file-row__remove"
        aria-label={t("fileList.remove", { name })}
        disabled={disabled}
        onClick={() => onRemove(item.id)}
      >
        <Icon name="close" />
      </button>
    </li>
  );
}

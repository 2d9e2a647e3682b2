import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useTranslation } from "react-i18next";
import { Icon } from "../../client/src/components/icon";
import { formatLabel } from "../../client/src/lib/files/file-formats";
import { formatFileSize } from "../../client/src/lib/format/file-size";
import type { ChosenFile } from "./chosen-file";
import tool from "./tool.ts";

interface SortableFileRowProps {
  item: ChosenFile;
  position: number;
  disabled: boolean;
  /** Why the last merge failed on this file (the server named it), shown under its name. */
  problem?: string | undefined;
  onRemove: (id: string) => void;
}

/** One file of the merge list: drag handle, position badge, name, size, problem and remove button. */
export function SortableFileRow({ item, position, disabled, problem, onRemove }: SortableFileRowProps) {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  // Shared helpers take the common namespace.
  const { t: shared } = useTranslation();
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
        aria-label={t("dragHandle", { name })}
        disabled={disabled}
        {...attributes}
        {...listeners}
      >
        <Icon name="grip" />
      </button>
      <span className="file-row__badge" title={t("position", { position })}>
        <span className="visually-hidden">{t("position", { position })}</span>
        <span aria-hidden="true">{position}</span>
      </span>
      <span className="file-row__icon" aria-hidden="true">
        {formatLabel("pdf")}
      </span>
      <span className="file-row__name" title={name}>
        {name}
        {problem ? (
          <span className="file-row__problem" role="alert">
            {problem}
          </span>
        ) : null}
      </span>
      <span className="file-row__size">
        {formatFileSize(item.file.size, shared, i18n.resolvedLanguage ?? "en")}
      </span>
      <button
        type="button"
        className="file-row__remove"
        aria-label={t("remove", { name })}
        disabled={disabled}
        onClick={() => onRemove(item.id)}
      >
        <Icon name="close" />
      </button>
    </li>
  );
}

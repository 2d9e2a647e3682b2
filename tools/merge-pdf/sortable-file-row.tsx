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
  onRemove: (id: string) => void;
}

/** One file of the merge list: drag handle, position badge, name, size and remove button. */
export function SortableFileRow({ item, position, disabled, onRemove }: SortableFileRowProps) {
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
      className={`file-row${isDragging ? " file-row--dragging" : ""}`}
      data-testid="file-row"
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

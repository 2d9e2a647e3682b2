import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { type ReactNode, useId } from "react";
import { useTranslation } from "react-i18next";
import { formatFileSize } from "../../lib/format/file-size";
import { sortableAnnouncements } from "../sortable-announcements";
import { type ChosenFile, sortByName } from "./chosen-file";
import { SortableFileRow } from "./sortable-file-row";
import "./sortable-files.css";

interface SortableFileListProps<T extends ChosenFile> {
  items: readonly T[];
  /** The list's heading, in the tool's words ("Files to merge"). */
  title: string;
  disabled: boolean;
  /** Why a file cannot be used (a check, or the last run, named it); shown under its name. */
  problemOf?: ((item: T) => string | undefined) | undefined;
  /** A short fact under the file's name ("12 pages", "Checking…"). */
  detailOf?: ((item: T) => string | undefined) | undefined;
  /** What stands for the file in its row (a preview); by default a badge with its format. */
  renderThumbnail?: ((item: T) => ReactNode) | undefined;
  /** What a row shows under its name and problem (e.g. a password field), if anything. */
  renderFooter?: ((item: T) => ReactNode) | undefined;
  /** Extra class on the list of rows (e.g. a fixed-height scrolling area). */
  itemsClassName?: string | undefined;
  onChange: (items: T[]) => void;
}

/** An ordered file list: drag (pointer, touch or keyboard), sort by name, reverse, remove. */
export function SortableFileList<T extends ChosenFile>({
  items,
  title,
  disabled,
  problemOf,
  detailOf,
  renderThumbnail,
  renderFooter,
  itemsClassName,
  onChange,
}: SortableFileListProps<T>) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const language = i18n.resolvedLanguage ?? "en";
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const indexOf = (id: UniqueIdentifier) => items.findIndex((item) => item.id === id);
  const nameOf = (id: UniqueIdentifier) => items[indexOf(id)]?.file.name ?? "";
  const total = items.length;
  const announcements = sortableAnnouncements(
    items.map((item) => item.id),
    (event, id, position, count) => t(`fileList.dnd.${event}`, { name: nameOf(id), position, total: count }),
  );

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = indexOf(active.id);
    const to = indexOf(over.id);
    if (from >= 0 && to >= 0) onChange(arrayMove([...items], from, to));
  };

  const totalBytes = items.reduce((sum, item) => sum + item.file.size, 0);

  return (
    <section className="file-list" aria-labelledby={titleId}>
      <div className="file-list__header">
        <div>
          <h2 id={titleId} className="file-list__title">
            {title}
          </h2>
          <p className="file-list__count">
            {t("fileList.fileCount", { count: total, size: formatFileSize(totalBytes, t, language) })}
          </p>
        </div>
        <div className="file-list__tools">
          <button
            type="button"
            className="button button--small"
            disabled={disabled || total < 2}
            onClick={() => onChange(sortByName(items, language))}
          >
            {t("fileList.sortByName")}
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={disabled || total < 2}
            onClick={() => onChange([...items].reverse())}
          >
            {t("fileList.reverse")}
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={disabled}
            onClick={() => onChange([])}
          >
            {t("fileList.clear")}
          </button>
        </div>
      </div>
      <p className="file-list__hint">{t("fileList.orderHint")}</p>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={handleDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: t("fileList.dnd.instructions") },
        }}
      >
        <SortableContext items={items.map((item) => item.id)} strategy={verticalListSortingStrategy}>
          <ol className={itemsClassName ? `file-list__items ${itemsClassName}` : "file-list__items"}>
            {items.map((item, index) => (
              <SortableFileRow
                key={item.id}
                item={item}
                position={index + 1}
                disabled={disabled}
                problem={problemOf?.(item)}
                detail={detailOf?.(item)}
                thumbnail={renderThumbnail?.(item)}
                footer={renderFooter?.(item)}
                onRemove={(id) => onChange(items.filter((other) => other.id !== id))}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
    </section>
  );
}

import {
  type Announcements,
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
import { useTranslation } from "react-i18next";
import { formatFileSize } from "../../client/src/lib/format/file-size";
import { type ChosenFile, sortByName } from "./chosen-file";
import { SortableFileRow } from "./sortable-file-row";
import tool from "./tool.ts";

interface SortableFileListProps {
  items: readonly ChosenFile[];
  disabled: boolean;
  /** The file the last merge failed on, and why. */
  problem?: { readonly id: string; readonly message: string } | null;
  onChange: (items: ChosenFile[]) => void;
}

/** The ordered merge list: drag (pointer, touch or keyboard), sort by name, reverse, remove. */
export function SortableFileList({ items, disabled, problem, onChange }: SortableFileListProps) {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  // Shared helpers take the common namespace.
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const indexOf = (id: UniqueIdentifier) => items.findIndex((item) => item.id === id);
  const nameOf = (id: UniqueIdentifier) => items[indexOf(id)]?.file.name ?? "";
  const total = items.length;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t("dnd.pickedUp", { name: nameOf(active.id), position: indexOf(active.id) + 1, total }),
    onDragOver: ({ active, over }) =>
      over
        ? t("dnd.movedOver", { name: nameOf(active.id), position: indexOf(over.id) + 1, total })
        : undefined,
    onDragEnd: ({ active, over }) =>
      t("dnd.dropped", {
        name: nameOf(active.id),
        position: (over ? indexOf(over.id) : indexOf(active.id)) + 1,
        total,
      }),
    onDragCancel: ({ active }) =>
      t("dnd.cancelled", { name: nameOf(active.id), position: indexOf(active.id) + 1 }),
  };

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = indexOf(active.id);
    const to = indexOf(over.id);
    if (from >= 0 && to >= 0) onChange(arrayMove([...items], from, to));
  };

  const totalBytes = items.reduce((sum, item) => sum + item.file.size, 0);

  return (
    <section className="file-list" aria-labelledby="file-list-title">
      <div className="file-list__header">
        <div>
          <h2 id="file-list-title" className="file-list__title">
            {t("listTitle")}
          </h2>
          <p className="file-list__count">
            {t("fileCount", { count: total, size: formatFileSize(totalBytes, shared, language) })}
          </p>
        </div>
        <div className="file-list__tools">
          <button
            type="button"
            className="button button--small"
            disabled={disabled || total < 2}
            onClick={() => onChange(sortByName(items, language))}
          >
            {t("sortByName")}
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={disabled || total < 2}
            onClick={() => onChange([...items].reverse())}
          >
            {t("reverse")}
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={disabled}
            onClick={() => onChange([])}
          >
            {t("clear")}
          </button>
        </div>
      </div>
      <p className="file-list__hint">{t("orderHint")}</p>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={handleDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: { draggable: t("dnd.instructions") },
        }}
      >
        <SortableContext items={items.map((item) => item.id)} strategy={verticalListSortingStrategy}>
          <ol className="file-list__items">
            {items.map((item, index) => (
              <SortableFileRow
                key={item.id}
                item={item}
                position={index + 1}
                disabled={disabled}
                problem={problem?.id === item.id ? problem.message : undefined}
                onRemove={(id) => onChange(items.filter((other) => other.id !== id))}
              />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
    </section>
  );
}

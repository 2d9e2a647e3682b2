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
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { acquirePdf, releasePdf } from "../../client/src/components/pdf/pdf-pages";
import { sortableAnnouncements } from "../../client/src/components/sortable-announcements";
import type { BoardPage } from "./board.ts";
import { PageTile } from "./page-tile";
import tool from "./tool.ts";

interface PageBoardProps {
  readonly file: File;
  readonly pages: readonly BoardPage[];
  readonly selected: ReadonlySet<string>;
  readonly disabled: boolean;
  readonly onMove: (from: number, to: number) => void;
  readonly onToggle: (key: string, shift: boolean) => void;
  readonly onRotate: (key: string) => void;
  readonly onDelete: (key: string) => void;
}

/**
 * The pages as a grid of thumbnails in their new order, sortable by pointer, touch and keyboard
 * (dnd-kit; moves are announced to screen readers). Thumbnails draw as they scroll into view.
 */
export function PageBoard({ file, pages, selected, disabled, onMove, ...on }: PageBoardProps) {
  const { t } = useTranslation([tool.id, "common"]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  // Hold the document while the board shows, so thumbnails scrolled in later reuse it.
  useEffect(() => {
    void acquirePdf(file).catch(() => undefined);
    return () => releasePdf(file);
  }, [file]);

  const indexOf = (id: UniqueIdentifier) => pages.findIndex((page) => page.key === id);
  const labelOf = (page: BoardPage | undefined) =>
    page === undefined || page.source === 0 ? t("blank") : t("common:thumbnails.page", { page: page.source });
  const announcements = sortableAnnouncements(
    pages.map((page) => page.key),
    (event, id, position, total) =>
      t(`dnd.${event}`, { label: labelOf(pages[indexOf(id)]), position, total }),
  );

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = indexOf(active.id);
    const to = indexOf(over.id);
    if (from >= 0 && to >= 0) onMove(from, to);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={handleDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t("dnd.instructions") } }}
    >
      <SortableContext items={pages.map((page) => page.key)} strategy={rectSortingStrategy}>
        <ol className="organize-board" aria-label={t("pagesTitle")} data-testid="organize-board">
          {pages.map((page, index) => (
            <PageTile
              key={page.key}
              file={file}
              page={page}
              label={labelOf(page)}
              position={index + 1}
              selected={selected.has(page.key)}
              disabled={disabled}
              {...on}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

import type { Announcements, UniqueIdentifier } from "@dnd-kit/core";

export type SortableEvent = "pickedUp" | "movedOver" | "dropped" | "cancelled";

/**
 * What a screen reader hears while a sortable list is reordered (dnd-kit): each event says which
 * item moved and its 1-based position among `total`, in the words `say` gives (the list's own
 * strings).
 */
export function sortableAnnouncements(
  ids: readonly UniqueIdentifier[],
  say: (event: SortableEvent, id: UniqueIdentifier, position: number, total: number) => string,
): Announcements {
  const positionOf = (id: UniqueIdentifier) => ids.indexOf(id) + 1;
  const total = ids.length;
  return {
    onDragStart: ({ active }) => say("pickedUp", active.id, positionOf(active.id), total),
    onDragOver: ({ active, over }) =>
      over ? say("movedOver", active.id, positionOf(over.id), total) : undefined,
    onDragEnd: ({ active, over }) => say("dropped", active.id, positionOf(over ? over.id : active.id), total),
    onDragCancel: ({ active }) => say("cancelled", active.id, positionOf(active.id), total),
  };
}

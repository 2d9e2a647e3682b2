import { useCallback, useEffect, useRef, useState } from "react";
import { type ChosenFile, toChosenFiles } from "../../client/src/components/sortable-files/chosen-file";

/** A chosen image (spec §3): id, file, and a temporary object URL for its thumbnail. */
export interface ChosenImage extends ChosenFile {
  preview: string;
}

export function toChosenImages(files: readonly File[]): ChosenImage[] {
  return toChosenFiles(files).map((item) => ({ ...item, preview: URL.createObjectURL(item.file) }));
}

/**
 * The list of chosen images. Replacing it revokes the object URLs of images no longer in it, and
 * leaving the screen revokes the rest, so the browser can free the files' memory.
 */
export function useChosenImages(): [ChosenImage[], (next: ChosenImage[]) => void] {
  const [items, setItems] = useState<ChosenImage[]>([]);
  const current = useRef<ChosenImage[]>([]);
  const replace = useCallback((next: ChosenImage[]) => {
    const kept = new Set(next.map((item) => item.id));
    for (const item of current.current) if (!kept.has(item.id)) URL.revokeObjectURL(item.preview);
    current.current = next;
    setItems(next);
  }, []);
  useEffect(
    () => () => {
      for (const item of current.current) URL.revokeObjectURL(item.preview);
      current.current = [];
    },
    [],
  );
  return [items, replace];
}

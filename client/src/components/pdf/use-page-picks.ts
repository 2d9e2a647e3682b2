import { useMemo, useRef, useState } from "react";
import { type PageRangeError, pagesOf, parsePageRanges } from "../../lib/contract";
import { toggledRanges } from "./page-picks";
import type { ToggleGesture } from "./page-thumbnails";

export interface PagePicks {
  /** The page ranges text as typed (spec §5). */
  readonly ranges: string;
  readonly setRanges: (ranges: string) => void;
  /** The spec's message for ranges that do not fit the document; null when they do (or no count yet). */
  readonly error: PageRangeError | null;
  /** The pages the ranges name, for the previews (empty while the text is blank or wrong). */
  readonly selected: ReadonlySet<number>;
  /** A click on a preview adds or removes its page; with shift, the run from the last click. */
  readonly toggle: (page: number, gesture: ToggleGesture) => void;
  /** Clears the ranges (a new file). */
  readonly clear: () => void;
}

/** The page ranges of a PDF of `pages` pages, typed or picked on the previews. */
export function usePagePicks(pages: number | null): PagePicks {
  const [ranges, setRanges] = useState("");
  const lastToggled = useRef<number | null>(null);
  const parsed = useMemo(() => (pages === null ? null : parsePageRanges(ranges, pages)), [ranges, pages]);
  const selected = useMemo(
    () => new Set(ranges.trim() !== "" && parsed?.ok ? pagesOf(parsed.ranges) : []),
    [ranges, parsed],
  );
  return {
    ranges,
    setRanges,
    error: parsed !== null && !parsed.ok ? parsed.error : null,
    selected,
    toggle: (page, gesture) => {
      setRanges(toggledRanges(selected, page, gesture.shift, lastToggled.current));
      lastToggled.current = page;
    },
    clear: () => {
      setRanges("");
      lastToggled.current = null;
    },
  };
}

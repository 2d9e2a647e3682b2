import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False while the prerender renders and while the browser hydrates its HTML, true from the render
 * that follows hydration (and at once in a page rendered in the browser). Text the prerender (Node)
 * and the browser would word differently, and controls that need the app, use it: the HTML and the
 * hydrating render agree, and the browser's own version follows right after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/**
 * A control that does nothing until the app has hydrated the page is sent disabled and busy, and
 * enabled by the render that follows hydration: a click before then is visibly not taken, instead of
 * silently lost.
 */
export function untilHydrated(hydrated: boolean): { disabled?: true; "aria-busy"?: true } {
  return hydrated ? {} : { disabled: true, "aria-busy": true };
}

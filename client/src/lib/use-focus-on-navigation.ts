import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { announce } from "../components/live-announcer";

/**
 * After a navigation inside the app, focus goes to the new page's main heading and its text is
 * announced, as a page load would do: otherwise focus stayed on the link followed, and the next Tab
 * went on from there (into the footer). Waits for the page's ready mark (app/page-ready.tsx), since
 * a lazy page's heading comes after its chunk. The first page and in-page anchors (#features) keep
 * the browser's own focus.
 */
export function useFocusOnNavigation() {
  const { pathname, hash } = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const first = previous.current === null;
    const changed = previous.current !== pathname;
    previous.current = pathname;
    if (first || !changed || hash) return;
    const root = document.documentElement;
    const focusHeading = () => {
      if (root.dataset.pageReady !== pathname) return false;
      const heading = document.querySelector<HTMLElement>("#main h1");
      if (heading === null) return true;
      if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
      announce(heading.textContent ?? "");
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(root, { attributes: true, attributeFilter: ["data-page-ready"] });
    return () => observer.disconnect();
  }, [pathname, hash]);
}

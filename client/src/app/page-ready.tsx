import { type ComponentType, lazy, useEffect } from "react";
import { useLocation } from "react-router";
import { yieldToMain } from "../lib/yield-to-main";

/**
 * Marks the document once the page in the main area has hydrated: `<html data-page-ready="/de/tools/merge-pdf">`.
 * Browser tests wait for it before using a prerendered page, whose controls do nothing until then.
 * It is rendered after the page's own content (pageWithReady): Preact commits the siblings of a
 * component that is still loading, so a marker beside a lazy page would come before the page.
 */
export function PageReady() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.documentElement.dataset.pageReady = pathname;
  }, [pathname]);
  return null;
}

/** A page followed by its ready marker. */
export function pageWithReady<Props extends object>(Page: ComponentType<Props>): ComponentType<Props> {
  return function PageThenReady(props: Props) {
    return (
      <>
        <Page {...props} />
        <PageReady />
      </>
    );
  };
}

/**
 * A page loaded on demand (its own chunk); the ready marker comes with it. Evaluating the chunk and
 * rendering the page run as two tasks: when the chunk was preloaded (scripts/page-preloads.ts) the
 * two together made one long task of ~110 ms on a mobile CPU (Lighthouse's 4× slowdown).
 */
export function lazyPage<Props extends object>(
  load: () => Promise<{ default: ComponentType<Props> }>,
): ComponentType<Props> {
  return lazy(async () => {
    const module = await load();
    await yieldToMain();
    return { default: pageWithReady(module.default) };
  });
}

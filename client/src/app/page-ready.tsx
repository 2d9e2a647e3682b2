import { type ComponentType, type FunctionComponent, use, useEffect } from "react";
import { useLocation } from "react-router";
import { useHydrated } from "../lib/use-hydrated";
import { yieldToMain } from "../lib/yield-to-main";

/**
 * Marks the document once the page in the main area has hydrated: `<html data-page-ready="/de/tools/merge-pdf">`.
 * Browser tests wait for it before using a prerendered page, whose controls do nothing until then.
 * Its effect runs once the page's content has committed (rendered after it: pageWithReady), in the
 * render after hydration, where the controls sent disabled (lib/use-hydrated.ts) are enabled.
 */
export function PageReady() {
  const { pathname } = useLocation();
  const hydrated = useHydrated();
  useEffect(() => {
    if (!hydrated) return;
    document.documentElement.dataset.pageReady = pathname;
  }, [pathname, hydrated]);
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

/** A component whose code is loaded on demand, and can be loaded before it is first rendered. */
export interface PreloadableComponent<Props> extends FunctionComponent<Props> {
  /** Loads the code; once it is in, the component renders at once, without suspending. */
  preload(): Promise<unknown>;
}

/**
 * Like React's `lazy`, with the loading started from outside: the prerender and the browser load a
 * route's modules (app/router.tsx, preloadRoute) before rendering or hydrating it, so the page is
 * rendered complete (no Suspense fallback in the HTML) and hydrates in one pass. Rendered before its
 * code is in (a navigation in the browser), it suspends until it is.
 */
export function preloadable<Props extends object>(
  load: () => Promise<{ default: ComponentType<Props> }>,
): PreloadableComponent<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const preload = () => {
    loading ??= load().then((module) => {
      loaded = module.default;
      return loaded;
    });
    return loading;
  };
  function Preloadable(props: Props) {
    const Component = loaded ?? use(preload());
    return <Component {...props} />;
  }
  Preloadable.preload = preload;
  return Preloadable;
}

/**
 * A page loaded on demand (its own chunk); the ready marker comes with it. Evaluating the chunk and
 * rendering the page run as two tasks: when the chunk was preloaded (scripts/page-preloads.ts) the
 * two together made one long task of ~110 ms on a mobile CPU (Lighthouse's 4× slowdown).
 */
export function lazyPage<Props extends object>(
  load: () => Promise<{ default: ComponentType<Props> }>,
): PreloadableComponent<Props> {
  return preloadable(async () => {
    const module = await load();
    await yieldToMain();
    return { default: pageWithReady(module.default) };
  });
}

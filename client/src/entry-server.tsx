/**
 * The prerender's entry (built by scripts/prerender.ts with Vite's SSR build): renders one path in
 * one language to HTML with react-dom's static prerender and react-router's static handler, every
 * string and every module of the route (preloadRoute) loaded beforehand, so nothing suspends: the
 * HTML is the complete page, with no Suspense fallback and no inline script (the CSP allows none).
 */
import { JSDOM } from "jsdom";
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import type { LanguageCode } from "../../contract/languages.ts";
import { AppShell } from "./app/app";
import { preloadRoute, routes } from "./app/router";
import { provideSanitizerWindow } from "./features/blog/render-markdown";
import i18next, { i18nReady } from "./lib/i18n/i18n";
import type { PageHead } from "./lib/page-head";
import { providePrerenderedData } from "./lib/prerendered-data";
import { takeRenderedHead } from "./lib/use-page-meta";

export { headHtml } from "./lib/page-head";
export { prerenderedDataHtml } from "./lib/prerendered-data";

const handler = createStaticHandler(routes);
// Blog posts are sanitised (DOMPurify) as in the browser, on jsdom's DOM.
provideSanitizerWindow(new JSDOM("").window);

export interface RenderedPage {
  /** The markup of #root. */
  html: string;
  head: PageHead | null;
  /** The i18next namespaces the page showed (the client loads them before hydrating). */
  namespaces: string[];
  /** The address the app redirected to, when it did (unknown paths). */
  redirect?: string;
}

/** react-i18next's record of the namespaces rendered (created by the first useTranslation). */
function usedNamespaces() {
  return (i18next as { reportNamespaces?: { usedNamespaces: Record<string, boolean> } }).reportNamespaces;
}

/** One page as HTML; `data` is what its queries show (lib/prerendered-data.ts), embedded with it. */
export async function renderPage(
  pathname: string,
  language: LanguageCode,
  data: Readonly<Record<string, unknown>> = {},
): Promise<RenderedPage> {
  providePrerenderedData(data);
  await i18nReady;
  await i18next.changeLanguage(language);
  const context = await handler.query(new Request(`http://prerender${pathname}`));
  if (context instanceof Response)
    return { html: "", head: null, namespaces: [], redirect: context.headers.get("Location") ?? "/" };
  const router = createStaticRouter(handler.dataRoutes, context);
  takeRenderedHead();
  const before = usedNamespaces();
  if (before) before.usedNamespaces = {};
  await preloadRoute(pathname);
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <AppShell>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppShell>
    </StrictMode>,
    // One piece, never a boundary sent apart with a script to move it in place.
    { progressiveChunkSize: Number.POSITIVE_INFINITY, onError: (error) => void errors.push(error) },
  );
  if (errors.length > 0) throw new AggregateError(errors, `${pathname} (${language}) failed to render`);
  // React puts preload links for the first images ahead of the markup (where a whole document
  // would have its <head>); what a page announces is decided by scripts/page-preloads.ts.
  const html = (await new Response(prelude).text()).replace(
    /^(?:<link rel="preload" as="image"[^>]*\/>)+/,
    "",
  );
  // A boundary still waiting (<!--$?-->) or given up to the browser (<!--$!-->), or a script, would
  // show a fallback until hydration and need an inline script the CSP refuses.
  if (/<!--\$[?!]-->|<script/i.test(html))
    throw new Error(`${pathname} (${language}) rendered incomplete: a Suspense fallback or a script`);
  const namespaces = Object.keys(usedNamespaces()?.usedNamespaces ?? {});
  return { html, head: takeRenderedHead(), namespaces };
}

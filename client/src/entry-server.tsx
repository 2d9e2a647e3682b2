/**
 * The prerender's entry (built by scripts/prerender.ts with Vite's SSR build): renders one path in
 * one language to HTML with react-router's static handler, every string loaded beforehand. The app
 * runs on Preact (vite.config.ts): preact-render-to-string waits for every lazy page before answering.
 */
import { JSDOM } from "jsdom";
import { renderToStringAsync } from "preact-render-to-string";
import { StrictMode } from "react";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import type { LanguageCode } from "../../contract/languages.ts";
import { AppShell } from "./app/app";
import { routes } from "./app/router";
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
  const html = await renderToStringAsync(
    <StrictMode>
      <AppShell>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppShell>
    </StrictMode>,
  );
  const namespaces = Object.keys(usedNamespaces()?.usedNamespaces ?? {});
  return { html, head: takeRenderedHead(), namespaces };
}

import { StrictMode, startTransition } from "react";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { AppShell } from "./app/app";
import { createRoot, hydrateRoot } from "./app/dom-renderer";
import { preloadRoute, routes } from "./app/router";
import { isLanguageCode } from "./lib/contract";
import i18next, { i18nReady } from "./lib/i18n/i18n";
import { yieldToMain } from "./lib/yield-to-main";

/**
 * The app, started by the entry (main.tsx) once the page has been painted. The page's HTML was
 * prerendered (scripts/prerender.ts) for one path in one language, named on #root. The app hydrates
 * it when the visitor gets exactly that path (an unknown path served the home page: it renders
 * afresh). The page's language is its address's (lib/i18n/i18n.ts), the one it was
 * prerendered in.
 */
async function start(root: HTMLElement) {
  await i18nReady;
  // The router (matching the path against every route under every language prefix) in a task apart
  // from i18next's start: each was several milliseconds of one long task (CPU profile of /hi).
  await yieldToMain();
  const router = createBrowserRouter(routes);
  const pageLanguage = root.dataset.language;
  const app = (
    <StrictMode>
      <AppShell>
        <RouterProvider router={router} />
      </AppShell>
    </StrictMode>
  );
  if (root.dataset.path !== window.location.pathname || !isLanguageCode(pageLanguage)) {
    root.replaceChildren();
    createRoot(root).render(app);
    return;
  }
  // Every string the page shows and every module it renders (its lazy page, layout and tool screen)
  // are loaded before hydrating, so the first client render matches the HTML without suspending.
  await Promise.all([
    i18next.loadNamespaces(root.dataset.namespaces?.split(" ").filter(Boolean) ?? []),
    preloadRoute(window.location.pathname),
  ]);
  // Hydration gets a task of its own, apart from the scripts' evaluation and i18next's start, and
  // runs as a transition: React then hydrates in slices of a few milliseconds, yielding to the
  // browser between them (a plain hydrateRoot is one task, ~1 s on Lighthouse's slowed mobile CPU).
  // A click on a part not yet hydrated makes React hydrate that part at once and replay it.
  await yieldToMain();
  startTransition(() => {
    hydrateRoot(root, app);
  });
}

const root = document.getElementById("root");
if (root) void start(root);

// Global styles first: feature styles imported by components come later and may refine them.
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/components.css";
import "./styles/tool.css";
import "./app/fonts.css";
import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { createBrowserRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { AppShell } from "./app/app";
import { reloadOnPreloadError } from "./app/preload-error";
import { routes } from "./app/router";
import i18next, { currentLanguage, i18nReady } from "./lib/i18n/i18n";
import { yieldToMain } from "./lib/yield-to-main";

reloadOnPreloadError();

/**
 * The page's HTML was prerendered (scripts/prerender.ts) for one path in one language, named on
 * #root. The app hydrates it when the visitor gets exactly that page; otherwise (an unknown path
 * served the home page, or a stored language other than the prerendered one) it renders afresh.
 */
async function start(root: HTMLElement) {
  await i18nReady;
  const router = createBrowserRouter(routes);
  const app = (
    <StrictMode>
      <AppShell>
        <RouterProvider router={router} />
      </AppShell>
    </StrictMode>
  );
  const prerendered =
    root.dataset.path === window.location.pathname && root.dataset.language === currentLanguage();
  if (!prerendered) {
    root.replaceChildren();
    createRoot(root).render(app);
    return;
  }
  // Every string the page shows is loaded before hydrating, so the first client render matches.
  await i18next.loadNamespaces(root.dataset.namespaces?.split(" ").filter(Boolean) ?? []);
  // Hydration gets a task of its own, apart from the scripts' evaluation and i18next's start.
  await yieldToMain();
  hydrateRoot(root, app);
}

const root = document.getElementById("root");
if (root) void start(root);

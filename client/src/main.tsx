// Global styles first: feature styles imported by components come later and may refine them.
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/components.css";
import "./styles/tool.css";
import "./app/fonts.css";
import { reloadOnPreloadError } from "./app/preload-error";
import { applyStoredTheme } from "./components/theme/theme";
import { afterFirstPaint } from "./lib/after-first-paint";
import { announceAfterPaint } from "./lib/announce-after-paint";
import { yieldToMain } from "./lib/yield-to-main";

reloadOnPreloadError();

/**
 * The entry is kept small (1.7 KB gzip, most of it Vite's preload helper). The prerendered page needs
 * no script to be seen, and a script evaluated before the browser has shown it holds that paint back:
 * React, the router and the app (start.tsx and what it imports, 133 KB gzip on the home page) are
 * evaluated only once the page's first contentful paint is on the screen. Their files are fetched
 * then too, all at once: every page lists them (`modulepreload`, and the locale files it shows;
 * scripts/page-preloads.ts) in an inert template that is put into the <head> at that moment, so
 * neither their requests nor their compilation compete with the page's first layout and paint.
 */
void afterFirstPaint(document.getElementById("root")).then(async () => {
  announceAfterPaint();
  // Each piece of start-up work in a task of its own, so that none is long: the stored theme
  // (components/theme/theme.ts), React's DOM renderer (app/dom-renderer.ts), then the rest of the app.
  await yieldToMain();
  applyStoredTheme();
  await yieldToMain();
  await import("./app/dom-renderer");
  await yieldToMain();
  await import("./start");
});

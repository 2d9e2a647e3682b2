/** The id of the `<template>` holding what a prerendered page's scripts will fetch (scripts/prerender.ts). */
export const AFTER_PAINT_TEMPLATE_ID = "after-paint";

/**
 * Puts into the document's <head> the `<link>` hints the prerender left inert in the page's
 * `<template id="after-paint">` (scripts/page-preloads.ts: the locale files, the app's modules and a
 * tool page's screen chunks), so the browser starts fetching them now, all at once. The entry
 * (main.tsx) calls it once the first contentful paint is on the screen: announced in the <head>
 * itself, the ~25 requests and the compilation of the modules they bring (on a thread of its own,
 * but sharing the machine's cores) ran while the page was being laid out and painted, and held the
 * paint back. Without the template (the development server's page), nothing is announced.
 */
export function announceAfterPaint(): void {
  const template = document.getElementById(AFTER_PAINT_TEMPLATE_ID);
  if (template instanceof HTMLTemplateElement) {
    document.head.append(template.content);
    template.remove();
  }
}

/**
 * The data a page was prerendered with. scripts/prerender.ts gives it to the server render and
 * embeds it in the page as JSON (never executed, so the CSP needs no exception); the browser's first
 * render reads it back, so hydration shows what the HTML shows while the page's own requests run.
 */
export const PRERENDERED_DATA_ID = "prerendered-data";

let data: Readonly<Record<string, unknown>> | undefined;

/** The key a query's data is stored under: its TanStack Query key as JSON. */
export function dataKey(queryKey: readonly unknown[]): string {
  return JSON.stringify(queryKey);
}

/** The server render's data for the page about to be rendered (the prerender's entry sets it). */
export function providePrerenderedData(next: Readonly<Record<string, unknown>>): void {
  data = next;
}

function pageData(): Readonly<Record<string, unknown>> {
  if (data) return data;
  const element = typeof document === "undefined" ? null : document.getElementById(PRERENDERED_DATA_ID);
  data = element?.textContent ? (JSON.parse(element.textContent) as Record<string, unknown>) : {};
  return data;
}

/** What the page was prerendered with for this query, if it was (use as the query's initialData). */
export function prerenderedData<T>(queryKey: readonly unknown[]): T | undefined {
  return pageData()[dataKey(queryKey)] as T | undefined;
}

/** The `<script type="application/json">` holding a page's data ("<" escaped, so no tag can end it). */
export function prerenderedDataHtml(pageData: Readonly<Record<string, unknown>>): string {
  if (Object.keys(pageData).length === 0) return "";
  const json = JSON.stringify(pageData).replace(/</g, "\\u003c");
  return `<script type="application/json" id="${PRERENDERED_DATA_ID}">${json}</script>`;
}

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "./browser.ts";

type Tree = { [key: string]: string | Tree };
const ROOT = resolve(import.meta.dirname, "../..");

/** The shared strings, or a tool's own namespace (tools/<id>/locales). */
function localeFile(lang: string, namespace: string): string {
  return namespace === "common"
    ? join(ROOT, "locales", lang, "common.json")
    : join(ROOT, "tools", namespace, "locales", `${lang}.json`);
}

/** A translated string ("key" or "namespace:key") from the locale files, with {{placeholders}} filled in. */
export function translator(lang: string) {
  return (qualified: string, values: Record<string, string | number> = {}): string => {
    const [namespace, key] = qualified.includes(":") ? qualified.split(":", 2) : ["common", qualified];
    const tree = JSON.parse(readFileSync(localeFile(lang, namespace ?? "common"), "utf8")) as Tree;
    const found = (key ?? "")
      .split(".")
      .reduce<string | Tree | undefined>(
        (node, part) => (typeof node === "object" ? node[part] : undefined),
        tree,
      );
    if (typeof found !== "string") throw new Error(`no ${lang} text for ${key}`);
    return found.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ""));
  };
}

/**
 * A fresh page (own context, downloads accepted) that fails the test on any uncaught page error.
 * Its `goto` and `reload` return once the prerendered page has hydrated (RootLayout's `data-page-ready`), as
 * a person's first click would otherwise land on HTML without handlers.
 */
export async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  page.on("pageerror", (error) => {
    throw error;
  });
  const hydrated = () =>
    page.waitForSelector("html[data-page-ready]", { state: "attached", timeout: 20_000 });
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await hydrated();
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    await hydrated();
    return response;
  };
  return page;
}

/** The file a click downloads: its suggested name and bytes. */
export async function downloadBytes(
  page: Page,
  click: () => Promise<void>,
): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: readFileSync(path) };
}

/**
 * One Chromium for the calling test file (launched before its tests, closed after them) and a
 * function opening a fresh page in it (see newPage).
 */
export function chromiumPages(): () => Promise<Page> {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error("Chromium is not running");
    return newPage(browser);
  };
}

/**
 * Runs `check` on each item in `count` tabs at once, each opened by `openTab` and going from item to
 * item (closed after). The first failure stops the tabs and fails, the earliest item's first.
 */
export async function inTabs<T>(
  openTab: () => Promise<Page>,
  items: readonly T[],
  count: number,
  check: (page: Page, item: T) => Promise<void>,
): Promise<void> {
  const queue = items.map((item, index) => ({ item, index }));
  const failures: { index: number; error: unknown }[] = [];
  const tab = async () => {
    const page = await openTab();
    try {
      for (let next = queue.shift(); next && failures.length === 0; next = queue.shift()) {
        try {
          await check(page, next.item);
        } catch (error) {
          failures.push({ index: next.index, error });
        }
      }
    } finally {
      await page.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(count, items.length) }, tab));
  failures.sort((a, b) => a.index - b.index);
  if (failures[0]) throw failures[0].error;
}

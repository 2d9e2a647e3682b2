/**
 * Every page (route × language) as a visitor gets it: the Worker serves prerendered HTML with the
 * page's head, and in Chromium, in one load of each page (a few tabs at once), React hydrates it in
 * place (the parsed heading and <main> kept, React's fiber on them) without a single console error,
 * uncaught error or hydration warning, the text is translated, and Hindi, Telugu and Tamil are drawn
 * with the site's own fonts (whatever fonts the machine has). React's production build reports a
 * mismatch through `onRecoverableError` (an uncaught error on window, "Minified React error #418") or
 * `console.error`, so any of them fails. hydration.test.ts has the pages hydrated under a changed
 * clock or stored language, and clicks before hydration.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { toolPath } from "../../client/src/config/paths.ts";
import { LANGUAGE_CODES, type LanguageCode } from "../../contract/languages.ts";
import type { ToolId } from "../../contract/tools.ts";
import { type SitePage, sitePages } from "../../scripts/site-pages.ts";
import { listToolFolders, toolCatalog } from "../../scripts/tool-registry.ts";
import { launchChromium } from "./browser.ts";
import { inTabs } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const pages = await sitePages();
/** The routes of the tools people can use (a screen of their own). */
const usable = new Set(
  (await toolCatalog()).flatMap((tool) => (tool.state === "available" ? [toolPath(tool.id as ToolId)] : [])),
);
const INDIC_FONTS: Partial<Record<LanguageCode, string>> = {
  hi: "Noto Sans Devanagari",
  te: "Noto Sans Telugu",
  ta: "Noto Sans Tamil",
};
/** What an untranslated key looks like on screen ("pages.home.title", "common:app.name"). */
const MISSING_KEY = /\b(pages|common|app|errors|footer|header|features|hero)[.:][a-z]\w*\.?\w*/;
/** Every string key of the English files (shared, tool cards, each tool's), as a path: "merge-pdf.name". */
function stringKeys(): Set<string> {
  const root = resolve(import.meta.dirname, "../..");
  const files = [
    join(root, "locales/en/common.json"),
    join(root, "client/src/generated/tool-cards/en.json"),
    ...listToolFolders(root).map((tool) => join(root, "tools", tool.id, "locales/en.json")),
  ];
  const keys = new Set<string>();
  const walk = (value: unknown, path: string) => {
    if (value && typeof value === "object")
      for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
    else keys.add(path);
  };
  for (const file of files) walk(JSON.parse(readFileSync(file, "utf8")), "");
  return keys;
}

/** Warnings that tell of a failed hydration (React's development wording; its production build errs #418, #423, #425). */
const HYDRATION_ERROR = /hydrat|#418|#423|#425|did not match/i;

/**
 * Pages walked at once, each in a tab of its own that goes from page to page (a fresh tab per page
 * costs a renderer start; the server and Chromium overlap one page's waits with another's work).
 */
const TABS = 3;
/** A language's walk (51 pages) on a machine shared with other work can take more than vitest's 180 s. */
const WALK_TIMEOUT = 600_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * Keeps the first heading and <main> as parsed, before any script runs: hydration keeps them, a
 * fresh render replaces them.
 */
const RECORD_PARSED = () => {
  document.addEventListener("readystatechange", () => {
    if (document.readyState === "interactive")
      Object.assign(window, {
        parsedHeading: document.querySelector("h1"),
        parsedMain: document.querySelector("main"),
      });
  });
};

/** The Indic scripts of the page's text, the language selector's names left out. */
const scriptsShown = () => {
  const scripts = {
    devanagari: /\p{Script=Devanagari}/u,
    telugu: /\p{Script=Telugu}/u,
    tamil: /\p{Script=Tamil}/u,
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let text = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    if (!node.parentElement?.closest("option, .language-grid")) text += node.textContent ?? "";
  return Object.entries(scripts).flatMap(([name, pattern]) => (pattern.test(text) ? [name] : []));
};

/** What a hydrated page shows of itself: whether React kept the parsed elements, its language, its text. */
const hydratedState = () => {
  const recorded = window as unknown as { parsedHeading: Element | null; parsedMain: Element | null };
  const main = document.querySelector("main");
  return {
    keptHeading: recorded.parsedHeading === document.querySelector("h1"),
    keptMain: main !== null && recorded.parsedMain === main,
    // React itself drew it: its fiber is on the element (no other renderer hydrated the page).
    fiber: Object.keys(main ?? {}).some((key) => key.startsWith("__reactFiber$")),
    lang: document.documentElement.lang,
    text: document.body.innerText,
  };
};

/**
 * Every console error, uncaught error and hydration warning of a tab, from now on (over all the
 * pages it goes to: any of them fails the page where it has arrived).
 */
function recordErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || (message.type() === "warning" && HYDRATION_ERROR.test(message.text())))
      errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  return errors;
}

/** Loads a page in a tab and waits until it has hydrated and shows its heading. */
async function hydrate(page: Page, path: string): Promise<void> {
  await page.goto(`${siteUrl}${path}`);
  // Hydrated: the page in the main area has committed (app/page-ready.tsx marks <html> with its path).
  await page.waitForFunction((shown) => document.documentElement.dataset.pageReady === shown, path, {
    timeout: 30_000,
  });
  await page.locator("h1").first().waitFor({ state: "visible", timeout: 30_000 });
}

async function visit(context: BrowserContext, sitePage: SitePage): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors = recordErrors(page);
  await hydrate(page, sitePage.path);
  return { page, errors };
}

describe("served HTML of every page", () => {
  it("is prerendered with its language, title, description, canonical and alternate addresses", async () => {
    const keys = stringKeys();
    for (const sitePage of pages) {
      const response = await fetch(`${siteUrl}${sitePage.path}`);
      expect(response.status, sitePage.path).toBe(200);
      const html = await response.text();
      expect(html, sitePage.path).toContain(`<html lang="${sitePage.language}"`);
      expect(html, sitePage.path).toMatch(/<h1[^>]*>[^<]+/);
      expect(html, sitePage.path).toMatch(/<title>[^<]+ \| [^<]+<\/title>|<title>[^<|]+<\/title>/);
      expect(html, sitePage.path).toMatch(/<meta name="description" content="[^"]{20,}"/);
      expect(html, sitePage.path).toContain('<meta name="robots" content="index, follow"');
      expect(html, sitePage.path).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+"/);
      for (const code of [...LANGUAGE_CODES, "x-default"])
        expect(html, `${sitePage.path} ${code}`).toContain(`hreflang="${code}"`);
      for (const tag of ["og:title", "og:description", "og:url", "twitter:card", "twitter:title"])
        expect(html, `${sitePage.path} ${tag}`).toContain(`"${tag}"`);
      expect(html, sitePage.path).not.toMatch(/<script>/);
      // The app's scripts load at low priority, after the page's own content (scripts/prerender.ts).
      const scripts = html.match(/<script type="module"[^>]*>|<link rel="modulepreload"[^>]*>/g) ?? [];
      expect(scripts.length, sitePage.path).toBeGreaterThan(1);
      for (const tag of scripts) expect(tag, sitePage.path).toContain('fetchpriority="low"');
      // Every string is rendered, none left as its key (the prerender's i18n has every namespace).
      // (Without the comments React puts between adjacent texts: "#<!-- -->merge" reads "#merge".)
      const texts = [...html.replace(/<!--.*?-->/gs, "").matchAll(/>([^<>]+)</g)].map(
        (match) => match[1]?.trim() ?? "",
      );
      expect(
        texts.filter((text) => keys.has(text)),
        sitePage.path,
      ).toEqual([]);
      // The language selector is sent with the page's own language only (app/language-select.tsx).
      const languageSelect = /<select[^>]*data-testid="language-select"[^>]*>(.*?)<\/select>/.exec(html)?.[1];
      expect(languageSelect?.match(/<option [^>]*value="(\w+)"/g), sitePage.path).toEqual([
        expect.stringContaining(`value="${sitePage.language}"`),
      ]);
    }
  });

  it("lists every page in sitemap.xml and robots.txt names it", async () => {
    const sitemap = await (await fetch(`${siteUrl}/sitemap.xml`)).text();
    const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (match) => new URL(match[1] ?? "").pathname,
    );
    expect(locations.sort()).toEqual(pages.map((page) => page.path).sort());
    const robots = await (await fetch(`${siteUrl}/robots.txt`)).text();
    expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
  });
});

describe.each([null, ...LANGUAGE_CODES])("every route in Chromium, prefix %s", (prefix) => {
  const chosen = pages.filter((page) =>
    prefix === null ? page.path === page.route : page.path.split("/")[1] === prefix,
  );

  // One load of each page checks all it must show once hydrated (this file and, before, hydration.test.ts).
  it(
    `hydrates each page in place in its language, with no console error and no missing string${prefix && INDIC_FONTS[prefix] ? ", in the site's font" : ""}`,
    async () => {
      expect(chosen.length).toBeGreaterThan(10);
      const context = await browser.newContext({ locale: "en-US" });
      await context.addInitScript(RECORD_PARSED);
      const fontFiles: string[] = [];
      context.on("request", (request) => {
        if (request.url().endsWith(".woff2")) fontFiles.push(new URL(request.url()).pathname);
      });
      /** Indic scripts written on the pages visited, outside the language selector's names. */
      const shown = new Set<string>();
      try {
        const errorsOf = new Map<Page, string[]>();
        const openTab = async () => {
          const page = await context.newPage();
          errorsOf.set(page, recordErrors(page));
          return page;
        };
        await inTabs(openTab, chosen, TABS, async (page, sitePage) => {
          const errors = errorsOf.get(page) ?? [];
          await hydrate(page, sitePage.path);
          // Let a late recoverable error (reported after the commit) arrive.
          await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));
          expect(errors, sitePage.path).toEqual([]);
          for (const script of await page.evaluate(scriptsShown)) shown.add(script);
          const heading = (await page.locator("h1").first().innerText()).trim();
          expect(heading.length, sitePage.path).toBeGreaterThan(0);
          const state = await page.evaluate(hydratedState);
          // The prerendered heading and main area are the ones on screen: the app hydrated them instead of drawing anew.
          expect(state.keptHeading, sitePage.path).toBe(true);
          expect(state.keptMain, sitePage.path).toBe(true);
          expect(state.fiber, sitePage.path).toBe(true);
          expect(state.lang, sitePage.path).toBe(sitePage.language);
          expect(state.text.match(MISSING_KEY)?.[0], sitePage.path).toBeUndefined();

          const family = INDIC_FONTS[sitePage.language];
          if (family) {
            const drawn = await page.evaluate(async (name) => {
              await document.fonts.ready;
              const heading = document.querySelector("h1")?.textContent ?? "";
              const faces: FontFace[] = [];
              document.fonts.forEach((face) => {
                faces.push(face);
              });
              const own = faces.filter((face) => face.family.replace(/"/g, "") === name);
              return {
                loaded: own.filter((face) => face.status === "loaded").length,
                covered: document.fonts.check(`16px "${name}"`, heading),
              };
            }, family);
            expect(drawn.loaded, `${sitePage.path} ${family}`).toBeGreaterThan(0);
            expect(drawn.covered, sitePage.path).toBe(true);
          }
        });
        // The page's own script font is the self-hosted file, and an Indic face is fetched only where
        // a page writes in that script: the language selector's names come from their few-KB subsets
        // (scripts/language-name-fonts.ts), so Latin pages fetch none for them.
        const fetched = new Set(
          fontFiles.flatMap((file) => /noto-sans-(devanagari|telugu|tamil)/.exec(file)?.[1] ?? []),
        );
        const expected = prefix ? INDIC_FONTS[prefix]?.split(" ").at(-1)?.toLowerCase() : undefined;
        if (expected) expect([...fetched]).toContain(expected);
        for (const script of fetched) expect([expected, ...shown], script).toContain(script);
        expect(fontFiles.some((file) => file.includes("language-names-"))).toBe(true);
      } finally {
        await context.close();
      }
    },
    WALK_TIMEOUT,
  );
});

/** The `<link rel="preload">` and `<link rel="modulepreload">` addresses of a served page. */
function preloadsOf(html: string): string[] {
  return [...html.matchAll(/<link rel="(?:module)?preload"[^>]* href="([^"]+)"/g)].flatMap((match) =>
    match[1] ? [match[1]] : [],
  );
}

describe("files a page announces (scripts/page-preloads.ts)", () => {
  const toolPages = pages.filter((page) => usable.has(page.route) && page.path === page.route);

  it("name its locale strings and, on a tool page, its screen's chunks, all served", async () => {
    const base = preloadsOf(await (await fetch(`${siteUrl}/about`)).text());
    for (const sitePage of [pages[0], ...toolPages].filter((page) => page !== undefined)) {
      const announced = preloadsOf(await (await fetch(`${siteUrl}${sitePage.path}`)).text());
      expect(
        announced.some((href) => href.endsWith(".json")),
        sitePage.path,
      ).toBe(true);
      for (const href of announced)
        expect((await fetch(`${siteUrl}${href}`)).status, `${sitePage.path} ${href}`).toBe(200);
      const screenChunks = announced.filter((href) => href.endsWith(".js") && !base.includes(href));
      if (usable.has(sitePage.route)) expect(screenChunks.length, sitePage.path).toBeGreaterThan(0);
    }
  });

  it("name the web font of the page's own script and no other (none on a Latin page)", async () => {
    const cases: [string, string[]][] = [
      ["/hi", ["devanagari"]],
      ["/te/tools/merge-pdf", ["telugu"]],
      ["/ta/about", ["tamil"]],
      ["/", []],
      ["/de/tools/merge-pdf", []],
    ];
    for (const [path, scripts] of cases) {
      const fonts = preloadsOf(await (await fetch(`${siteUrl}${path}`)).text()).flatMap(
        (href) => /\/noto-sans-(\w+)-/.exec(href)?.[1] ?? [],
      );
      expect(fonts, path).toEqual(scripts);
    }
  });

  it("are each fetched once: the app's own requests reuse them", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    try {
      const visits: [string, LanguageCode][] = [
        [toolPages[0]?.path ?? "/tools", "en"],
        ["/de", "de"],
        ["/te", "te"],
      ];
      for (const [path, language] of visits) {
        const announced = preloadsOf(await (await fetch(`${siteUrl}${path}`)).text());
        const requested: string[] = [];
        context.on("request", (request) => requested.push(new URL(request.url()).pathname));
        const { page } = await visit(context, { path, route: path, language });
        await page.waitForLoadState("networkidle");
        for (const href of announced)
          expect(requested.filter((url) => url === href).length, `${path} ${href}`).toBe(1);
        // Characters the scripts share (ZWNJ) are drawn from the page's own face (base.css, --font-indic):
        // a Telugu page fetched the Devanagari face for them.
        if (language === "te")
          expect(requested.filter((url) => url.includes("noto-sans-devanagari"))).toEqual([]);
        context.removeAllListeners("request");
        await page.close();
      }
    } finally {
      await context.close();
    }
  });
});

/**
 * The files a prerendered page will fetch, announced so that the browser loads them in parallel
 * instead of one round trip after another. The web fonts the page's text will make the browser fetch
 * (the Indic faces of fonts.css, chosen by unicode-range) are preloaded from the <head>, so the text is
 * drawn once in its face instead of first in a fallback. What the scripts will fetch (the locale files
 * of the namespaces the page showed, fetched by i18next before hydrating; the app the entry imports
 * after the first paint: React, the router, the shell; and for a tool page its screen's chunk with
 * every chunk it imports) is listed apart, for the entry to announce once the page is painted
 * (client/src/lib/announce-after-paint.ts).
 * Measured with Lighthouse's mobile profile on /tools/merge-pdf (three runs each): performance 92, 94,
 * 96 without these preloads, 94, 96, 97 with them (then all in the <head>, with the page split into
 * tasks, app/page-ready.tsx).
 * Reads the client build's lists (vite.config.ts, moduleList).
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { localeSource } from "../client/src/lib/i18n/locale-files.ts";

const ROOT = resolve(import.meta.dirname, "..");
const CLIENT_ROOT = join(ROOT, "client");

interface Chunk {
  file: string;
  entry: boolean;
  facade: string | null;
  imports: string[];
  dynamicImports: string[];
}
interface Asset {
  file: string;
  sources: string[];
}

export interface PagePreloads {
  /**
   * The `<link>` tags for one page, given its markup, the namespaces it rendered and the tool it
   * shows: `head`, the fonts, for its <head>; `afterPaint`, what its scripts will fetch, for the entry
   * to announce after the first paint.
   */
  linksFor(page: { language: string; html: string; namespaces: readonly string[]; toolScreen?: string }): {
    head: string;
    afterPaint: string;
  };
}

/** A web font of the inlined stylesheet: its family, its file and the code points it is fetched for. */
interface WebFont {
  readonly family: string;
  readonly file: string;
  readonly ranges: readonly (readonly [number, number])[];
}

const unquoted = (name: string) => name.trim().replace(/^["']|["']$/g, "");

/** The `@font-face` rules of `css` with a woff2 source and a unicode-range (`U+900-97F, U+20B9, U+4??`). */
function fontFaces(css: string): WebFont[] {
  return [...css.matchAll(/@font-face\s*\{([^}]*)\}/g)].flatMap(([, body = ""]) => {
    const family = /font-family:([^;}]+)/.exec(body)?.[1];
    const file = /url\(["']?\/([^"')]+\.woff2)["']?\)/.exec(body)?.[1];
    const range = /unicode-range:([^;}]+)/.exec(body)?.[1];
    if (family === undefined || file === undefined || range === undefined) return [];
    const ranges = range.split(",").map((part) => {
      const [from = "", to] = part.trim().replace(/^U\+/i, "").split("-");
      const low = Number.parseInt(from.replaceAll("?", "0"), 16);
      const high = Number.parseInt((to ?? from).replaceAll("?", "F"), 16);
      return [low, high] as const;
    });
    return [{ family: unquoted(family), file, ranges }];
  });
}

/**
 * The font stacks of `css` on a page in `language`: the values of its `--font-*` custom properties
 * (a rule for `:lang(<language>)` overriding the page-wide one, rules for other languages left out),
 * with `var()` references expanded, as lists of family names.
 */
function fontStacks(css: string, language: string): string[][] {
  const properties = new Map<string, string>();
  const overrides = new Map<string, string>();
  for (const [, selector = "", body = ""] of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const lang = /:lang\(([\w-]+)\)/.exec(selector)?.[1];
    if (lang !== undefined && lang !== language) continue;
    for (const [, name = "", value = ""] of body.matchAll(/(--font-[\w-]+):([^;}]+)/g)) {
      if (lang !== undefined) overrides.set(name, value);
      else if (!properties.has(name)) properties.set(name, value);
    }
  }
  for (const [name, value] of overrides) properties.set(name, value);
  const expand = (value: string, depth = 0): string[] =>
    value.split(",").flatMap((part) => {
      const reference = /^\s*var\((--[\w-]+)\)\s*$/.exec(part)?.[1];
      if (reference === undefined) return [unquoted(part)];
      return depth > 4 ? [] : expand(properties.get(reference) ?? "", depth + 1);
    });
  return [...properties.values()].map((value) => expand(value));
}

/**
 * The faces the browser fetches to draw `text`: for each character outside ASCII, in each stack,
 * the first family with a face whose unicode-range holds it (the families without a face are the
 * system's, taken as lacking these scripts, as on a machine without Indic fonts).
 */
function facesFor(faces: readonly WebFont[], stacks: readonly string[][], text: string): string[] {
  const codePoints = new Set<number>();
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0x7f) codePoints.add(code);
  }
  const files = new Set<string>();
  for (const stack of stacks) {
    for (const code of codePoints) {
      for (const family of stack) {
        const face = faces.find(
          (candidate) =>
            candidate.family === family &&
            candidate.ranges.some(([low, high]) => code >= low && code <= high),
        );
        if (face !== undefined) {
          files.add(face.file);
          break;
        }
      }
    }
  }
  return [...files];
}

export function pagePreloads(template: string, dist = join(ROOT, "dist")): PagePreloads {
  const chunks = JSON.parse(readFileSync(join(dist, "client-modules.json"), "utf8")) as Chunk[];
  const assets = JSON.parse(readFileSync(join(dist, "client-assets.json"), "utf8")) as Asset[];
  const byFile = new Map(chunks.map((chunk) => [chunk.file, chunk]));
  const assetOf = new Map(
    assets.flatMap((asset) =>
      asset.sources.map((source) => [relative(ROOT, resolve(CLIENT_ROOT, source)), asset.file] as const),
    ),
  );
  /** A chunk and the chunks it imports, depth first. */
  function closure(file: string, scripts: Set<string>): void {
    if (scripts.has(file)) return;
    scripts.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) closure(imported, scripts);
  }

  // The entry and its imports (preloaded by the template) are not announced. The site has one
  // stylesheet, inlined in every page (vite.config.ts, cssCodeSplit).
  const announced = new Set<string>();
  const entries = chunks.filter((chunk) => chunk.entry);
  for (const entry of entries) closure(entry.file, announced);
  for (const [, href] of template.matchAll(/(?:href|src)="\/([^"]+)"/g)) if (href) announced.add(href);
  // The app the entry imports once the page is painted (client/src/main.tsx): on every page, so
  // that its files are requested together, not one level of imports after another.
  const app = new Set<string>();
  for (const entry of entries) for (const file of entry.dynamicImports) closure(file, app);
  const appLinks = [...app]
    .filter((file) => !announced.has(file))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`);
  for (const file of app) announced.add(file);

  const faces = fontFaces(template);
  const stacksFor = (language: string) =>
    fontStacks(template, language).filter((stack) =>
      stack.some((family) => faces.some((face) => face.family === family)),
    );
  return {
    linksFor({ language, html, namespaces, toolScreen }) {
      // Fonts are fetched in CORS mode, so the preload must be too, or it is not reused.
      const fonts = facesFor(faces, stacksFor(language), html).map(
        (file) => `<link rel="preload" as="font" type="font/woff2" crossorigin href="/${file}">`,
      );
      const links: string[] = [];
      for (const namespace of namespaces) {
        const file = assetOf.get(localeSource(language, namespace));
        if (!file) throw new Error(`No built locale file for ${namespace} in ${language}`);
        links.push(`<link rel="preload" as="fetch" crossorigin href="/${file}">`);
      }
      links.push(...appLinks);
      if (toolScreen) {
        const facade = join(ROOT, toolScreen);
        const screen = chunks.find((chunk) => chunk.facade === facade);
        if (!screen) throw new Error(`No chunk for ${toolScreen}`);
        const scripts = new Set<string>();
        closure(screen.file, scripts);
        for (const file of scripts)
          if (!announced.has(file)) links.push(`<link rel="modulepreload" crossorigin href="/${file}">`);
      }
      return { head: fonts.join(""), afterPaint: links.join("") };
    },
  };
}

/**
 * The files a prerendered page will fetch once its scripts run, announced in its <head> so that the
 * browser loads them in parallel with the entry script instead of one round trip after another:
 * the locale files of the namespaces the page showed (fetched by i18next before hydrating), and for
 * a tool page its screen's chunk with every chunk and stylesheet it imports. Measured with
 * Lighthouse's mobile profile on /tools/merge-pdf (three runs each): performance 92, 94, 96 before, 94, 96, 97
 * after (with the page split into tasks, app/page-ready.tsx).
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
  css: string[];
}
interface Asset {
  file: string;
  sources: string[];
}

export interface PagePreloads {
  /** The `<link>` tags for one page, given the namespaces it rendered and the tool it shows. */
  linksFor(page: { language: string; namespaces: readonly string[]; toolScreen?: string }): string;
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
  /** A chunk and the chunks it imports, depth first, with their stylesheets. */
  function closure(file: string, scripts: Set<string>, styles: Set<string>): void {
    if (scripts.has(file)) return;
    scripts.add(file);
    const chunk = byFile.get(file);
    for (const css of chunk?.css ?? []) styles.add(css);
    for (const imported of chunk?.imports ?? []) closure(imported, scripts, styles);
  }

  // The entry, its imports (preloaded by the template) and its stylesheet (inlined) are not announced.
  const announced = new Set<string>();
  for (const entry of chunks.filter((chunk) => chunk.entry)) closure(entry.file, announced, announced);
  for (const [, href] of template.matchAll(/(?:href|src)="\/([^"]+)"/g)) if (href) announced.add(href);

  return {
    linksFor({ language, namespaces, toolScreen }) {
      const links: string[] = [];
      for (const namespace of namespaces) {
        const file = assetOf.get(localeSource(language, namespace));
        if (!file) throw new Error(`No built locale file for ${namespace} in ${language}`);
        links.push(`<link rel="preload" as="fetch" crossorigin href="/${file}">`);
      }
      if (toolScreen) {
        const facade = join(ROOT, toolScreen);
        const screen = chunks.find((chunk) => chunk.facade === facade);
        if (!screen) throw new Error(`No chunk for ${toolScreen}`);
        const scripts = new Set<string>();
        const styles = new Set<string>();
        closure(screen.file, scripts, styles);
        // Crossorigin as Vite's loader gives the stylesheet links it adds, or the preload is not reused.
        for (const file of styles)
          if (!announced.has(file)) links.push(`<link rel="preload" as="style" crossorigin href="/${file}">`);
        for (const file of scripts)
          if (!announced.has(file)) links.push(`<link rel="modulepreload" crossorigin href="/${file}">`);
      }
      return links.join("");
    },
  };
}

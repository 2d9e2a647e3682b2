/**
 * axe-core in Chromium on every route in English, Hindi and Tamil (and on the merge screen with
 * files in its list): no serious or critical violation may remain.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { TOOL_IDS } from "../../contract/index.ts";
import { textPdf } from "../container/fixtures.ts";
import { chromiumPages, inTabs } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The first post's address when the repository holds blog content (content/blog). */
function blogPostRoutes(): string[] {
  const metadata = resolve(import.meta.dirname, "../../content/blog/metadata.json");
  if (!existsSync(metadata)) return [];
  const posts = (JSON.parse(readFileSync(metadata, "utf8")) as { posts?: { slug?: string }[] }).posts ?? [];
  return posts[0]?.slug ? [`/blog/${posts[0].slug}`] : [];
}

const ROUTES = [
  "/",
  "/about",
  "/tools",
  "/tools/image-tools",
  ...TOOL_IDS.map((id) => `/tools/${id}`),
  "/blog",
  "/blog/tag/tutorials",
  ...blogPostRoutes(),
  "/contact",
  "/privacy-policy",
  "/terms-of-service",
];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The serious and critical violations axe finds on the page as it is now. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the site's CSP (script-src 'self') does not apply.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }
    ).axe;
    return (await axe.run(document)).violations;
  });
  return (violations as Violation[])
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .slice(0, 3)
          .map((node) => JSON.stringify(node.target))
          .join(", ")}`,
    );
}

/**
 * Waits until no CSS transition runs (colours measured mid-change would be neither theme's); with
 * other tabs drawing at once, a theme's transitions can take longer than expect.poll's default second.
 */
async function settled(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            document.getAnimations().filter((a) => a instanceof CSSTransition && a.playState === "running")
              .length,
        ),
      { timeout: 10_000 },
    )
    .toBe(0);
}

/** Opens a route and waits until its page (lazy screen, language strings) is drawn. */
async function open(page: Page, path: string, lang: string) {
  await page.goto(`${siteUrl}/${lang}${path === "/" ? "" : path}`);
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
  await page.locator("h1").first().waitFor({ state: "visible", timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  await settled(page);
}

/** Routes checked at once, each in a tab of its own (axe waits for the network to go quiet on each). */
const TABS = 3;

describe("accessibility (axe-core)", () => {
  for (const lang of ["en", "hi", "ta"]) {
    it(`finds no serious or critical violation on any route in ${lang}`, async () => {
      const tabs: Page[] = [];
      const openTab = async () => {
        const page = await newPage();
        tabs.push(page);
        return page;
      };
      const found = new Map<string, string[]>();
      try {
        await inTabs(openTab, ROUTES, TABS, async (page, route) => {
          const violations: string[] = [];
          await open(page, route, lang);
          for (const violation of await seriousViolations(page)) violations.push(`${route}: ${violation}`);
          // The same page in the dark theme, whose colours come from the other half of each token.
          await page.emulateMedia({ colorScheme: "dark" });
          await settled(page);
          for (const violation of await seriousViolations(page))
            violations.push(`${route} (dark): ${violation}`);
          await page.emulateMedia({ colorScheme: "light" });
          found.set(route, violations);
        });
      } finally {
        await Promise.all(tabs.map((page) => page.context().close()));
      }
      expect(found.size).toBe(ROUTES.length);
      expect(ROUTES.flatMap((route) => found.get(route) ?? [])).toEqual([]);
    });
  }

  it("finds none on the merge screen once files are in the list, and keeps the focus off <body>", async () => {
    const page = await newPage();
    await open(page, "/tools/merge-pdf", "en");
    await page.getByTestId("file-input").setInputFiles([
      {
        name: "first-quarterly-report.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from(textPdf("one", 1)),
      },
      { name: "second.pdf", mimeType: "application/pdf", buffer: Buffer.from(textPdf("two", 2)) },
    ]);
    await expect.poll(() => page.getByTestId("file-row").count(), { timeout: 30_000 }).toBe(2);
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).not.toBe("BODY");
    expect(await page.getByTestId("live-announcer").textContent()).not.toBe("");
    await page.waitForLoadState("networkidle");
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});

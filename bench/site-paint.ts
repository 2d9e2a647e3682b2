/**
 * First contentful paint of the home page and a tool page against a plain static HTML page (a
 * heading and a paragraph, no CSS, no script) served the same way: the built site under
 * `wrangler dev` (bench/built-site.ts), Debian's Chromium (tests/e2e/browser.ts), each load in a fresh
 * context (cold cache). Prints the median of several loads, the ratio to the plain page (target
 * ≤ 1.5×) and, for the home and tool pages, the ratio to the same page with its scripts refused
 * (issue 25's target ≤ 1.15×: React and the app's scripts must not hold the paint back). Run with `node bench/site-paint.ts` after `vite build` (it builds when dist/ is missing).
 */
import { launchChromium } from "../tests/e2e/browser.ts";
import { PLAIN_PAGE_PATH, startBuiltSite } from "./built-site.ts";

const RUNS = Number(process.env.RUNS ?? 9);
const PAGES = [
  { name: "plain static HTML", path: PLAIN_PAGE_PATH },
  { name: "home /", path: "/" },
  { name: "tool /tools/merge-pdf", path: `/tools/${"merge"}-pdf` },
  { name: "home in Hindi /hi", path: "/hi" },
  // The same pages with their scripts refused: what the prerendered HTML and CSS alone cost.
  { name: "home / without scripts", path: "/", noScripts: true },
  { name: "tool /tools/merge-pdf without scripts", path: `/tools/${"merge"}-pdf`, noScripts: true },
];
const SCRIPTS_TARGET = 1.15;

const stack = await startBuiltSite();
const browser = await launchChromium();

async function firstContentfulPaint(path: string, noScripts = false): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (noScripts) await page.route(/\.js$/, (route) => route.abort());
  await page.goto(`${stack.url}${path}`, { waitUntil: "load" });
  const fcp = await page.evaluate(
    () =>
      new Promise<number>((done) => {
        const found = performance.getEntriesByName("first-contentful-paint")[0];
        if (found) return done(found.startTime);
        new PerformanceObserver((list) => {
          const entry = list.getEntriesByName("first-contentful-paint")[0];
          if (entry) done(entry.startTime);
        }).observe({ type: "paint", buffered: true });
      }),
  );
  await context.close();
  return fcp;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

try {
  // One warm-up load each (wrangler dev compiles the Worker on the first request).
  for (const page of PAGES) await firstContentfulPaint(page.path, page.noScripts);
  const results = new Map<string, number[]>(PAGES.map((page) => [page.name, []]));
  // Interleaved, so machine load affects every page alike.
  for (let run = 0; run < RUNS; run++)
    for (const page of PAGES)
      results.get(page.name)?.push(await firstContentfulPaint(page.path, page.noScripts));
  const plain = median(results.get(PAGES[0]?.name ?? "") ?? []);
  console.log(`\nFirst contentful paint, median of ${RUNS} cold loads (Chromium ${browser.version()})\n`);
  console.log(
    `| page | FCP ms | min–max ms | ratio to plain | ratio to itself without scripts (≤ ${SCRIPTS_TARGET}×) |`,
  );
  console.log("|---|---|---|---|---|");
  for (const page of PAGES) {
    const values = results.get(page.name) ?? [];
    const value = median(values);
    const bare = PAGES.find((other) => other.noScripts && other.path === page.path && !page.noScripts);
    const ratio = bare ? value / median(results.get(bare.name) ?? []) : Number.NaN;
    const verdict = Number.isNaN(ratio)
      ? ""
      : `${ratio.toFixed(2)}× ${ratio <= SCRIPTS_TARGET ? "(met)" : "(missed)"}`;
    console.log(
      `| ${page.name} | ${value.toFixed(0)} | ${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} | ${(value / plain).toFixed(2)}× | ${verdict} |`,
    );
  }
} finally {
  await browser.close();
  await stack.stop();
}

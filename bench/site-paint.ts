/**
 * First contentful paint of the home page and a tool page against a plain static HTML page (a
 * heading and a paragraph, no CSS, no script) served the same way: the built site under
 * `wrangler dev` (bench/built-site.ts), Debian's Chromium (tests/e2e/browser.ts), each load in a fresh
 * context (cold cache). Prints the median of RUNS loads, the ratio to the plain page (target ≤ 1.5×)
 * and, for the home and tool pages, the ratio to the same page with its scripts removed (issue 25's
 * target ≤ 1.15×: React and the app's scripts must not hold the paint back).
 *
 * The two variants of a page are the same answer of the same stack, each through a local proxy
 * (bench/page-variants.ts): one passes the HTML on as it is, the other removes its scripts and the
 * links only they use; headers, caching and delivery are the same. Each run loads every page once,
 * in a new order, the two variants of a page one right after the other (which first, at random), so
 * a change in the machine's load falls on both alike; the median of the per-run ratios is printed
 * beside the ratio of the medians, with the load average over the runs. The machine is shared: read
 * the ratios, not the milliseconds.
 * Run with `node bench/site-paint.ts` after `vite build` (it builds when dist/ is missing).
 */
import { availableParallelism, loadavg } from "node:os";
import { launchChromium } from "../tests/e2e/browser.ts";
import { PLAIN_PAGE_PATH, startBuiltSite } from "./built-site.ts";
import { startPageProxy, withoutScripts } from "./page-variants.ts";

const RUNS = Number(process.env.RUNS ?? 15);
const SCRIPTS_TARGET = 1.15;
const PLAIN_TARGET = 1.5;

interface Page {
  readonly name: string;
  readonly path: string;
  /** Also loaded with its scripts removed, right beside the page as it is. */
  readonly paired?: boolean;
}
const PAGES: readonly Page[] = [
  { name: "plain static HTML", path: PLAIN_PAGE_PATH },
  { name: "home /", path: "/", paired: true },
  { name: "tool /tools/merge-pdf", path: `/tools/${"merge"}-pdf`, paired: true },
  { name: "home in Hindi /hi", path: "/hi" },
];

// The browser first: if it cannot start, no stack is left running.
const browser = await launchChromium();
const stack = await startBuiltSite();
const asServed = await startPageProxy(stack.url);
const scriptless = await startPageProxy(stack.url, withoutScripts);

async function firstContentfulPaint(origin: string, path: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}${path}`, { waitUntil: "load" });
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

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const shuffled = <T>(items: readonly T[]): T[] => {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
};

try {
  // One warm-up load of each variant (wrangler dev compiles the Worker on the first request).
  for (const page of PAGES) {
    await firstContentfulPaint(asServed.url, page.path);
    if (page.paired) await firstContentfulPaint(scriptless.url, page.path);
  }
  const withScripts = new Map<string, number[]>(PAGES.map((page) => [page.name, []]));
  const bare = new Map<string, number[]>(PAGES.map((page) => [page.name, []]));
  const pairRatios = new Map<string, number[]>(PAGES.map((page) => [page.name, []]));
  const loads: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    loads.push(loadavg()[0] ?? Number.NaN);
    for (const page of shuffled(PAGES)) {
      if (!page.paired) {
        withScripts.get(page.name)?.push(await firstContentfulPaint(asServed.url, page.path));
        continue;
      }
      const scriptsFirst = Math.random() < 0.5;
      const first = await firstContentfulPaint(scriptsFirst ? asServed.url : scriptless.url, page.path);
      const second = await firstContentfulPaint(scriptsFirst ? scriptless.url : asServed.url, page.path);
      const [scripted, scriptFree] = scriptsFirst ? [first, second] : [second, first];
      withScripts.get(page.name)?.push(scripted);
      bare.get(page.name)?.push(scriptFree);
      pairRatios.get(page.name)?.push(scripted / scriptFree);
    }
  }
  loads.push(loadavg()[0] ?? Number.NaN);
  const plain = median(withScripts.get(PAGES[0]?.name ?? "") ?? []);
  const range = (values: readonly number[]) =>
    `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  console.log(`\nFirst contentful paint, median of ${RUNS} cold loads (Chromium ${browser.version()})`);
  console.log(
    `Load average (1 min) over the runs: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}, median ${median(loads).toFixed(1)} (${availableParallelism()} cores)\n`,
  );
  console.log(
    `| page | FCP ms | min–max ms | ratio to plain (≤ ${PLAIN_TARGET}×) | without scripts: FCP ms | min–max ms | ratio to itself without scripts (≤ ${SCRIPTS_TARGET}×) | median of the ${RUNS} pairs' ratios |`,
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const page of PAGES) {
    const values = withScripts.get(page.name) ?? [];
    const value = median(values);
    const cells = [page.name, value.toFixed(0), range(values), `${(value / plain).toFixed(2)}×`];
    if (page.paired) {
      const scriptFree = bare.get(page.name) ?? [];
      const ratio = value / median(scriptFree);
      cells.push(
        median(scriptFree).toFixed(0),
        range(scriptFree),
        `${ratio.toFixed(2)}× ${ratio <= SCRIPTS_TARGET ? "(met)" : "(missed)"}`,
        `${median(pairRatios.get(page.name) ?? []).toFixed(2)}×`,
      );
    } else cells.push("", "", "", "");
    console.log(`| ${cells.join(" | ")} |`);
  }
} finally {
  await browser.close();
  await asServed.close();
  await scriptless.close();
  await stack.stop();
}

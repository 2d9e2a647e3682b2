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
 * With BASELINE_CLIENT=<another build's dist/client> (a copy kept from before a change), a second
 * stack serves that build and every run loads its pages too, interleaved with this build's in the
 * same shuffled order, so that two builds are compared in one period of the machine's load.
 * Run with `node bench/site-paint.ts` after `vite build` (it builds when dist/ is missing).
 */
import { availableParallelism, loadavg } from "node:os";
import { launchChromium } from "../tests/e2e/browser.ts";
import { PLAIN_PAGE_PATH, startBuiltSite } from "./built-site.ts";
import { type PageProxy, startPageProxy, withoutScripts } from "./page-variants.ts";

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

interface Build {
  readonly label: string;
  readonly stack: { stop(): Promise<void> };
  /** The page as served, and the same page with its scripts removed. */
  readonly asServed: PageProxy;
  readonly scriptless: PageProxy;
}

async function serve(label: string, clientDir?: string): Promise<Build> {
  const stack = await startBuiltSite(clientDir);
  return {
    label,
    stack,
    asServed: await startPageProxy(stack.url),
    scriptless: await startPageProxy(stack.url, withoutScripts),
  };
}

// The browser first: if it cannot start, no stack is left running.
const browser = await launchChromium();
const builds: Build[] = [await serve("this build")];
const baseline = process.env.BASELINE_CLIENT;
if (baseline) builds.push(await serve(`baseline ${baseline}`, baseline));

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
  for (const build of builds) {
    for (const page of PAGES) {
      await firstContentfulPaint(build.asServed.url, page.path);
      if (page.paired) await firstContentfulPaint(build.scriptless.url, page.path);
    }
  }
  const key = (build: Build, page: Page) => `${build.label}\n${page.name}`;
  const withScripts = new Map<string, number[]>();
  const bare = new Map<string, number[]>();
  const pairRatios = new Map<string, number[]>();
  const push = (map: Map<string, number[]>, name: string, value: number) =>
    map.set(name, [...(map.get(name) ?? []), value]);
  const loads: number[] = [];
  const visits = builds.flatMap((build) => PAGES.map((page) => ({ build, page })));
  for (let run = 0; run < RUNS; run++) {
    loads.push(loadavg()[0] ?? Number.NaN);
    for (const { build, page } of shuffled(visits)) {
      const name = key(build, page);
      if (!page.paired) {
        push(withScripts, name, await firstContentfulPaint(build.asServed.url, page.path));
        continue;
      }
      const scriptsFirst = Math.random() < 0.5;
      const [firstUrl, secondUrl] = scriptsFirst
        ? [build.asServed.url, build.scriptless.url]
        : [build.scriptless.url, build.asServed.url];
      const first = await firstContentfulPaint(firstUrl, page.path);
      const second = await firstContentfulPaint(secondUrl, page.path);
      const [scripted, scriptFree] = scriptsFirst ? [first, second] : [second, first];
      push(withScripts, name, scripted);
      push(bare, name, scriptFree);
      push(pairRatios, name, scripted / scriptFree);
    }
  }
  loads.push(loadavg()[0] ?? Number.NaN);
  const range = (values: readonly number[]) =>
    `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  console.log(`\nFirst contentful paint, median of ${RUNS} cold loads (Chromium ${browser.version()})`);
  console.log(
    `Load average (1 min) over the runs: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}, median ${median(loads).toFixed(1)} (${availableParallelism()} cores)`,
  );
  for (const build of builds) {
    const plain = median(withScripts.get(key(build, PAGES[0] as Page)) ?? []);
    if (builds.length > 1) console.log(`\n${build.label}`);
    console.log(
      `\n| page | FCP ms | min–max ms | ratio to plain (≤ ${PLAIN_TARGET}×) | without scripts: FCP ms | min–max ms | ratio to itself without scripts (≤ ${SCRIPTS_TARGET}×) | median of the ${RUNS} pairs' ratios |`,
    );
    console.log("|---|---|---|---|---|---|---|---|");
    for (const page of PAGES) {
      const name = key(build, page);
      const values = withScripts.get(name) ?? [];
      const value = median(values);
      const cells = [page.name, value.toFixed(0), range(values), `${(value / plain).toFixed(2)}×`];
      if (page.paired) {
        const scriptFree = bare.get(name) ?? [];
        const ratio = value / median(scriptFree);
        cells.push(
          median(scriptFree).toFixed(0),
          range(scriptFree),
          `${ratio.toFixed(2)}× ${ratio <= SCRIPTS_TARGET ? "(met)" : "(missed)"}`,
          `${median(pairRatios.get(name) ?? []).toFixed(2)}×`,
        );
      } else cells.push("", "", "", "");
      console.log(`| ${cells.join(" | ")} |`);
    }
  }
} finally {
  await browser.close();
  for (const build of builds) {
    await build.asServed.close();
    await build.scriptless.close();
    await build.stack.stop();
  }
}

/**
 * Lighthouse performance (its default mobile profile: a mid-range phone, simulated slow 4G and 4×
 * CPU slowdown) of the home page, a tool page and the Hindi home page, on the built site under `wrangler dev`
 * (scripts/stack.ts) with Debian's Chromium. Issue 10's target: performance score ≥ 95 for both.
 * Prints the median score of RUNS runs per page with the metrics it is made of, time to interactive
 * (issue 25 asks for it beside the score), and the first
 * contentful paint as a ratio to the plain static page of bench/site-paint.ts under the same profile.
 * Lighthouse is not a dependency of the project: the first run installs it with npm into
 * node_modules/.cache (git-ignored), as the other benches install their reference tools.
 * Options (environment): RUNS; LIGHTHOUSE_PAGES=/hi,/ (only those, with the plain page);
 * LIGHTHOUSE_REPORTS=<folder> (each run's full JSON report: its long-tasks, bootup-time and
 * mainthread-work-breakdown audits name the long tasks); BASELINE_CLIENT=<another build's dist/client>
 * (that build too, served by a second stack, its runs interleaved with this build's);
 * LIGHTHOUSE_SCRIPTLESS=1 (each page also with its scripts removed, the floor the scripts are
 * measured against; both variants then go through bench/page-variants.ts's proxy).
 * Run with `node bench/lighthouse.ts` after `vite build` (it builds when dist/ is missing).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../scripts/stack.ts";
import { CHROMIUM } from "../tests/e2e/browser.ts";
import { PLAIN_PAGE_PATH, startBuiltSite } from "./built-site.ts";
import { startPageProxy, withoutScripts } from "./page-variants.ts";

const RUNS = Number(process.env.RUNS ?? 3);
/** Where to write each run's full JSON report (its long-tasks, bootup-time… audits), when set. */
const REPORTS = process.env.LIGHTHOUSE_REPORTS;
/** Only the pages whose path is listed (comma-separated), when set; the plain page is always run. */
const ONLY = process.env.LIGHTHOUSE_PAGES?.split(",");
/** Also each page with its scripts removed (bench/page-variants.ts), both variants through a proxy. */
const SCRIPTLESS = process.env.LIGHTHOUSE_SCRIPTLESS === "1";
const LIGHTHOUSE_VERSION = "13.5.0";
const PAGES = [
  // The same plain page as bench/site-paint.ts: FCP is also given as a ratio to it.
  { name: "plain static HTML", path: PLAIN_PAGE_PATH },
  { name: "home /", path: "/" },
  { name: "tool /tools/merge-pdf", path: `/tools/${"merge"}-pdf` },
  { name: "home in Hindi /hi", path: "/hi" },
];
const METRICS = [
  ["first-contentful-paint", "FCP"],
  ["largest-contentful-paint", "LCP"],
  ["total-blocking-time", "TBT"],
  ["speed-index", "SI"],
  ["cumulative-layout-shift", "CLS"],
  // Time to interactive: no longer part of the score, still measured (printed beside it, issue 25).
  ["interactive", "TTI"],
] as const;

interface Audit {
  readonly numericValue?: number;
  readonly details?: { readonly items?: readonly Readonly<Record<string, number>>[] };
}
interface LighthouseResult {
  readonly lhr: {
    readonly runtimeError?: { readonly message: string };
    readonly categories: { readonly performance: { readonly score: number | null } };
    readonly audits: Readonly<Record<string, Audit>>;
  };
}
type Lighthouse = (
  url: string,
  flags: { port: number; onlyCategories: string[]; logLevel: string; output: string },
) => Promise<LighthouseResult | undefined>;
interface ChromeLauncher {
  launch(options: { chromePath: string; chromeFlags: string[] }): Promise<{
    port: number;
    kill(): void;
  }>;
}

/** Lighthouse and its chrome-launcher, installed on first use into node_modules/.cache. */
async function loadLighthouse(): Promise<{ lighthouse: Lighthouse; launcher: ChromeLauncher }> {
  const prefix = join(ROOT, "node_modules/.cache", `lighthouse-${LIGHTHOUSE_VERSION}`);
  const modules = join(prefix, "node_modules");
  if (!existsSync(join(modules, "lighthouse"))) {
    console.log(`Installing lighthouse@${LIGHTHOUSE_VERSION} into ${prefix} (npm)…`);
    execFileSync(
      "npm",
      [
        "install",
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--prefix",
        prefix,
        `lighthouse@${LIGHTHOUSE_VERSION}`,
      ],
      { stdio: "inherit" },
    );
  }
  const entry = (name: string, file: string) => pathToFileURL(join(modules, name, file)).href;
  const lighthouse = (await import(entry("lighthouse", "core/index.js"))) as { default: Lighthouse };
  const launcher = (await import(entry("chrome-launcher", "dist/index.js"))) as ChromeLauncher;
  return { lighthouse: lighthouse.default, launcher };
}

interface Target {
  readonly label: string;
  readonly url: string;
}

const { lighthouse, launcher } = await loadLighthouse();
const stops: (() => Promise<void>)[] = [];
const targets: Target[] = [];
/** This build, and with BASELINE_CLIENT another build's dist/client served by a second stack. */
const builds: { label: string; clientDir?: string }[] = [{ label: "this build" }];
if (process.env.BASELINE_CLIENT) builds.push({ label: "baseline", clientDir: process.env.BASELINE_CLIENT });
for (const build of builds) {
  const stack = await startBuiltSite(build.clientDir);
  stops.push(() => stack.stop());
  if (!SCRIPTLESS) {
    targets.push({ label: build.label, url: stack.url });
    continue;
  }
  // Both variants through the same kind of proxy (bench/page-variants.ts), so they differ only in
  // the scripts: the page as served, and the same page with its scripts removed.
  for (const [label, transform] of [
    ["as served", undefined],
    ["without scripts", withoutScripts],
  ] as const) {
    const proxy = await startPageProxy(stack.url, transform);
    stops.push(() => proxy.close());
    targets.push({ label: `${build.label}, ${label} (through a proxy)`, url: proxy.url });
  }
}
const chrome = await launcher.launch({
  chromePath: CHROMIUM,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});

/** Runs of one page Lighthouse may fail to record before the benchmark gives up. */
const MAX_FAILED_RUNS = 3;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

interface Runs {
  readonly scores: number[];
  readonly values: Map<string, number[]>;
}

/** One Lighthouse run of `path` on `target`, retried when Lighthouse fails to record it. */
async function runOnce(target: Target, path: string, run: number, into: Runs): Promise<void> {
  for (let failures = 0; ; failures++) {
    const result = await lighthouse(`${target.url}${path}`, {
      port: chrome.port,
      onlyCategories: ["performance"],
      logLevel: "error",
      output: "json",
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
    const failure = result.lhr.runtimeError?.message;
    // A trace Lighthouse itself failed to record (NO_NAVSTART and the like) is run again, up to
    // MAX_FAILED_RUNS times a page; the failure is printed so the retry is visible.
    if (failure && failures < MAX_FAILED_RUNS) {
      console.error(`Lighthouse run on ${path} failed (${failure}); running it again`);
      continue;
    }
    if (failure) throw new Error(`Lighthouse failed on ${path}: ${failure}`);
    if (REPORTS) {
      const name = `${target.label}-${path}`.replace(/[^\w]+/g, "_");
      writeFileSync(join(REPORTS, `${name}-${run}.json`), JSON.stringify(result.lhr));
    }
    into.scores.push(Math.round((result.lhr.categories.performance.score ?? 0) * 100));
    const summary = result.lhr.audits.metrics?.details?.items?.[0];
    for (const [id] of METRICS)
      into.values.get(id)?.push(result.lhr.audits[id]?.numericValue ?? summary?.[id] ?? Number.NaN);
    return;
  }
}

try {
  if (REPORTS) mkdirSync(REPORTS, { recursive: true });
  const pages = PAGES.filter((page) => !ONLY || page.path === PLAIN_PAGE_PATH || ONLY.includes(page.path));
  const runs = new Map<string, Runs>();
  const runsOf = (target: Target, path: string) => {
    const key = `${target.label}\n${path}`;
    let found = runs.get(key);
    if (!found) {
      found = { scores: [], values: new Map(METRICS.map(([id]) => [id, []])) };
      runs.set(key, found);
    }
    return found;
  };
  const loads: number[] = [];
  // Run by run, every page on every target (in a new order each run), so that two builds or two
  // variants meet the same machine load.
  for (let run = 0; run < RUNS; run++) {
    loads.push(loadavg()[0] ?? Number.NaN);
    for (const page of pages)
      for (const target of [...targets].sort(() => Math.random() - 0.5))
        await runOnce(target, page.path, run, runsOf(target, page.path));
  }
  loads.push(loadavg()[0] ?? Number.NaN);
  console.log(`\nLighthouse ${LIGHTHOUSE_VERSION} performance, mobile profile, median of ${RUNS} runs`);
  console.log(
    `Load average (1 min) over the runs: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (${availableParallelism()} cores)`,
  );
  for (const target of targets) {
    if (targets.length > 1) console.log(`\n${target.label}`);
    console.log(`\n| page | score | ${METRICS.map(([, label]) => label).join(" | ")} | FCP ratio to plain |`);
    console.log(`|---|---|${METRICS.map(() => "---").join("|")}|---|`);
    const plainFcp = median(runsOf(target, PLAIN_PAGE_PATH).values.get("first-contentful-paint") ?? []);
    for (const page of pages) {
      const { scores, values } = runsOf(target, page.path);
      const cells = METRICS.map(([id]) => {
        const value = median(values.get(id) ?? []);
        return id === "cumulative-layout-shift" ? value.toFixed(3) : `${Math.round(value)} ms`;
      });
      const fcp = median(values.get("first-contentful-paint") ?? []);
      console.log(
        `| ${page.name} | ${median(scores)} (${scores.join(", ")}) | ${cells.join(" | ")} | ${(fcp / plainFcp).toFixed(2)}× |`,
      );
    }
  }
} finally {
  chrome.kill();
  for (const stop of stops) await stop();
}

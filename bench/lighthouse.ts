/**
 * Lighthouse performance (its default mobile profile: a mid-range phone, simulated slow 4G and 4×
 * CPU slowdown) of the home page, a tool page and the Hindi home page, on the built site under `wrangler dev`
 * (scripts/stack.ts) with Debian's Chromium. Issue 10's target: performance score ≥ 95 for both.
 * Prints the median score of RUNS runs per page with the metrics it is made of, time to interactive
 * (issue 25 asks for it beside the score), and the first
 * contentful paint as a ratio to the plain static page of bench/site-paint.ts under the same profile.
 * Lighthouse is not a dependency of the project: the first run installs it with npm into
 * node_modules/.cache (git-ignored), as the other benches install their reference tools.
 * Run with `node bench/lighthouse.ts` after `vite build` (it builds when dist/ is missing).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "../scripts/stack.ts";
import { CHROMIUM } from "../tests/e2e/browser.ts";
import { PLAIN_PAGE_PATH, startBuiltSite } from "./built-site.ts";

const RUNS = Number(process.env.RUNS ?? 3);
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

const { lighthouse, launcher } = await loadLighthouse();
const stack = await startBuiltSite();
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

try {
  console.log(`\nLighthouse ${LIGHTHOUSE_VERSION} performance, mobile profile, median of ${RUNS} runs\n`);
  console.log(`| page | score | ${METRICS.map(([, label]) => label).join(" | ")} | FCP ratio to plain |`);
  console.log(`|---|---|${METRICS.map(() => "---").join("|")}|---|`);
  let plainFcp = Number.NaN;
  for (const page of PAGES) {
    const scores: number[] = [];
    const values = new Map<string, number[]>(METRICS.map(([id]) => [id, []]));
    let failures = 0;
    for (let run = 0; run < RUNS; run++) {
      const result = await lighthouse(`${stack.url}${page.path}`, {
        port: chrome.port,
        onlyCategories: ["performance"],
        logLevel: "error",
        output: "json",
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
      const failure = result.lhr.runtimeError?.message;
      // A trace Lighthouse itself failed to record (NO_NAVSTART and the like) is run again, up to
      // MAX_FAILED_RUNS times a page; the failure is printed so the retry is visible.
      if (failure && ++failures <= MAX_FAILED_RUNS) {
        console.error(`Lighthouse run on ${page.path} failed (${failure}); running it again`);
        run--;
        continue;
      }
      if (failure) throw new Error(`Lighthouse failed on ${page.path}: ${failure}`);
      scores.push(Math.round((result.lhr.categories.performance.score ?? 0) * 100));
      const summary = result.lhr.audits.metrics?.details?.items?.[0];
      for (const [id] of METRICS)
        values.get(id)?.push(result.lhr.audits[id]?.numericValue ?? summary?.[id] ?? Number.NaN);
    }
    const cells = METRICS.map(([id]) => {
      const value = median(values.get(id) ?? []);
      return id === "cumulative-layout-shift" ? value.toFixed(3) : `${Math.round(value)} ms`;
    });
    const fcp = median(values.get("first-contentful-paint") ?? []);
    if (page.path === PLAIN_PAGE_PATH) plainFcp = fcp;
    console.log(
      `| ${page.name} | ${median(scores)} (${scores.join(", ")}) | ${cells.join(" | ")} | ${(fcp / plainFcp).toFixed(2)}× |`,
    );
  }
} finally {
  chrome.kill();
  await stack.stop();
}

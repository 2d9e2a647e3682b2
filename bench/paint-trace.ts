/**
 * Chrome traces of one page loaded cold, as served and with its scripts removed (bench/page-variants.ts),
 * side by side: what the renderer does between navigation and the first contentful paint in one variant
 * and not in the other, and the main-thread tasks after it (what Lighthouse counts as blocking time).
 * Each trace is written to TRACE_DIR (default .tmp/paint-traces, open it in DevTools' Performance panel)
 * and summed up: the first contentful paint; the requests started before it; the renderer's main-thread
 * and background compile time before it; and after it, the tasks whose CPU time × 4 (Lighthouse's phone)
 * exceeds 50 ms, with Lighthouse's blocking-time sum over them, from CPU time (not wall time: on a
 * shared machine a task's wall time follows the load, its CPU time much less).
 * Options (environment): CLIENT (another build's dist/client to serve), TRACE_PATH (default
 * /tools/merge-pdf), RUNS (pairs, default 3), VARIANTS
 * ("sb": s as served, b without scripts), THROTTLE (CPU slowdown, default none), WAIT (ms after load,
 * default 3000), LIGHTHOUSE_CATEGORIES=1 (Lighthouse's own trace categories, with the JS stacks that
 * make V8 collect source positions).
 * Run with `node bench/paint-trace.ts` after `vite build`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../scripts/stack.ts";
import { launchChromium } from "../tests/e2e/browser.ts";
import { startBuiltSite } from "./built-site.ts";
import { startPageProxy, withoutScripts } from "./page-variants.ts";

const PATH = process.env.TRACE_PATH ?? "/tools/merge-pdf";
const RUNS = Number(process.env.RUNS ?? 3);
const WAIT_MS = Number(process.env.WAIT ?? 3000);
const TRACE_DIR = process.env.TRACE_DIR ?? join(ROOT, ".tmp/paint-traces");
const CATEGORIES =
  process.env.LIGHTHOUSE_CATEGORIES === "1"
    ? [
        "disabled-by-default-lighthouse",
        "loading",
        "v8",
        "v8.execute",
        "blink.user_timing",
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "disabled-by-default-devtools.timeline.stack",
        "disabled-by-default-devtools.timeline.frame",
        "disabled-by-default-devtools.v8-source-rundown",
        "toplevel",
      ]
    : [
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "disabled-by-default-devtools.timeline.frame",
        "blink",
        "loading",
        "v8",
        "disabled-by-default-v8.compile",
        "toplevel",
        "blink.user_timing",
        "cc",
        "viz",
      ];

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: { readonly name?: string; readonly data?: { readonly url?: string } };
}

/** The summary of one trace (times in ms from the first request of the page). */
function summary(events: readonly TraceEvent[]): string {
  const threads = new Map<string, string>();
  for (const event of events)
    if (event.ph === "M" && event.name === "thread_name")
      threads.set(`${event.pid}:${event.tid}`, event.args?.name ?? "");
  const paint = events.find((event) => event.name === "firstContentfulPaint");
  const page = events.find(
    (event) => event.name === "ResourceSendRequest" && event.args?.data?.url?.endsWith(PATH),
  );
  if (!paint || !page) return "no first contentful paint or no request of the page in the trace";
  const at = (ts: number) => (ts - page.ts) / 1000;
  const renderer = events.filter((event) => event.pid === paint.pid && event.ph === "X");
  const isMain = (event: TraceEvent) => threads.get(`${event.pid}:${event.tid}`) === "CrRendererMain";
  // A task is "RunTask" (devtools.timeline, what Lighthouse reads); "ThreadControllerImpl::RunTask"
  // (toplevel) wraps the same task where that is all there is.
  const named = (name: string) => renderer.filter((event) => isMain(event) && event.name === name);
  const tasks = named("RunTask").length > 0 ? named("RunTask") : named("ThreadControllerImpl::RunTask");
  const beforePaint = (event: TraceEvent) => event.ts >= page.ts && event.ts < paint.ts;
  const ms = (micro: number) => (micro / 1000).toFixed(1);
  const requests = events.filter(
    (event) => event.name === "ResourceSendRequest" && event.ts >= page.ts && event.ts < paint.ts,
  ).length;
  const mainBefore = tasks.filter(beforePaint).reduce((sum, task) => sum + (task.tdur ?? 0), 0);
  const compiledBefore = renderer
    .filter((event) => !isMain(event) && beforePaint(event) && event.name === "v8.parseOnBackground")
    .reduce((sum, event) => sum + (event.dur ?? 0), 0);
  const long = tasks
    .filter((task) => task.ts >= paint.ts && 4 * (task.tdur ?? 0) > 50_000)
    .map((task) => ({ at: at(task.ts), cpu: (task.tdur ?? 0) / 1000, wall: (task.dur ?? 0) / 1000 }));
  const blocking = long.reduce((sum, task) => sum + 4 * task.cpu - 50, 0);
  return [
    `FCP ${at(paint.ts).toFixed(0)} ms; before it: ${requests} requests, main thread ${ms(mainBefore)} ms CPU, background compile ${ms(compiledBefore)} ms`,
    `after it: blocking time at 4× CPU ${blocking.toFixed(0)} ms over ${long.length} tasks${long
      .map(
        (task) =>
          `\n    at ${task.at.toFixed(0)} ms: ${task.cpu.toFixed(1)} ms CPU (${task.wall.toFixed(1)} ms wall)`,
      )
      .join("")}`,
  ].join("\n  ");
}

const browser = await launchChromium();
const stack = await startBuiltSite(process.env.CLIENT);
const asServed = await startPageProxy(stack.url);
const scriptless = await startPageProxy(stack.url, withoutScripts);
const variants = (
  [
    ["s", "as served", asServed.url],
    ["b", "without scripts", scriptless.url],
  ] as const
).filter(([key]) => (process.env.VARIANTS ?? "sb").includes(key));
mkdirSync(TRACE_DIR, { recursive: true });
try {
  for (let run = 0; run < RUNS; run++) {
    for (const [key, label, origin] of variants) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (process.env.THROTTLE) {
        const cdp = await context.newCDPSession(page);
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: Number(process.env.THROTTLE) });
      }
      await browser.startTracing(page, { categories: CATEGORIES });
      await page.goto(`${origin}${PATH}`, { waitUntil: "load" });
      await page.waitForTimeout(WAIT_MS);
      const trace = (await browser.stopTracing()).toString("utf8");
      await context.close();
      const file = join(TRACE_DIR, `${PATH.replace(/[^\w]+/g, "_")}-${key}-${run}.json`);
      writeFileSync(file, trace);
      const parsed = JSON.parse(trace) as { traceEvents: TraceEvent[] };
      console.log(`${PATH} ${label}, run ${run + 1} (${file})\n  ${summary(parsed.traceEvents)}`);
    }
  }
} finally {
  await browser.close();
  await asServed.close();
  await scriptless.close();
  await stack.stop();
}

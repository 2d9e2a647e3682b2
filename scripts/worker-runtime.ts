/**
 * The Worker on Miniflare's own API (the `miniflare` package wrangler runs it with), without the
 * layers `wrangler dev` puts in front of it: `npm start` and the benchmarks run this, as a child
 * process supervised by scripts/stack.ts. The bundle is the deployed one (`wrangler deploy
 * --dry-run`), the bindings are read from the same wrangler config by wrangler's own
 * `unstable_getMiniflareWorkerOptions` (R2, Durable Objects, rate limits, assets, vars and the
 * secrets of `.dev.vars`), and local R2 and Durable Object state persist where `wrangler dev
 * --persist-to` keeps them (`<persist-to>/v3`), the rate limiters' counters in memory
 * (scripts/rate-limit-counters.ts). workerd itself listens on the public port.
 *
 * Why not `wrangler dev`: it runs a second workerd (its ProxyWorker) on the public port that
 * forwards every request over a local connection to the Worker's runtime. Under 64 concurrent
 * 3.4 MB uploads those connections were lost (a plain-text 500 "Network connection lost", or a
 * reset), and the proxy's memory grew ~40 MB a round (bench:load, README "Edge work under load").
 * What is lost: wrangler dev's rebuild on save (restart `npm start` after changing the Worker, or
 * run `WORKER_RUNTIME=wrangler npm start`).
 *
 * Run: node scripts/worker-runtime.ts --port P --persist-to DIR [--config FILE] [--var NAME:VALUE]…
 * [--inspector-port P]. Exits on SIGTERM/SIGINT after disposing of the runtime.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { convertV4MiniflareOptions, type Json, Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { rateLimitCountersInMemory } from "./rate-limit-counters.ts";
import { offlineWranglerEnv, ROOT, stopOnSignal } from "./stack.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "persist-to": { type: "string" },
    config: { type: "string", default: join(ROOT, "wrangler.toml") },
    var: { type: "string", multiple: true, default: [] },
    "inspector-port": { type: "string" },
  },
});
if (values.port === undefined || values["persist-to"] === undefined) {
  throw new Error("usage: worker-runtime.ts --port P --persist-to DIR [--config F] [--var N:V]…");
}
const port = Number(values.port);
const config = resolve(values.config);

/** The deployed bundle (one ES module and its WASM modules), built into a folder of this port. */
function bundle(): string {
  const outdir = join(ROOT, ".wrangler", "bundle", String(port));
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const wrangler = join(ROOT, "node_modules/wrangler/bin/wrangler.js");
  const args = ["deploy", "--dry-run", "--containers-rollout=none", "--outdir", outdir, "--config", config];
  const run = spawnSync(process.execPath, [wrangler, ...args], {
    cwd: ROOT,
    env: offlineWranglerEnv(),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}${run.stderr}`);
  return outdir;
}

const outdir = bundle();
// The vars of the config and the secrets of `.dev.vars` beside it, as wrangler dev reads them.
const { workerOptions } = unstable_getMiniflareWorkerOptions(config);
// The bundle's modules are listed below: no rules to resolve imports with.
const { modulesRules: _rules, bindings, ...options } = workerOptions;
const vars = Object.fromEntries(
  (values.var ?? []).map((pair) => {
    const at = pair.indexOf(":");
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);
const modules = [
  { type: "ESModule" as const, path: join(outdir, "index.js") },
  ...readdirSync(outdir)
    .filter((name) => name.endsWith(".wasm"))
    .map((name) => ({ type: "CompiledWasm" as const, path: join(outdir, name) })),
];
const persistTo = join(resolve(values["persist-to"]), "v3");
/**
 * The V8 settings of the local runtime (README "Where the idle memory is"): each isolate's old
 * space capped at 32 MB and its young generation at 1 MB semispaces, so the isolates miniflare runs
 * beside the Worker (its entry worker, the R2 and Durable Object services, whose code we cannot make
 * collect) collect before their heaps grow by hundreds of MB, and V8's `gc` exposed for the Worker's
 * own collection once idle (worker/idle-collection.ts). The Worker's isolate holds a 9–16 MB heap
 * under load; a deployed isolate has 128 MB in all. `MINIFLARE_WORKERD_V8_FLAGS`, when set, replaces them.
 */
process.env.MINIFLARE_WORKERD_V8_FLAGS ??= "--max-old-space-size=32 --max-semi-space-size=1 --expose-gc";
const forgetCounters = rateLimitCountersInMemory(persistTo);
const runtime = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port,
    // Offline: the placeholder `request.cf`, never a fetch of the real one.
    cf: false,
    ...(values["inspector-port"] === undefined
      ? {}
      : { inspectorHost: "127.0.0.1", inspectorPort: Number(values["inspector-port"]) }),
    resourcePersistencePath: persistTo,
    log: new Log(LogLevel.INFO),
    workers: [
      {
        ...options,
        name: unstable_readConfig({ config }).name,
        modules,
        modulesRoot: outdir,
        bindings: { ...(bindings as Record<string, Json>), ...vars },
      },
    ],
  }),
);
const url = await runtime.ready;
console.log(`[worker] ready on ${url.href}`);

// The bundle is rebuilt at every start: its folder goes with the process, however it exits.
process.on("exit", () => {
  rmSync(outdir, { recursive: true, force: true });
  forgetCounters?.();
});
stopOnSignal(() => runtime.dispose());

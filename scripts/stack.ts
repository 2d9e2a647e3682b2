/**
 * Starts the whole site locally: the converter as a plain Node process on 127.0.0.1 and the Worker
 * on Miniflare (local R2 and Durable Objects; scripts/worker-runtime.ts, or `wrangler dev` with
 * WORKER_RUNTIME=wrangler), with offline settings and all wrangler state, config and logs inside the
 * project. Used by `npm start` and by the test runner.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..");
const WRANGLER_HOME = join(ROOT, ".wrangler");

/** Environment for every wrangler invocation: no cf.json fetch, no metrics, nothing in $HOME. */
export function offlineWranglerEnv(): NodeJS.ProcessEnv {
  mkdirSync(join(WRANGLER_HOME, "config"), { recursive: true });
  mkdirSync(join(WRANGLER_HOME, "logs"), { recursive: true });
  return {
    ...process.env,
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
    XDG_CONFIG_HOME: join(WRANGLER_HOME, "config"),
    WRANGLER_LOG_PATH: join(WRANGLER_HOME, "logs"),
    WRANGLER_LOG: "info",
    // The Worker must never run against a real account from here.
    CLOUDFLARE_API_TOKEN: "",
  };
}

const DEV_SECRETS = ["CSRF_SECRET", "CONVERTER_SECRET"] as const;

/**
 * `.dev.vars` holds the local secrets (created once, never committed): the CSRF key and the
 * converter's shared secret, which wrangler dev gives the Worker and which is returned here for
 * the converter process.
 */
function ensureDevVars(): Record<(typeof DEV_SECRETS)[number], string> {
  const file = join(ROOT, ".dev.vars");
  let current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const values = {} as Record<(typeof DEV_SECRETS)[number], string>;
  for (const name of DEV_SECRETS) {
    const found = new RegExp(`^${name}=(.+)$`, "m").exec(current)?.[1];
    if (found !== undefined) {
      values[name] = found.trim();
      continue;
    }
    values[name] = randomBytes(32).toString("hex");
    current = `${current}${current && !current.endsWith("\n") ? "\n" : ""}${name}=${values[name]}\n`;
    writeFileSync(file, current);
  }
  return values;
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit" });
    child.on("error", fail);
    child.on("exit", (code, signal) =>
      code === 0 ? done() : fail(new Error(`${command} ${args.join(" ")} exited with ${code ?? signal}`)),
    );
  });
}

async function waitFor(url: string, child: ChildProcess, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} did not answer ${url} within ${timeoutMs} ms`);
}

export interface StackOptions {
  port: number;
  converterPort: number;
  /** Where local R2 and Durable Object state persist. */
  persistTo: string;
  /** Passed to the child processes' stdio. */
  quiet?: boolean;
  /** A wrangler config other than wrangler.toml (benchmarks raise the rate limits with one). */
  wranglerConfig?: string;
  /**
   * What runs the Worker: Miniflare's API with workerd on the public port (scripts/worker-runtime.ts,
   * the default), or `wrangler dev` (its proxy in front, rebuilds on save). Default: WORKER_RUNTIME.
   */
  runtime?: WorkerRuntime;
}

export type WorkerRuntime = "miniflare" | "wrangler";

/** The runtime WORKER_RUNTIME names ("miniflare" when unset). */
export function workerRuntimeFromEnv(): WorkerRuntime {
  const named = process.env.WORKER_RUNTIME ?? "miniflare";
  if (named !== "miniflare" && named !== "wrangler") {
    throw new Error(`WORKER_RUNTIME must be "miniflare" or "wrangler", not "${named}"`);
  }
  return named;
}

/** The Worker's process: scripts/worker-runtime.ts, or `wrangler dev`, on the stack's port. */
function launchWorker(options: StackOptions, converterUrl: string, stdio: "ignore" | "inherit"): Supervised {
  const runtime = options.runtime ?? workerRuntimeFromEnv();
  const common = [
    "--port",
    String(options.port),
    "--persist-to",
    options.persistTo,
    "--var",
    `CONVERTER_URL:${converterUrl}`,
    ...(options.wranglerConfig === undefined ? [] : ["--config", options.wranglerConfig]),
    "--inspector-port",
    String(options.port + 1000),
  ];
  const script =
    runtime === "miniflare"
      ? [join(ROOT, "scripts/worker-runtime.ts")]
      : [
          join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
          "dev",
          "--ip",
          "127.0.0.1",
          "--show-interactive-dev-session=false",
        ];
  return supervise(runtime === "miniflare" ? "worker (miniflare)" : "wrangler dev", () =>
    spawn(process.execPath, [...script, ...common], {
      cwd: ROOT,
      env: offlineWranglerEnv(),
      stdio,
      detached: true,
    }),
  );
}

export interface Stack {
  url: string;
  /** The converter's process id now (it changes when the supervisor restarts it). */
  converterPid(): number | undefined;
  stop(): Promise<void>;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {}
    }, 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
    try {
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {
      clearTimeout(timer);
      done();
    }
  });
}

/** On the first SIGINT or SIGTERM, runs `stop` once, then exits. */
export function stopOnSignal(stop: () => Promise<unknown>): void {
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void stop().finally(() => process.exit(0));
    });
  }
}

/** Pause before restarting a process that exited on its own; doubles up to the maximum. */
const RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 8000;
/** A process that ran this long is considered healthy again: the delay starts over. */
const STABLE_MS = 30_000;

export interface Supervised {
  /** The process running now (a new one after each restart). */
  readonly child: ChildProcess;
  /** Stops it for good: no restart follows. */
  stop(): Promise<void>;
}

/**
 * A process of the local stack, restarted with a backoff (0.5 s doubling to 8 s, reset after 30 s
 * of running) whenever it exits without being asked to (a crash, `kill -9`, a config error on
 * reload), so the site comes back by itself; each exit and restart is logged under `label`.
 */
export function supervise(label: string, launch: () => ChildProcess): Supervised {
  let stopping = false;
  let delay = RESTART_DELAY_MS;
  let child: ChildProcess;
  const start = () => {
    const startedAt = Date.now();
    child = launch();
    child.once("exit", (code, signal) => {
      if (stopping) return;
      if (Date.now() - startedAt > STABLE_MS) delay = RESTART_DELAY_MS;
      console.error(`[stack] ${label} exited (${code ?? signal}); restarting in ${delay} ms`);
      setTimeout(() => {
        if (!stopping) start();
      }, delay);
      delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
    });
  };
  start();
  return {
    get child(): ChildProcess {
      return child;
    },
    stop(): Promise<void> {
      stopping = true;
      return stopChild(child);
    },
  };
}

/** The converter process, supervised (see `supervise`). */
export function supervisedConverter(env: NodeJS.ProcessEnv, stdio: "ignore" | "inherit"): Supervised {
  return supervise("converter", () =>
    spawn(process.execPath, [join(ROOT, "container/src/main.ts")], { cwd: ROOT, env, stdio, detached: true }),
  );
}

/** Starts converter + Worker and resolves once both answer. The client must already be built. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const secrets = ensureDevVars();
  const stdio = options.quiet ? "ignore" : "inherit";
  const converterUrl = `http://127.0.0.1:${options.converterPort}`;
  const converter = supervisedConverter(
    {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(options.converterPort),
      CONVERTER_SECRET: secrets.CONVERTER_SECRET,
    },
    stdio,
  );
  const worker = launchWorker(options, converterUrl, stdio);
  const stack: Stack = {
    url: `http://127.0.0.1:${options.port}`,
    converterPid: () => converter.child.pid,
    stop: () => Promise.all([worker.stop(), converter.stop()]).then(() => undefined),
  };
  try {
    await waitFor(`${converterUrl}/healthz`, converter.child, "converter");
    await waitFor(`${stack.url}/api/pdf/csrf-token`, worker.child, "the Worker");
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}

/**
 * `vite build`, at once, when `marker` (a path under the root) is missing: for tests and benches
 * that read dist/. Always a production build, whatever NODE_ENV the caller runs with (vitest sets
 * "test", which would give development bundles of the UI libraries).
 */
export function buildClientIfMissing(marker = "dist/client/index.html"): void {
  if (existsSync(join(ROOT, marker))) return;
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
}

export function buildClient(): Promise<void> {
  return run(process.execPath, [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"]);
}

/** A TCP port free on 127.0.0.1 right now (for stacks started by tests and benchmarks). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

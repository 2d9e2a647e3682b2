/**
 * One job runner process (job-runner.ts) seen from the parent: start-up, one task at a time, and
 * enforcement of the per-job limits. The time limit is the base one, or for a tool whose limit
 * grows with its pages (contract/job-time.ts) the one for the pages the runner counted before the
 * tool started, from the task's start. Memory is read from /proc/<pid>/status: VmHWM (peak resident
 * set, reset before each task through /proc/<pid>/clear_refs) catches spikes between two samples;
 * where the reset is not permitted, VmRSS is sampled instead.
 *
 * A busy runner is also watched for life (a heartbeat): it is pinged every second and answers
 * whenever its event loop turns, and its CPU time is read from /proc/<pid>/stat. One that has
 * neither answered nor sent anything for `wedgedMs` and used under 1 % of a core meanwhile is
 * wedged (stopped by a signal, or blocked waiting on nothing): it is killed and its job fails with
 * JOB_INTERRUPTED, which the task retries once. An engine busy in a long synchronous call cannot
 * answer the ping, but it uses CPU, and stays under the job's time limit instead.
 */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { declarationOf, type ErrorBody, jobTimeLimitMs } from "../../contract/index.ts";
import type { RunnerMessage, RunnerRequest, RunnerTask, TaskResult } from "./job-protocol.ts";

const RUNNER_SCRIPT = new URL("./job-runner.ts", import.meta.url);
const SAMPLE_INTERVAL_MS = 25;
const READY_TIMEOUT_MS = 60_000;
const STDERR_TAIL = 4096;
/** Pings to a busy runner, at most this far apart. */
const PING_INTERVAL_MS = 1000;
/**
 * A runner using less than this share of one core while silent is not working: a stopped or
 * blocked one uses none, and a busy engine measured 10-17 % of a core on 2 cores shared by
 * several test runs.
 */
const WEDGED_CPU_SHARE = 0.01;
/** Linux's clock tick (USER_HZ) in /proc/<pid>/stat. */
const MS_PER_TICK = 10;

export interface JobLimits {
  readonly timeoutMs: number;
  readonly memoryMb: number;
  /** A busy runner silent and idle this long is wedged, killed and replaced. */
  readonly wedgedMs: number;
  /** The runner's entry module (job-runner.ts; a test wraps it to make a job trap). */
  readonly runnerScript?: URL;
  /**
   * How much lower than the converter's HTTP process a ready runner runs (a nice value, 0–19; 0:
   * the same). See `lowerPriority`.
   */
  readonly runnerNice?: number;
}

/**
 * Lowers a started runner by `nice` below this process (nice values add up to 19), in a session of
 * its own (it was forked detached). Linux weighs sessions before processes (autogroup: each
 * session's group gets an equal share of the CPU whatever its processes' nice values), so the group's own nice (/proc/<pid>/autogroup) is what yields to
 * the rest of the machine: the converter's HTTP process, and locally the Worker's runtime, whose
 * one thread waited for a CPU 8.1 s of 10 s during a burst of 64 merges while both runners used a
 * core each (README "Edge work under load"). The process's own nice covers a kernel without
 * autogroup and the programs the runner starts (qpdf, Tesseract), which inherit it. Done once the
 * runner is ready: it loads its engines at the normal priority (a converter niced as a whole took
 * 50 s to start on the loaded machine). Best effort: either step may be refused or missing.
 */
function lowerPriority(pid: number, nice: number): void {
  const lower = (current: number) => String(Math.min(19, current + nice));
  try {
    const own = Number(/nice (-?\d+)/.exec(readFileSync("/proc/self/autogroup", "utf8"))?.[1] ?? 0);
    writeFileSync(`/proc/${pid}/autogroup`, lower(own));
  } catch {
    // no autogroup (kernel without it, or /proc read-only in a container)
  }
  try {
    setPriority(pid, Number(lower(getPriority())));
  } catch {
    // not permitted
  }
}

/** Receives the engine's progress, 0–100, each time its integer value changes. */
export type ProgressListener = (percent: number) => void;

export interface TaskOutcome {
  readonly result: TaskResult;
  /** Time spent in the engine, as measured by the runner (0 when it did not answer). */
  readonly engineMs: number;
  /** Time from sending the task to receiving its result in the parent. */
  readonly totalMs: number;
}

function failure(error: ErrorBody): TaskResult {
  return { ok: false, error };
}

export class Runner {
  readonly #child: ChildProcess;
  readonly #limits: JobLimits;
  readonly ready: Promise<void>;
  #stderr = "";
  #exited = false;
  #trapped = false;
  #killed = false;
  #peakResettable = true;
  #nextId = 1;
  #wedged = false;

  constructor(limits: JobLimits, log: (line: string) => void) {
    this.#limits = limits;
    this.#child = fork(limits.runnerScript ?? RUNNER_SCRIPT, [], {
      // The V8 heap gets the same cap; WASM and native memory are watched through /proc.
      execArgv: [`--max-old-space-size=${limits.memoryMb}`, "--disable-warning=ExperimentalWarning"],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      // Its own session (and process group), so its scheduling group's priority is its own. It
      // still ends with the converter: job-runner.ts exits when the IPC channel closes.
      detached: (limits.runnerNice ?? 0) > 0,
    });
    this.#child.stderr?.setEncoding("utf8");
    this.#child.stderr?.on("data", (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL);
      log(`runner ${this.#child.pid}: ${text.trimEnd()}`);
    });
    this.#child.once("exit", () => {
      this.#exited = true;
    });
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("job runner did not start")), READY_TIMEOUT_MS);
      const onMessage = (message: RunnerMessage) => {
        if (message.type !== "ready") return;
        cleanup();
        const nice = limits.runnerNice ?? 0;
        if (nice > 0 && this.#child.pid !== undefined) lowerPriority(this.#child.pid, nice);
        resolve();
      };
      const onExit = () => {
        cleanup();
        reject(new Error(`job runner exited at start: ${this.#stderr.slice(-500)}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.#child.off("message", onMessage);
        this.#child.off("exit", onExit);
      };
      this.#child.on("message", onMessage);
      this.#child.once("exit", onExit);
    });
  }

  /** Running and not being killed (the exit event of a killed runner comes later), and its WASM
   *  engines not left broken by a trap. */
  get alive(): boolean {
    return !this.#exited && !this.#killed && !this.#trapped;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Killed because it stopped answering during a job. */
  get wedged(): boolean {
    return this.#wedged;
  }

  /** Stopped by a signal (SIGSTOP, a debugger): it cannot take a job. */
  get stopped(): boolean {
    const state = this.#readStat()?.state;
    return state === "T" || state === "t";
  }

  /** Resident memory now, in MB (0 when unknown). */
  residentMb(): number {
    return this.#readStatus().rssMb;
  }

  kill(): void {
    this.#killed = true;
    if (!this.#exited) this.#child.kill("SIGKILL");
  }

  /** Runs one task; always resolves, with the task's result or a limit / crash error. */
  execute(task: RunnerTask, onProgress: ProgressListener = () => {}): Promise<TaskOutcome> {
    const id = this.#nextId++;
    const started = performance.now();
    this.#resetPeak();
    return new Promise((resolve) => {
      let settled = false;
      let peakMb = 0;
      const finish = (result: TaskResult, engineMs = 0) => {
        if (settled) return;
        settled = true;
        // A WebAssembly trap (MuPDF's "table index is out of bounds" while dropping issue19800.pdf)
        // leaves the module's memory unusable: every later job of the runner failed to open its PDF.
        // The pool replaces a runner that is no longer alive after its job.
        if (!result.ok && result.detail?.startsWith("RuntimeError:")) this.#trapped = true;
        clearTimeout(timer);
        clearInterval(sampler);
        clearInterval(heartbeat);
        this.#child.off("message", onMessage);
        this.#child.off("exit", onExit);
        resolve({ result, engineMs, totalMs: performance.now() - started });
      };
      // The base limit, until the runner counts the pages of a tool whose limit grows with them.
      let limitMs = this.#limits.timeoutMs;
      const overLimit = (code: "JOB_TIMEOUT" | "JOB_OUT_OF_MEMORY", message: string) => {
        this.kill();
        const context: Record<string, number> =
          code === "JOB_TIMEOUT" ? { limit_ms: limitMs } : { limit_mb: this.#limits.memoryMb };
        finish(failure({ code, message, context }));
      };
      const overTime = () => overLimit("JOB_TIMEOUT", "The job took longer than the time limit.");
      let timer = setTimeout(overTime, limitMs);
      const setLimit = (pages: number) => {
        if (task.type !== "job") return;
        limitMs = jobTimeLimitMs(declarationOf(task.tool), pages, this.#limits.timeoutMs);
        clearTimeout(timer);
        timer = setTimeout(overTime, Math.max(0, started + limitMs - performance.now()));
      };
      const sampler = setInterval(() => {
        peakMb = Math.max(peakMb, this.#peakMb());
        if (peakMb > this.#limits.memoryMb)
          overLimit("JOB_OUT_OF_MEMORY", "The job needed more memory than allowed.");
      }, SAMPLE_INTERVAL_MS);
      const life = this.#watchLife(() => {
        this.#wedged = true;
        this.kill();
        finish(failure({ code: "JOB_INTERRUPTED", message: "The job runner stopped answering." }));
      });
      const heartbeat = setInterval(life.check, Math.min(PING_INTERVAL_MS, this.#limits.wedgedMs / 4));
      const onMessage = (message: RunnerMessage) => {
        life.heard();
        if (message.type === "progress" && message.id === id && !settled) onProgress(message.percent);
        if (message.type === "pages" && message.id === id && !settled) setLimit(message.pages);
        if (message.type === "done" && message.id === id) finish(message.result, message.engineMs);
      };
      const onExit = () => finish(this.#crashResult(peakMb));
      this.#child.on("message", onMessage);
      this.#child.once("exit", onExit);
      if (this.#exited) {
        onExit();
        return;
      }
      this.#child.send({ ...task, id }, (error) => {
        if (error)
          finish(failure({ code: "JOB_INTERRUPTED", message: "The job could not be handed to a runner." }));
      });
    });
  }

  /**
   * The heartbeat of one task: `check` pings the runner and calls `wedged` once it has been silent
   * (nothing `heard`) for `wedgedMs` while its CPU time grew by less than WEDGED_CPU_SHARE of that.
   */
  #watchLife(wedged: () => void): { heard(): void; check(): void } {
    const wedgedMs = this.#limits.wedgedMs;
    let heardAt = performance.now();
    // CPU time read at each check since the runner was last heard, oldest first.
    const samples: { at: number; cpuMs: number }[] = [];
    return {
      heard() {
        heardAt = performance.now();
        samples.length = 0;
      },
      check: () => {
        if (this.#exited) return;
        const now = performance.now();
        const cpuMs = this.#readStat()?.cpuMs;
        if (cpuMs !== undefined) samples.push({ at: now, cpuMs });
        while (samples.length > 1 && (samples[1]?.at ?? now) <= now - wedgedMs) samples.shift();
        const oldest = samples[0];
        if (
          now - heardAt >= wedgedMs &&
          oldest !== undefined &&
          cpuMs !== undefined &&
          now - oldest.at >= wedgedMs * 0.9 &&
          cpuMs - oldest.cpuMs < (now - oldest.at) * WEDGED_CPU_SHARE
        ) {
          wedged();
          return;
        }
        this.#child.send({ type: "ping" } satisfies RunnerRequest, () => undefined);
      },
    };
  }

  /** Scheduler state and CPU time (user + system) from /proc/<pid>/stat; undefined when unreadable. */
  #readStat(): { state: string; cpuMs: number } | undefined {
    try {
      const stat = readFileSync(`/proc/${this.#child.pid}/stat`, "utf8");
      // Fields after the command name (which may hold spaces): state, then utime and stime at 12, 13.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]);
      return Number.isFinite(ticks) ? { state: fields[0] ?? "", cpuMs: ticks * MS_PER_TICK } : undefined;
    } catch {
      return undefined;
    }
  }

  /** A runner that died mid-task: V8 heap exhaustion or a peak near the cap count as memory. */
  #crashResult(peakMb: number): TaskResult {
    const outOfMemory =
      /heap out of memory|Allocation failed|out of memory/i.test(this.#stderr) ||
      peakMb > this.#limits.memoryMb * 0.9;
    if (outOfMemory) {
      return failure({
        code: "JOB_OUT_OF_MEMORY",
        message: "The job needed more memory than allowed.",
        context: { limit_mb: this.#limits.memoryMb },
      });
    }
    return failure({ code: "JOB_INTERRUPTED", message: "The job runner stopped unexpectedly." });
  }

  #resetPeak(): void {
    if (!this.#peakResettable || this.#child.pid === undefined) return;
    try {
      writeFileSync(`/proc/${this.#child.pid}/clear_refs`, "5");
    } catch {
      this.#peakResettable = false;
    }
  }

  #peakMb(): number {
    const status = this.#readStatus();
    return this.#peakResettable ? Math.max(status.hwmMb, status.rssMb) : status.rssMb;
  }

  #readStatus(): { rssMb: number; hwmMb: number } {
    try {
      const status = readFileSync(`/proc/${this.#child.pid}/status`, "utf8");
      const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
      return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
    } catch {
      return { rssMb: 0, hwmMb: 0 };
    }
  }
}

/**
 * A V8 CPU profile of the Worker's isolate (bench/inspector.ts), summed up for the load benchmark:
 * where the isolate's thread spent its time (self time per function) and its longest stretches of
 * uninterrupted JavaScript, each with the function that took most of it. A request that arrives
 * during such a stretch (an unrelated `GET /api/health`) waits for its end: the stretches are the
 * floor of that request's latency.
 */

export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** V8's pseudo-frames for time outside JavaScript: not a stretch the isolate blocks other requests. */
const OUTSIDE_JS = new Set(["(idle)", "(program)", "(root)"]);

export interface ProfileSummary {
  /** Milliseconds of the profile, and of it in JavaScript (garbage collection included). */
  readonly totalMs: number;
  readonly jsMs: number;
  /** The functions with the most self time: "name file:line" and milliseconds. */
  readonly top: readonly (readonly [string, number])[];
  /** The longest runs of JavaScript without a pause: milliseconds and the function most of it was in. */
  readonly stretches: readonly (readonly [number, string])[];
}

function label(frame: CpuProfile["nodes"][number]["callFrame"]): string {
  const file = frame.url.split("/").at(-1) ?? "";
  return `${frame.functionName || "(anonymous)"}${file ? ` ${file}:${frame.lineNumber + 1}` : ""}`;
}

/** Self time per function and the longest JavaScript stretches of `profile`. */
export function summarizeProfile(profile: CpuProfile, count = 8): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const stretches: [number, string][] = [];
  let run: { ms: number; self: Map<string, number> } | undefined;
  const endRun = () => {
    if (run === undefined) return;
    const heaviest = [...run.self].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "?";
    stretches.push([run.ms, heaviest]);
    run = undefined;
  };
  let jsMs = 0;
  // timeDeltas[i] is the time from sample i-1 to sample i: sample i stands for that interval.
  for (const [i, id] of profile.samples.entries()) {
    const node = byId.get(id);
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (node === undefined) continue;
    const name = label(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + ms);
    if (OUTSIDE_JS.has(node.callFrame.functionName)) {
      endRun();
      continue;
    }
    jsMs += ms;
    run ??= { ms: 0, self: new Map() };
    run.ms += ms;
    run.self.set(name, (run.self.get(name) ?? 0) + ms);
  }
  endRun();
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    jsMs,
    top: [...self].sort((a, b) => b[1] - a[1]).slice(0, count),
    stretches: stretches.sort((a, b) => b[0] - a[0]).slice(0, count),
  };
}

/** The summary as a few lines of text for the benchmark's output. */
export function profileLines(title: string, summary: ProfileSummary): string[] {
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  return [
    `CPU profile of the Worker isolate during ${title}: ${ms(summary.totalMs)}, of it JavaScript ${ms(summary.jsMs)}`,
    `  self time: ${summary.top.map(([name, v]) => `${name} ${ms(v)}`).join("; ")}`,
    `  longest stretches: ${summary.stretches.map(([v, name]) => `${ms(v)} (${name})`).join("; ")}`,
  ];
}

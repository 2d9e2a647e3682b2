/**
 * The load benchmark's summary of a V8 CPU profile (bench/cpu-profile.ts): self time per function,
 * and the stretches of JavaScript between two pauses, which bound how long an unrelated request
 * waits for the isolate's thread.
 */
import { describe, expect, it } from "vitest";
import { type CpuProfile, summarizeProfile } from "../../bench/cpu-profile.ts";

const frame = (functionName: string, url = "", lineNumber = 0) => ({ functionName, url, lineNumber });

/** A profile whose samples, 1 ms apart, are the named nodes in order. */
function profileOf(names: readonly string[]): CpuProfile {
  const nodes = [
    { id: 1, callFrame: frame("(root)"), children: [2, 3, 4, 5, 6] },
    { id: 2, callFrame: frame("(idle)") },
    { id: 3, callFrame: frame("(program)") },
    { id: 4, callFrame: frame("decode", "https://x/index.js", 9) },
    { id: 5, callFrame: frame("encode", "https://x/index.js", 19) },
    { id: 6, callFrame: frame("(garbage collector)") },
  ];
  const ids = new Map(nodes.map((node) => [node.callFrame.functionName, node.id]));
  return {
    nodes,
    startTime: 0,
    endTime: names.length * 1000,
    samples: names.map((name) => ids.get(name) ?? 0),
    timeDeltas: names.map(() => 1000),
  };
}

describe("CPU profile summary", () => {
  it("sums self time per function and finds the longest runs of JavaScript between pauses", () => {
    const summary = summarizeProfile(
      profileOf([
        "decode",
        "decode",
        "encode",
        "(idle)",
        "encode",
        "(program)",
        "encode",
        "encode",
        "(garbage collector)",
        "encode",
        "(idle)",
      ]),
    );
    expect(summary.totalMs).toBe(11);
    // Garbage collection holds the thread too: it counts as JavaScript and inside a stretch.
    expect(summary.jsMs).toBe(8);
    expect(summary.top[0]).toEqual(["encode index.js:20", 5]);
    expect(summary.top).toContainEqual(["decode index.js:10", 2]);
    expect(summary.stretches).toEqual([
      [4, "encode index.js:20"],
      [3, "decode index.js:10"],
      [1, "encode index.js:20"],
    ]);
  });

  it("has no stretch in a profile of an idle isolate", () => {
    const summary = summarizeProfile(profileOf(["(idle)", "(program)", "(idle)"]));
    expect(summary.jsMs).toBe(0);
    expect(summary.stretches).toEqual([]);
  });
});

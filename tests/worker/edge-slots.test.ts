/**
 * Edge jobs share their isolate's one thread with every request, so they run a few at a time
 * (worker/edge-slots.ts): a burst of edge conversions started together never has more than
 * `EDGE_JOB_CONCURRENCY` of them past loading their inputs at once, and each still succeeds.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { createConverterClient } from "../../worker/converter-client.ts";
import { EDGE_JOB_CONCURRENCY, edgeSlots, Slots } from "../../worker/edge-slots.ts";
import { runJob } from "../../worker/job-runner.ts";
import { JOB_PROGRESS, type TaskRecord } from "../../worker/task-record.ts";
import { jpegSize, makePng } from "./fixtures.ts";
import { runningTask } from "./running-task.ts";

function pngTask(png: Uint8Array): Promise<TaskRecord> {
  const options = TOOLS["png-to-jpg"].options.parse({});
  return runningTask(png, { tool: "png-to-jpg", options, name: "a.png", kind: "png" });
}

describe("edge job slots", () => {
  it(`runs at most ${EDGE_JOB_CONCURRENCY} of 8 concurrent PNG → JPG jobs at once, and all of them`, async () => {
    expect(EDGE_JOB_CONCURRENCY).toBe(2);
    const png = await makePng(480, 360, (x, y) => [(x * 3) & 255, (y * 5) & 255, (x ^ y) & 255, 255]);
    const tasks = await Promise.all(Array.from({ length: 8 }, () => pngTask(png)));
    const deps = { files: env.FILES, converter: createConverterClient(env) };
    let active = 0;
    let peak = 0;
    const results = await Promise.all(
      tasks.map(async (task) => {
        const result = await runJob(task, deps, (percent) => {
          if (percent !== JOB_PROGRESS.inputsReady) return;
          active++;
          peak = Math.max(peak, active);
        });
        active--;
        return result;
      }),
    );
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(EDGE_JOB_CONCURRENCY);
    expect(edgeSlots.running).toBe(0);
    expect(edgeSlots.waiting).toBe(0);
    for (const result of results) {
      const [output] = result.outputs;
      const stored = await env.FILES.get(output?.key ?? "");
      expect(jpegSize(new Uint8Array(await (stored as R2ObjectBody).arrayBuffer()))).toEqual({
        width: 480,
        height: 360,
      });
    }
  });

  it("hands a freed slot to the first waiter; a second release frees nothing more", async () => {
    const slots = new Slots(1);
    const order: string[] = [];
    const first = await slots.acquire();
    const second = slots.acquire().then((release) => {
      order.push("second");
      return release;
    });
    const third = slots.acquire().then((release) => {
      order.push("third");
      return release;
    });
    expect([slots.running, slots.waiting]).toEqual([1, 2]);
    first();
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(["second", "third"]);
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
  });
});

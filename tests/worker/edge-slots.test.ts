/**
 * Edge jobs share their isolate's one thread with every request, so they run one at a time
 * (worker/edge-slots.ts): a burst of edge conversions started together never has more than
 * `EDGE_JOB_CONCURRENCY` of them past loading their inputs at once, the rest run in the converter,
 * and each still succeeds. A conversion gives the thread back between its steps, so other work
 * (a request, a timer) runs during it.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { type ConverterClient, createConverterClient } from "../../worker/converter-client.ts";
import { EDGE_JOB_CONCURRENCY, EDGE_JOB_QUEUE, edgeSlots, Slots } from "../../worker/edge-slots.ts";
import { runJob } from "../../worker/job-runner.ts";
import { JOB_PROGRESS, type TaskRecord } from "../../worker/task-record.ts";
import { jpegSize, makePng } from "./fixtures.ts";
import { runningTask } from "./running-task.ts";

function pngTask(png: Uint8Array, name: string): Promise<TaskRecord> {
  const options = TOOLS["png-to-jpg"].options.parse({});
  return runningTask(png, { tool: "png-to-jpg", options, name, kind: "png" });
}

describe("edge job slots", () => {
  it(`runs ${EDGE_JOB_CONCURRENCY} of 10 concurrent PNG → JPG jobs at once, queues ${EDGE_JOB_QUEUE} and sends the rest to the converter`, async () => {
    expect([EDGE_JOB_CONCURRENCY, EDGE_JOB_QUEUE]).toEqual([1, 0]);
    const png = await makePng(480, 360, (x, y) => [(x * 3) & 255, (y * 5) & 255, (x ^ y) & 255, 255]);
    const tasks = await Promise.all(Array.from({ length: 10 }, (_, i) => pngTask(png, `p${i}.png`)));
    const real = createConverterClient(env);
    const inConverter = new Set<string>();
    const converter: ConverterClient = {
      ...real,
      runJob: (tool, options, inputs, handlers) => {
        for (const input of inputs) inConverter.add(input.name);
        return real.runJob(tool, options, inputs, handlers);
      },
    };
    // Each job's inputs loaded and its end, in the order they happen.
    const events: { name: string; delta: 1 | -1 }[] = [];
    const results = await Promise.all(
      tasks.map(async (task) => {
        const name = task.inputs[0]?.name ?? "";
        const result = await runJob(task, { files: env.FILES, converter }, (percent) => {
          if (percent === JOB_PROGRESS.inputsReady) events.push({ name, delta: 1 });
        });
        events.push({ name, delta: -1 });
        return result;
      }),
    );
    expect(inConverter.size).toBe(10 - EDGE_JOB_CONCURRENCY - EDGE_JOB_QUEUE);
    let atEdge = 0;
    let peak = 0;
    for (const { name, delta } of events) {
      if (inConverter.has(name)) continue;
      atEdge += delta;
      peak = Math.max(peak, atEdge);
    }
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(EDGE_JOB_CONCURRENCY);
    expect([edgeSlots.running, edgeSlots.waiting]).toEqual([0, 0]);
    for (const result of results) {
      const [output] = result.outputs;
      const stored = await env.FILES.get(output?.key ?? "");
      expect(jpegSize(new Uint8Array(await (stored as R2ObjectBody).arrayBuffer()))).toEqual({
        width: 480,
        height: 360,
      });
    }
  });

  it("gives the thread back between the steps of a conversion", async () => {
    const png = await makePng(1200, 900, (x, y) => [(x * 7) & 255, (y * 3) & 255, (x + y) & 255, 255]);
    const task = await pngTask(png, "steps.png");
    // A timer that re-arms itself: it only fires when the job lets the thread go.
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks++;
      if (ticking) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const seen: { percent: number; ticks: number }[] = [];
    const result = await runJob(
      task,
      { files: env.FILES, converter: createConverterClient(env) },
      (percent) => seen.push({ percent, ticks }),
    );
    ticking = false;
    expect(result.outputs).toHaveLength(1);
    // Engine progress 10 % (codecs ready, before the decode) and 90 % (encoded) as the job reports them.
    const span = JOB_PROGRESS.converted - JOB_PROGRESS.converting;
    const ready = seen.find((s) => s.percent >= JOB_PROGRESS.converting + Math.round(span / 10));
    const encoded = seen.find((s) => s.percent >= JOB_PROGRESS.converting + Math.round((span * 9) / 10));
    expect(ready).toBeDefined();
    expect(encoded).toBeDefined();
    // At least after the decode and before the encode, the timer ran.
    expect((encoded?.ticks ?? 0) - (ready?.ticks ?? 0)).toBeGreaterThanOrEqual(2);
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

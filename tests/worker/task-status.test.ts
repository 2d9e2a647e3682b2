import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  downloadPath,
  HEALTH_PATH,
  healthStatusSchema,
  statusPath,
  TASK_ID_PATTERN,
  TOOLS,
} from "../../contract/index.ts";
import { converterHeard, converterHeardAt, converterKey } from "../../worker/converter-client.ts";
import {
  CONVERTER_STATUS_MAX_AGE_MS,
  CONVERTER_STATUS_TTL_MS,
  healthStatus,
  recentHealthStatus,
} from "../../worker/health-route.ts";
import { isTaskId, newTaskId } from "../../worker/task-id.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";
import { makePdf } from "./fixtures.ts";

const twoPages = () =>
  form("files", [
    { name: "a.pdf", bytes: makePdf(1, "A") },
    { name: "b.pdf", bytes: makePdf(1, "B") },
  ]);

/** Replaces the character at `index` by another base64url character. */
function altered(id: string, index: number): string {
  const replacement = id[index] === "A" ? "B" : "A";
  return id.slice(0, index) + replacement + id.slice(index + 1);
}

describe("task status", () => {
  it("answers a waiting status request at the task's next change, and at once without since", async () => {
    const client = new ApiClient();
    const started = Date.now();
    const taskId = await client.start(TOOLS["merge-pdf"].endpoint.path, twoPages());
    const seen = await client.waitForTask("pdf", taskId, 20_000);
    const last = seen.at(-1);
    expect(last?.state).toBe("SUCCESS");
    expect(last?.result?.facts.pages).toBe(2);
    // Every waiting answer brought a new revision: the server answered on changes, not on timeouts.
    const revisions = seen.map((status) => status.revision);
    expect(revisions).toEqual([...new Set(revisions)].sort((a, b) => a - b));
    // Far below the 3 s the first fixed poll interval alone used to take.
    expect(Date.now() - started).toBeLessThan(2500);

    // A finished task never changes: a waiting request on its revision answers at once.
    const again = Date.now();
    const finished = await client.status("pdf", taskId, last?.revision, 20);
    expect(finished.revision).toBe(last?.revision);
    expect(Date.now() - again).toBeLessThan(1000);
  });

  it("refuses a malformed wait or since with 400 BAD_REQUEST", async () => {
    const client = new ApiClient();
    const taskId = await newTaskId(env.CSRF_SECRET);
    for (const query of ["?wait=soon", "?since=-1", "?since=1.5"]) {
      const response = await client.fetch(`${statusPath("pdf", taskId)}${query}`);
      expect(response.status, query).toBe(400);
      expect((await errorOf(response)).error.code).toBe("BAD_REQUEST");
    }
  });

  it("deletes the uploads as soon as the task ends and keeps the result", async () => {
    const client = new ApiClient();
    const taskId = await client.start(TOOLS["merge-pdf"].endpoint.path, twoPages());
    expect((await client.waitForTask("pdf", taskId)).at(-1)?.state).toBe("SUCCESS");
    const keys = (await env.FILES.list({ prefix: `tasks/${taskId}/` })).objects.map((o) => o.key);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^tasks/${taskId}/out/`));
    expect((await client.fetch(downloadPath("pdf", taskId))).status).toBe(200);
  });
});

describe("task ids", () => {
  it("are URL-safe, match the contract and carry a tag only this Worker's key makes", async () => {
    const id = await newTaskId(env.CSRF_SECRET);
    expect(id).toMatch(TASK_ID_PATTERN);
    expect(encodeURIComponent(id)).toBe(id);
    expect(await isTaskId(env.CSRF_SECRET, id)).toBe(true);
    expect(await isTaskId("another-secret", id)).toBe(false);
    for (const index of [0, 21, 22, 37])
      expect(await isTaskId(env.CSRF_SECRET, altered(id, index))).toBe(false);
  });

  it("answer 404 TASK_NOT_FOUND when made up or altered", async () => {
    const client = new ApiClient();
    const real = await client.start(TOOLS["merge-pdf"].endpoint.path, twoPages());
    const madeUp = real.slice(0, 22) + "A".repeat(16);
    for (const id of [altered(real, 3), altered(real, 30), madeUp, "AAAAAAAAAAAAAAAAAAAAAA"]) {
      const response = await client.fetch(statusPath("pdf", id));
      expect(response.status, id).toBe(404);
      expect((await errorOf(response)).error.code).toBe("TASK_NOT_FOUND");
    }
    expect((await client.status("pdf", real)).task_id).toBe(real);
    await client.waitForTask("pdf", real);
  });
});

describe("health", () => {
  it("answers 200 with the converter's load while it runs", async () => {
    const response = await new ApiClient().fetch(HEALTH_PATH);
    expect(response.status).toBe(200);
    const body = healthStatusSchema.parse(await response.json());
    expect(body.ok).toBe(true);
    expect(body.converter.ok).toBe(true);
    expect(body.converter.capacity).toBeGreaterThan(0);
    expect(body.converter.running).toBeGreaterThanOrEqual(0);
    const runners = body.converter.runners;
    expect(runners?.busy).toBe(body.converter.running);
    expect((runners?.busy ?? 0) + (runners?.idle ?? 0) + (runners?.starting ?? 0)).toBe(
      body.converter.capacity,
    );
    expect(runners?.wedged).toBeLessThanOrEqual(runners?.replaced ?? 0);
  });

  it("answers from the converter's last answer, refreshed in the background once it is a second old", async () => {
    // A converter address of its own, so no other test's answer is reused.
    const own = { ...env, CONVERTER_URL: `${env.CONVERTER_URL}/` };
    const first = recentHealthStatus(own);
    expect(first.refresh).toBeDefined();
    expect((await first.answer).status).toBe(200);
    const at = Date.now();
    // Within the TTL: the last answer, no converter call.
    const soon = recentHealthStatus(own, at + CONVERTER_STATUS_TTL_MS / 2);
    expect(soon.refresh).toBeUndefined();
    expect(await soon.answer).toEqual(await first.answer);
    // Older than the TTL: still answered at once from the last answer, while one refresh starts.
    const stale = recentHealthStatus(own, at + CONVERTER_STATUS_TTL_MS + 1);
    expect(stale.refresh).toBeDefined();
    expect(await stale.answer).toEqual(await first.answer);
    expect(recentHealthStatus(own, at + CONVERTER_STATUS_TTL_MS + 2).refresh).toBeUndefined();
    await stale.refresh;
    // Too old to stand for the converter: the request waits for a fresh answer.
    const old = recentHealthStatus(own, Date.now() + CONVERTER_STATUS_MAX_AGE_MS);
    expect(old.refresh).toBeDefined();
    expect(old.answer).not.toBe(stale.answer);
    expect((await old.answer).status).toBe(200);
    const response = await new ApiClient().fetch(HEALTH_PATH);
    expect(response.headers.get("Server-Timing")).toMatch(/^converter;dur=\d+$/);
    await response.arrayBuffer();
  });

  it("keeps the last good answer while the converter streams jobs, and says down once it is silent", async () => {
    // The converter's own answer is passed in: a good one, then its health call failing (late).
    const up = { status: 200 as const, body: { ok: true, converter: { ok: true, running: 2, capacity: 2 } } };
    const down = { status: 503 as const, body: { ok: false, converter: { ok: false } } };
    const streaming = { ...env, CONVERTER_URL: `${env.CONVERTER_URL}/streaming` };
    const silent = { ...env, CONVERTER_URL: `${env.CONVERTER_URL}/silent` };
    for (const own of [streaming, silent]) {
      expect((await recentHealthStatus(own, Date.now(), async () => up).answer).status).toBe(200);
    }
    // A real job records it where health looks: the Durable Object's converter calls and the
    // health route share the isolate's record.
    const before = Date.now();
    const client = new ApiClient();
    const taskId = await client.start(TOOLS["merge-pdf"].endpoint.path, twoPages());
    expect((await client.waitForTask("pdf", taskId, 20_000)).at(-1)?.state).toBe("SUCCESS");
    expect(converterHeardAt(converterKey(env))).toBeGreaterThanOrEqual(before);
    // The first converter sent a job's frame just now (converter-client.ts records each one); after
    // the job above, which may take longer than CONVERTER_STATUS_MAX_AGE_MS on a loaded machine.
    converterHeard(streaming.CONVERTER_URL);
    const later = Date.now() + CONVERTER_STATUS_TTL_MS + 1;
    for (const own of [streaming, silent]) await recentHealthStatus(own, later, async () => down).refresh;
    const now = Date.now();
    expect(await recentHealthStatus(streaming, now, async () => down).answer).toEqual(up);
    expect(await recentHealthStatus(silent, now, async () => down).answer).toEqual(down);
    // Past the age at which a request waits for a refresh: heard from just now, the last good answer
    // is given at once instead of waiting for a converter call.
    const heardAt = Date.now() + 1000;
    converterHeard(streaming.CONVERTER_URL, heardAt);
    const never = () => new Promise<never>(() => {});
    const late = recentHealthStatus(streaming, heardAt + CONVERTER_STATUS_MAX_AGE_MS - 500, never);
    const waited = await Promise.race([late.answer, new Promise((r) => setTimeout(() => r("waited"), 200))]);
    expect(waited).toEqual(up);
  });

  it("answers 503 when the converter is down", async () => {
    const down = await healthStatus({ ...env, CONVERTER_URL: "http://127.0.0.1:1" });
    expect(down).toEqual({ status: 503, body: { ok: false, converter: { ok: false } } });
    // A recent answer of another converter never stands for this one.
    await recentHealthStatus(env).answer;
    expect(await recentHealthStatus({ ...env, CONVERTER_URL: "http://127.0.0.1:1" }).answer).toEqual(down);
  });
});

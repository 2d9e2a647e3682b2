import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiError } from "../../client/src/lib/api/api-error.ts";
import { MAX_TRANSIENT_FAILURES, pollTask } from "../../client/src/lib/api/poll-task.ts";
import type { TaskState, TaskStatus } from "../../contract/index.ts";

const TASK_ID = "A".repeat(38);

function status(state: TaskState, revision: number, progress = 0): TaskStatus {
  return {
    task_id: TASK_ID,
    tool: "merge-pdf",
    state,
    progress,
    revision,
    result:
      state === "SUCCESS"
        ? {
            download_url: `/api/pdf/download/${TASK_ID}`,
            original_filename: "a.pdf",
            filename: "a-merged.pdf",
            original_size: 10,
            new_size: 8,
            size_reduction_percent: 20,
            facts: { pages: 2 },
          }
        : null,
    error: null,
    error_code: null,
    error_context: null,
    expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  };
}

type Answer = TaskStatus | Response | Error;

/** A fake status endpoint: `answer` sees each request's URL; every request is recorded with its time. */
function serve(answer: (url: URL, call: number) => Answer | Promise<Answer>) {
  const requests: { url: URL; at: number }[] = [];
  vi.stubGlobal("fetch", async (input: string) => {
    const url = new URL(input, "https://tools.example");
    requests.push({ url, at: Date.now() });
    const value = await answer(url, requests.length - 1);
    if (value instanceof Error) throw value;
    return value instanceof Response ? value : new Response(JSON.stringify(value), { status: 200 });
  });
  return requests;
}

/** Runs pollTask until it calls onSuccess or onError. */
function poll(options: Parameters<typeof pollTask>[3] = {}) {
  const progress: TaskStatus[] = [];
  return new Promise<{ ok: boolean; error?: ApiError; progress: TaskStatus[] }>((resolve) => {
    pollTask(
      TASK_ID,
      "pdf",
      {
        onProgress: (s) => progress.push(s),
        onSuccess: () => resolve({ ok: true, progress }),
        onError: (error) => resolve({ ok: false, error, progress }),
      },
      options,
    );
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("pollTask", () => {
  it("checks at once, then waits on the server for each change: the end shows without a fixed delay", async () => {
    const started = Date.now();
    const requests = serve(async (_url, call) => {
      if (call === 0) return status("PENDING", 1);
      await sleep(40);
      return call === 1 ? status("PROGRESS", 2, 50) : status("SUCCESS", 3, 100);
    });
    const outcome = await poll();
    expect(outcome.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(requests[0]?.url.search).toBe("");
    expect(requests[1]?.url.searchParams.get("since")).toBe("1");
    expect(requests[1]?.url.searchParams.get("wait")).toBe("25");
    expect(requests[2]?.url.searchParams.get("since")).toBe("2");
    expect(outcome.progress.map((s) => [s.state, s.progress])).toEqual([
      ["PENDING", 0],
      ["PROGRESS", 50],
    ]);
  });

  it("falls back to the growing schedule when the server answers at once without a change", async () => {
    const requests = serve((_url, call) => (call < 5 ? status("QUEUED", 1) : status("SUCCESS", 2, 100)));
    const outcome = await poll({ initialIntervalMs: 60, backoffFactor: 2, maxIntervalMs: 200 });
    expect(outcome.ok).toBe(true);
    const gaps = requests.slice(1).map((r, i) => r.at - (requests[i]?.at ?? 0));
    // First check, then at once with since (changed from nothing), then 60, 120, 200, 200 ms apart.
    expect(gaps[0]).toBeLessThan(50);
    for (const [i, least] of [60, 120, 200, 200].entries())
      expect(gaps[i + 1]).toBeGreaterThanOrEqual(least - 5);
    // The queued state is reported once: only changes count as progress.
    expect(outcome.progress.map((s) => s.state)).toEqual(["QUEUED"]);
  });

  it("hands a failed task's text, code and context to the error handler (the error is text, spec §3)", async () => {
    serve(() => ({
      ...status("FAILURE", 4),
      error: "Invalid page: 9. PDF has 3 pages.",
      error_code: "INVALID_OPTIONS",
      error_context: { page_ranges_error: "invalidPage", page: 9, pages: 3 },
    }));
    const failed = await poll();
    expect(failed.ok).toBe(false);
    expect(failed.error?.message).toBe("Invalid page: 9. PDF has 3 pages.");
    expect(failed.error?.code).toBe("INVALID_OPTIONS");
    expect(failed.error?.context).toEqual({ page_ranges_error: "invalidPage", page: 9, pages: 3 });

    serve(() => status("FAILURE", 2));
    expect((await poll()).error?.message).toBe("Task failed");
  });

  it("rides out transient failures on the schedule, and gives up after too many in a row", async () => {
    serve((_url, call) =>
      call === 0 ? status("STARTED", 1) : call < 3 ? new TypeError("offline") : status("SUCCESS", 2, 100),
    );
    expect((await poll({ initialIntervalMs: 10 })).ok).toBe(true);

    serve((_url, call) => (call === 0 ? status("STARTED", 1) : new Response("", { status: 503 })));
    const failed = await poll({ initialIntervalMs: 5, maxIntervalMs: 10 });
    expect(failed.ok).toBe(false);
    expect(failed.error?.message).toBe("HTTP 503");
    expect(MAX_TRANSIENT_FAILURES).toBeGreaterThan(0);
  });

  it("reports a refused or unreadable status request at once", async () => {
    const notFound = serve(() =>
      Response.json({ error: { code: "TASK_NOT_FOUND", message: "No such task" } }, { status: 404 }),
    );
    const gone = await poll({ initialIntervalMs: 5 });
    expect(gone.error?.code).toBe("TASK_NOT_FOUND");
    expect(notFound).toHaveLength(1);

    const garbled = serve(() => new Response("not json", { status: 200 }));
    const unreadable = await poll({ initialIntervalMs: 5 });
    expect(unreadable.error?.message).toBe("Failed to check task status");
    expect(garbled).toHaveLength(1);
  });
});

/**
 * The language files' loader: a failed load is retried on the spec's schedule (5 more tries,
 * from 350 ms, doubling) through i18next's own retry, and a namespace with no file is not retried.
 */
import i18next from "i18next";
import { describe, expect, it, vi } from "vitest";
import { type LocaleUrl, localeBackend } from "../../client/src/lib/i18n/locale-backend.ts";

const STRINGS = { greeting: "Hallo" };

/** A fetch that fails `failures` times, then answers the strings; it records when it was called. */
function flakyFetch(failures: number) {
  const calls: number[] = [];
  const load = vi.fn(async (_url: string | URL | Request) => {
    calls.push(Date.now());
    if (calls.length <= failures) throw new TypeError("Failed to fetch");
    return Response.json(STRINGS);
  });
  return { load: load as unknown as typeof fetch, calls };
}

async function start(load: typeof fetch, urlOf: LocaleUrl = () => "/strings/de.json") {
  const instance = i18next.createInstance();
  await instance.use(localeBackend(urlOf, load)).init({ lng: "de", fallbackLng: false, ns: ["common"] });
  return instance;
}

describe("localeBackend", () => {
  it("retries a failed load 5 times, waiting 350 ms and doubling, and then shows the strings", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const { load, calls } = flakyFetch(5);
      const started = start(load);
      await vi.advanceTimersByTimeAsync(350 + 700 + 1400 + 2800 + 5600);
      const instance = await started;
      expect(calls).toEqual([0, 350, 1050, 2450, 5250, 10850]);
      expect(instance.t("greeting")).toBe("Hallo");
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives up after the fifth retry", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const { load, calls } = flakyFetch(6);
      const started = start(load);
      await vi.advanceTimersByTimeAsync(60_000);
      const instance = await started;
      expect(calls).toHaveLength(6);
      expect(instance.t("greeting")).toBe("greeting");
    } finally {
      vi.useRealTimers();
    }
  });

  it("treats a server error like a network error, and does not retry a namespace without a file", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      let answered = 0;
      const load = (async () => {
        answered++;
        return answered === 1 ? new Response("", { status: 503 }) : Response.json(STRINGS);
      }) as typeof fetch;
      const started = start(load);
      await vi.advanceTimersByTimeAsync(350);
      expect((await started).t("greeting")).toBe("Hallo");
      expect(answered).toBe(2);

      const missing = vi.fn(load);
      const none = start(missing, () => undefined);
      await vi.advanceTimersByTimeAsync(60_000);
      await none;
      expect(missing).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});

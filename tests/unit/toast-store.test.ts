/** Toasts (spec §4, §9): at most one shown, added, updated and dismissed, gone after 4000 ms. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  dismissToast,
  getToasts,
  showToast,
  subscribeToasts,
  TOAST_DURATION_MS,
  updateToast,
} from "../../client/src/lib/toast-store.ts";

describe("toast store", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    for (const toast of getToasts()) dismissToast(toast.id);
    vi.useRealTimers();
  });

  it("shows one toast at a time and dismisses it after 4000 ms", () => {
    showToast({ title: "First" });
    showToast({ title: "Second", variant: "destructive" });
    expect(getToasts().map((toast) => [toast.title, toast.variant])).toEqual([["Second", "destructive"]]);
    vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
  });

  it("updates a shown toast in place, telling its listeners, and restarts its timer on a new duration", () => {
    const heard = vi.fn();
    const stop = subscribeToasts(heard);
    const id = showToast({ title: "Uploading…", description: "report.pdf" });
    vi.advanceTimersByTime(3000);
    expect(updateToast(id, { title: "Uploaded", variant: "destructive", durationMs: 2000 })).toBe(true);
    expect(getToasts()).toEqual([
      { id, title: "Uploaded", description: "report.pdf", variant: "destructive", durationMs: 2000 },
    ]);
    expect(heard).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1999);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toHaveLength(0);
    expect(updateToast(id, { title: "Too late" })).toBe(false);
    stop();
  });

  it("keeps the running timer when the duration is not changed, and can clear a description", () => {
    const id = showToast({ title: "Saved", description: "details" });
    vi.advanceTimersByTime(3000);
    updateToast(id, { description: undefined });
    expect(getToasts()[0]?.description).toBeUndefined();
    vi.advanceTimersByTime(1000);
    expect(getToasts()).toHaveLength(0);
  });
});

import { useEffect, useRef, useState } from "react";
import { toApiError } from "../../lib/api/api-error";
import { validatePdf } from "../../lib/api/validate-pdf";
import type { PdfAnalysis } from "./use-pdf-analysis";

/**
 * Files up to this size are checked on the server as soon as they are added (an upload of its own).
 * Bigger ones are checked by the job itself, which names a bad file just the same: sending 100 MB
 * twice would cost more than the early answer is worth.
 */
export const PRECHECK_MAX_BYTES = 20 * 1024 * 1024;

const NO_PASSWORDS: ReadonlyMap<string, string> = new Map();

/** Checks running at once: the list stays responsive and the server sees a few requests at most. */
const PARALLEL_CHECKS = 2;

interface Item {
  readonly id: string;
  readonly file: File;
}

/**
 * The analysis of every PDF of a list (Merge: several files), keyed by item id: "analyzing" while
 * a check runs, "ready" with the page count, "error" with the server's reason (encrypted, damaged,
 * no pages), "idle" for files too big to check before the job. Each file is checked once, however
 * the list is reordered; removed files are forgotten and their checks cancelled. A password given
 * for an item (`passwords`, by id) checks it again, opened with it.
 */
export function usePdfChecks(
  items: readonly Item[],
  passwords: ReadonlyMap<string, string> = NO_PASSWORDS,
): ReadonlyMap<string, PdfAnalysis> {
  const [results, setResults] = useState<ReadonlyMap<string, PdfAnalysis>>(new Map());
  const started = useRef(new Map<string, AbortController>());
  /** The password each started check used. */
  const triedWith = useRef(new Map<string, string | undefined>());
  const queue = useRef<Item[]>([]);
  const running = useRef(0);

  useEffect(() => {
    const present = new Set(items.map((item) => item.id));
    for (const [id, controller] of started.current) {
      if (present.has(id) && triedWith.current.get(id) === passwords.get(id)) continue;
      controller.abort();
      started.current.delete(id);
    }
    queue.current = queue.current.filter((item) => present.has(item.id));
    const fresh = items.filter((item) => !started.current.has(item.id));
    for (const item of fresh) {
      started.current.set(item.id, new AbortController());
      triedWith.current.set(item.id, passwords.get(item.id));
      if (item.file.size <= PRECHECK_MAX_BYTES) queue.current.push(item);
    }
    setResults((previous) => {
      const next = new Map([...previous].filter(([id]) => present.has(id)));
      for (const item of fresh)
        next.set(item.id, item.file.size <= PRECHECK_MAX_BYTES ? { state: "analyzing" } : { state: "idle" });
      return next;
    });

    const pump = () => {
      while (running.current < PARALLEL_CHECKS) {
        const item = queue.current.shift();
        if (item === undefined) return;
        const controller = started.current.get(item.id);
        if (controller === undefined || controller.signal.aborted) continue;
        running.current++;
        const settle = (value: PdfAnalysis) => {
          if (!controller.signal.aborted) setResults((previous) => new Map(previous).set(item.id, value));
        };
        validatePdf(item.file, controller.signal, passwords.get(item.id))
          .then(
            (answer) => settle({ state: "ready", pages: answer.total_pages, repaired: answer.repaired }),
            (error: unknown) => settle({ state: "error", error: toApiError(error) }),
          )
          .finally(() => {
            running.current--;
            pump();
          });
      }
    };
    pump();
  }, [items, passwords]);

  // Unmount: cancel whatever is still running (a remount, as in StrictMode, starts the checks again).
  useEffect(
    () => () => {
      for (const controller of started.current.values()) controller.abort();
      started.current.clear();
      queue.current = [];
    },
    [],
  );
  return results;
}

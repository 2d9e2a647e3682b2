/** Spec §2, §4 and §9: a 1.5 s loading spinner, then a 5-second countdown, then dismissible. */
export const ACCESS_LOADING_MS = 1500;
export const ACCESS_COUNTDOWN_SECONDS = 5;

export type AccessPhase =
  | { readonly name: "loading" }
  | { readonly name: "waiting"; readonly seconds: number }
  | { readonly name: "ready" };

/**
 * Runs the notice's clock: reports "loading" at once, "waiting" with 5, 4, … 1 seconds left from
 * 1.5 s on, and "ready" when the countdown reaches zero. Returns a function that stops it.
 */
export function runAccessClock(onPhase: (phase: AccessPhase) => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const count = (seconds: number) => {
    if (seconds === 0) {
      onPhase({ name: "ready" });
      return;
    }
    onPhase({ name: "waiting", seconds });
    timer = setTimeout(() => count(seconds - 1), 1000);
  };
  onPhase({ name: "loading" });
  timer = setTimeout(() => count(ACCESS_COUNTDOWN_SECONDS), ACCESS_LOADING_MS);
  return () => clearTimeout(timer);
}

const RELOAD_KEY = "preload-error-reload-at";
/** A second failure within this time is not reloaded again (no reload loop). */
const RELOAD_WINDOW_MS = 10_000;

/**
 * After a deploy, an open tab may ask for chunks that no longer exist; Vite then raises
 * `vite:preloadError`. The page is reloaded once to fetch the new build; if that also fails, the
 * error is left to the route's error screen.
 */
export function reloadOnPreloadError() {
  window.addEventListener("vite:preloadError", (event) => {
    let last = 0;
    try {
      last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
      if (Date.now() - last < RELOAD_WINDOW_MS) return;
      sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
    } catch {
      return;
    }
    event.preventDefault();
    window.location.reload();
  });
}

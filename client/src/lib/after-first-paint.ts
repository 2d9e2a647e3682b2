/** Longest wait for a first paint the browser does not report (it then goes on without it). */
const PAINT_WAIT_MS = 3000;

/**
 * Resolves once the browser has presented the prerendered page's first contentful paint (Paint
 * Timing's `first-contentful-paint`, reported after the frame is on the screen), so that work started
 * then (evaluating the app, hydrating) cannot delay it. At once when there is nothing to paint before
 * the app renders (`container` empty: the development server's page) or the page is hidden (no frame
 * is drawn until it is shown). Where the browser does not report paints, after the next frame has
 * been produced (an animation frame, then a task). Never later than PAINT_WAIT_MS.
 */
export function afterFirstPaint(container: Element | null): Promise<void> {
  return new Promise((resolve) => {
    if (!container?.hasChildNodes() || document.visibilityState === "hidden") return resolve();
    if (performance.getEntriesByName("first-contentful-paint").length > 0) return resolve();
    const timer = setTimeout(done, PAINT_WAIT_MS);
    let observer: PerformanceObserver | undefined;
    function done() {
      clearTimeout(timer);
      observer?.disconnect();
      resolve();
    }
    if (!globalThis.PerformanceObserver?.supportedEntryTypes?.includes("paint")) {
      requestAnimationFrame(() => setTimeout(done, 0));
      return;
    }
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName("first-contentful-paint").length > 0) done();
    });
    observer.observe({ type: "paint", buffered: true });
  });
}

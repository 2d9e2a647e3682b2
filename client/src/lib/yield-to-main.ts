/**
 * Ends the current task and resumes in a new one, so that the browser can handle input (and count
 * no long task) between two pieces of start-up work: `scheduler.yield()` where the browser has it
 * (the continuation runs before other queued tasks), else a zero-delay timer.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

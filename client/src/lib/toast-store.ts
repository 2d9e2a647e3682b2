/** Toasts (spec §4, §9): at most one visible, auto-dismissed after 4000 ms unless told otherwise. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 4000;

export type ToastVariant = "default" | "destructive";

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  durationMs?: number;
}

export interface Toast extends Required<Omit<ToastInput, "description">> {
  id: number;
  description: string | undefined;
}

type Listener = () => void;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function emit() {
  for (const listener of listeners) listener();
}

export function dismissToast(id: number) {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
  toasts = toasts.filter((toast) => toast.id !== id);
  emit();
}

/** Shows a toast (the newest replaces older ones beyond the limit); returns its id. */
export function showToast(input: ToastInput): number {
  const toast: Toast = {
    id: nextId++,
    title: input.title,
    description: input.description,
    variant: input.variant ?? "default",
    durationMs: input.durationMs ?? TOAST_DURATION_MS,
  };
  const kept = [toast, ...toasts].slice(0, TOAST_LIMIT);
  for (const old of toasts) {
    if (!kept.includes(old)) {
      const timer = timers.get(old.id);
      if (timer !== undefined) clearTimeout(timer);
      timers.delete(old.id);
    }
  }
  toasts = kept;
  timers.set(
    toast.id,
    setTimeout(() => dismissToast(toast.id), toast.durationMs),
  );
  emit();
  return toast.id;
}

/**
 * Changes a toast still shown (spec §4: toasts are added, updated and dismissed); a new duration
 * restarts its timer from now. Returns whether it was still shown.
 */
export function updateToast(id: number, change: Partial<ToastInput>): boolean {
  const current = toasts.find((toast) => toast.id === id);
  if (current === undefined) return false;
  const updated: Toast = {
    ...current,
    ...(change.title === undefined ? {} : { title: change.title }),
    ...("description" in change ? { description: change.description } : {}),
    ...(change.variant === undefined ? {} : { variant: change.variant }),
    ...(change.durationMs === undefined ? {} : { durationMs: change.durationMs }),
  };
  toasts = toasts.map((toast) => (toast.id === id ? updated : toast));
  if (change.durationMs !== undefined) {
    const timer = timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.set(
      id,
      setTimeout(() => dismissToast(id), change.durationMs),
    );
  }
  emit();
  return true;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}

/**
 * The gate every tool start passes (useToolTask and the image batch): when the free conversions of
 * the last 24 hours are used up, it asks the Free Tool Access dialog (mounted once by the tool
 * route) and waits for the visitor's answer. Without a mounted dialog it never blocks.
 */
type Listener = () => void;

let request: { id: number; settle: (proceed: boolean) => void } | null = null;
let nextId = 1;
let dialogs = 0;
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener();
}

/** Resolves true when the tool may start now, false when the visitor closed the notice instead. */
export function awaitFreeToolAccess(usedUp: () => boolean): Promise<boolean> {
  if (dialogs === 0 || !usedUp()) return Promise.resolve(true);
  request?.settle(false);
  return new Promise((resolve) => {
    request = { id: nextId++, settle: resolve };
    emit();
  });
}

/** The dialog's answer: continue to the tool (true) or not (false). */
export function settleFreeToolAccess(proceed: boolean): void {
  const current = request;
  request = null;
  emit();
  current?.settle(proceed);
}

/** The id of the request the dialog should show, or null. */
export function freeToolAccessRequest(): number | null {
  return request?.id ?? null;
}

/** Subscribes a mounted dialog; when the last one goes (page left), a waiting start is abandoned. */
export function connectFreeToolAccessDialog(listener: Listener): () => void {
  dialogs++;
  listeners.add(listener);
  return () => {
    dialogs--;
    listeners.delete(listener);
    if (dialogs === 0) settleFreeToolAccess(false);
  };
}

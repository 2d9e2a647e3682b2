import { useSyncExternalStore } from "react";

/**
 * A polite live region present from the first render, so screen readers hear messages put into it
 * later (a region created together with its text is often not read). One message at a time; the
 * same text announced twice is read twice (a counter keys the node).
 */
let message = { text: "", id: 0 };
const listeners = new Set<() => void>();

export function announce(text: string) {
  message = { text, id: message.id + 1 };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => message;

export function LiveAnnouncer() {
  const { text, id } = useSyncExternalStore(subscribe, current, current);
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="live-announcer">
      {text ? <p key={id}>{text}</p> : null}
    </div>
  );
}

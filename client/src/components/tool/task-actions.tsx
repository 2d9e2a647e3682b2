import type { ReactNode } from "react";
import { TaskProgress } from "./task-progress";
import type { TaskPhase } from "./use-tool-task";

interface TaskActionsProps {
  phase: TaskPhase;
  busy: boolean;
  /** The action cannot start (besides while busy). */
  disabled: boolean;
  label: string;
  busyLabel: string;
  onStart: () => void;
  testId: string;
  /** The button takes the whole width of its column. */
  block?: boolean;
  /** Shown above the progress (e.g. why the action is not possible yet). */
  children?: ReactNode;
}

/** A tool's main action: the task's progress and the button that starts it (busy label while it runs). */
export function TaskActions(props: TaskActionsProps) {
  const { phase, busy, disabled, label, busyLabel, onStart, testId, block = false, children } = props;
  return (
    <div className="tool-actions">
      {children}
      <TaskProgress phase={phase} />
      <button
        type="button"
        className={`button button--primary button--large${block ? " button--block" : ""}`}
        disabled={busy || disabled}
        aria-busy={busy}
        onClick={onStart}
        data-testid={testId}
      >
        {busy ? (
          <span className="tool-actions__busy">
            <span className="spinner" aria-hidden="true" />
            {busyLabel}
          </span>
        ) : (
          label
        )}
      </button>
    </div>
  );
}

import { useTranslation } from "react-i18next";
import type { TaskPhase } from "./use-tool-task";

/** Upload percentage, then processing progress (or the wait for a converter), as a labelled progress bar. */
export function TaskProgress({ phase }: { phase: TaskPhase }) {
  const { t } = useTranslation();
  if (phase.name !== "uploading" && phase.name !== "processing") return null;
  const label =
    phase.name === "uploading"
      ? t("task.uploading", { percent: phase.percent })
      : phase.queued
        ? t("task.queued")
        : phase.percent > 0
          ? t("task.processing", { percent: phase.percent })
          : t("task.waiting");
  return (
    <div className="task-progress" data-testid="task-progress">
      <p className="task-progress__label" id="task-progress-label" aria-live="polite">
        {label}
      </p>
      <progress
        className="task-progress__bar"
        max={100}
        value={phase.percent}
        aria-labelledby="task-progress-label"
      />
    </div>
  );
}

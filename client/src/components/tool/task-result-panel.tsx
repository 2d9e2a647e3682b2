import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatFileSize } from "../../lib/format/file-size";
import { formatCount } from "../../lib/format/number";
import { type ResultFact, ResultPanel } from "./result-panel";
import { downloadResult, type TaskPhase } from "./use-tool-task";

interface TaskResultPanelProps {
  phase: Extract<TaskPhase, { name: "done" }>;
  title: string;
  anotherLabel: string;
  /** Facts of the tool's own after the file name, page count and size. */
  facts?: readonly ResultFact[];
  /** Deletes the task's files; resolves true when they are gone (useToolTask's deleteNow). */
  deleteNow: () => Promise<boolean>;
  onDeleted: () => void;
  onAnother: () => void;
  /** Shown after the facts, before the actions (a tool's own notice). */
  children?: ReactNode;
}

/**
 * The result of a task that produced one file: its name, page count (when the engine counted
 * pages) and size, then the tool's own facts; download, delete now, start again.
 */
export function TaskResultPanel({ phase, facts = [], deleteNow, onDeleted, ...props }: TaskResultPanelProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { result } = phase;
  const pages = result.facts.pages;
  const all: ResultFact[] = [
    { id: "name", label: t("result.fileName"), value: result.filename },
    ...(typeof pages === "number"
      ? [{ id: "pages", label: t("result.pages"), value: formatCount(pages, language) }]
      : []),
    { id: "size", label: t("result.size"), value: formatFileSize(result.new_size, t, language) },
    ...facts,
  ];
  return (
    <ResultPanel
      {...props}
      facts={all}
      downloadLabel={t("result.download")}
      expiresAt={phase.expiresAt}
      deleting={phase.deleting}
      onDownload={() => downloadResult(result)}
      onDelete={() => void deleteNow().then((deleted) => deleted && onDeleted())}
    />
  );
}

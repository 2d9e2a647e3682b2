import { type KeyboardEvent, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ChosenPdf } from "../../client/src/components/pdf/chosen-pdf";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { documentFacts, ResultPanel } from "../../client/src/components/tool/result-panel";
import { TaskProgress } from "../../client/src/components/tool/task-progress";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { finishedTaskActions, useToolTask } from "../../client/src/components/tool/use-tool-task";
import { formatFileSize } from "../../client/src/lib/format/file-size";
import { formatCount } from "../../client/src/lib/format/number";
import { showApiError } from "../../client/src/lib/show-error";
import {
  type BoardPage,
  deletePages,
  duplicatePages,
  initialPages,
  insertBlank,
  movePage,
  rotatePages,
  toggleSelection,
} from "./board.ts";
import { PageBoard } from "./page-board";
import { formatOrder } from "./page-order.ts";
import tool from "./tool.ts";
import "./organize-pdf.css";

/** Steps kept for undo. */
const UNDO_STEPS = 100;

/**
 * Organize PDF: pick one PDF, then move, turn, delete, duplicate pages and insert blank ones on the
 * thumbnails (every step can be undone); save the whole new order, or extract the selected pages
 * as a new PDF. The server applies the order (`order` field) to the original file.
 */
export default function OrganizePdfPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { file, setFile, analysis } = usePickedPdf();
  const [pages, setPages] = useState<readonly BoardPage[]>([]);
  const [history, setHistory] = useState<readonly (readonly BoardPage[])[]>([]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const task = useToolTask(tool, (error) => showApiError(shared, t("failed"), error));
  const { phase, busy } = task;
  const pageCount = analysis.state === "ready" ? analysis.pages : null;

  // Setters are stable: one function for the first pages of a file and for "Start over".
  const startFresh = useCallback((count: number | null) => {
    setPages(count === null ? [] : initialPages(count));
    setHistory([]);
    setSelected(new Set());
    setAnchor(null);
  }, []);
  useEffect(() => startFresh(pageCount), [pageCount, startFresh]);

  const change = (next: BoardPage[]) => {
    setHistory((past) => [...past.slice(-(UNDO_STEPS - 1)), pages]);
    setPages(next);
    const keys = new Set(next.map((page) => page.key));
    setSelected((current) => new Set([...current].filter((key) => keys.has(key))));
  };
  const undo = () => {
    const previous = history.at(-1);
    if (previous === undefined) return;
    setHistory(history.slice(0, -1));
    setPages(previous);
  };
  const choose = (next: File | null) => {
    task.reset();
    setFile(next);
    startFresh(null);
  };

  if (phase.name === "done") {
    const removed = phase.result.facts.removed_pages;
    const facts = [
      ...documentFacts(phase.result, shared, language),
      ...(typeof removed === "number" && removed > 0
        ? [{ id: "removed", label: t("removedPages"), value: formatCount(removed, language) }]
        : []),
      {
        id: "size",
        label: shared("result.size"),
        value: formatFileSize(phase.result.new_size, shared, language),
      },
    ];
    return (
      <ToolShell toolId={tool.id}>
        <ResultPanel
          title={t("resultTitle")}
          facts={facts}
          downloadLabel={shared("result.download")}
          anotherLabel={t("another")}
          {...finishedTaskActions(task, phase, () => choose(null))}
          onAnother={() => choose(null)}
        />
      </ToolShell>
    );
  }

  const ready = file !== null && pageCount !== null;
  const chosen = pages.filter((page) => selected.has(page.key));
  const targets = chosen.length > 0 ? selected : new Set(pages.map((page) => page.key));
  const run = (order: readonly BoardPage[]) => {
    if (file !== null && order.length > 0) void task.run([file], { order: formatOrder(order) });
  };
  const all = chosen.length === pages.length && pages.length > 0;
  const none = pages.length === 0;
  // The toolbar's actions apply to the selected pages; turning applies to every page when none is.
  const toolbar = [
    {
      id: "select",
      label: all ? t("actions.selectNone") : t("actions.selectAll"),
      disabled: none,
      run: () => setSelected(all ? new Set() : new Set(pages.map((page) => page.key))),
    },
    {
      id: "left",
      label: t("actions.rotateLeft"),
      disabled: none,
      run: () => change(rotatePages(pages, targets, -90)),
    },
    {
      id: "right",
      label: t("actions.rotateRight"),
      disabled: none,
      run: () => change(rotatePages(pages, targets, 90)),
    },
    {
      id: "duplicate",
      label: t("actions.duplicate"),
      disabled: chosen.length === 0,
      run: () => change(duplicatePages(pages, selected)),
    },
    {
      id: "blank",
      label: t("actions.insertBlank"),
      disabled: false,
      run: () => change(insertBlank(pages, selected)),
    },
    {
      id: "delete",
      label: t("actions.delete"),
      disabled: chosen.length === 0,
      run: () => change(deletePages(pages, selected)),
    },
    { id: "undo", label: t("actions.undo"), disabled: history.length === 0, run: undo },
    {
      id: "reset",
      label: t("actions.reset"),
      disabled: history.length === 0,
      run: () => startFresh(pageCount),
    },
  ];
  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && !busy) {
      event.preventDefault();
      undo();
    }
  };

  return (
    <ToolShell toolId={tool.id}>
      <div className="organize-pdf">
        <FileDropzone
          limits={tool.input}
          disabled={busy}
          compact={file !== null}
          onAccept={(files) => choose(files[0] ?? null)}
        />
        {file !== null ? (
          <ChosenPdf file={file} analysis={analysis} disabled={busy} onRemove={() => choose(null)} />
        ) : null}
        {ready ? (
          <section className="organize-pdf__pages" aria-label={t("pagesTitle")} onKeyDown={onKeyDown}>
            <p className="organize-pdf__hint">{t("hint")}</p>
            <div className="organize-pdf__toolbar" role="toolbar" aria-label={t("actions.label")}>
              {toolbar.map((action) => (
                <button
                  key={action.id}
                  type="button"
                  className={`button button--small${action.id === "delete" ? " button--danger-outline" : ""}`}
                  disabled={busy || action.disabled}
                  onClick={action.run}
                >
                  {action.label}
                </button>
              ))}
            </div>
            <p className="organize-pdf__status" aria-live="polite" data-testid="organize-status">
              {chosen.length > 0 ? `${t("selectedCount", { count: chosen.length })} · ` : ""}
              {pages.length > 0 ? t("pageCount", { count: pages.length }) : t("empty")}
            </p>
            <PageBoard
              file={file}
              pages={pages}
              selected={selected}
              disabled={busy}
              onMove={(from, to) => change(movePage(pages, from, to))}
              onToggle={(key, shift) => {
                setSelected(toggleSelection(pages, selected, key, anchor, shift));
                setAnchor(key);
              }}
              onRotate={(key) => change(rotatePages(pages, new Set([key]), 90))}
              onDelete={(key) => change(deletePages(pages, new Set([key])))}
            />
          </section>
        ) : null}
        <div className="tool-actions organize-pdf__actions">
          <TaskProgress phase={phase} />
          <button
            type="button"
            className="button button--large"
            disabled={!ready || busy || chosen.length === 0}
            onClick={() => run(chosen)}
            data-testid="extract-button"
          >
            {t("extract")}
          </button>
          <button
            type="button"
            className="button button--primary button--large"
            disabled={!ready || busy || pages.length === 0}
            aria-busy={busy}
            onClick={() => run(pages)}
            data-testid="organize-button"
          >
            {busy ? t("organizing") : t("organize")}
          </button>
        </div>
      </div>
    </ToolShell>
  );
}

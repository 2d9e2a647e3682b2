import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PageThumbnail } from "../../client/src/components/pdf/page-thumbnails";
import { setPdfPassword } from "../../client/src/components/pdf/pdf-pages";
import { needsPassword, PdfPasswordPrompt } from "../../client/src/components/pdf/pdf-password-prompt";
import { usePdfChecks } from "../../client/src/components/pdf/use-pdf-checks";
import { type ChosenFile, toChosenFiles } from "../../client/src/components/sortable-files/chosen-file";
import { SortableFileList } from "../../client/src/components/sortable-files/sortable-file-list";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { documentFacts, ResultPanel } from "../../client/src/components/tool/result-panel";
import { TaskActions } from "../../client/src/components/tool/task-actions";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { finishedTaskActions, useToolTask } from "../../client/src/components/tool/use-tool-task";
import { formatFileSize } from "../../client/src/lib/format/file-size";
import { apiErrorMessage, showApiError } from "../../client/src/lib/show-error";
import { showToast } from "../../client/src/lib/toast-store";
import tool from "./tool.ts";
import "./merge-pdf.css";

/** Merging needs at least two files. */
const MIN_FILES = 2;

/** Merge PDFs: choose, order, merge with upload and processing progress, download or delete. */
export default function MergePdfPage() {
  const { t, i18n } = useTranslation([tool.id, "common"]);
  // Shared helpers take the common namespace.
  const { t: shared } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const [items, setItems] = useState<ChosenFile[]>([]);
  const [problem, setProblem] = useState<{ id: string; message: string } | null>(null);
  // Passwords typed beside protected files, by item id: their checks, previews and the job use them.
  const [passwords, setPasswords] = useState<ReadonlyMap<string, string>>(new Map());
  // On error the files stay selected so the user can retry; a file the server names is marked.
  const task = useToolTask(tool, (error) => {
    const item = error.fileIndex === null ? undefined : items[error.fileIndex];
    if (item === undefined) {
      showApiError(shared, shared("errors.mergeFailed"), error);
      return;
    }
    const message = shared(error.localeKey);
    setProblem({ id: item.id, message });
    showToast({
      variant: "destructive",
      title: shared("errors.mergeFailed"),
      description: shared("errors.fileProblem", { name: item.file.name, message }),
    });
  });
  const { phase, busy } = task;
  // Each file is checked as it is added, so a bad one is named before the whole job is uploaded.
  const checks = usePdfChecks(items, passwords);
  const checkOf = (item: ChosenFile) => checks.get(item.id);
  const lockedOf = (item: ChosenFile) => {
    const check = checkOf(item);
    return check?.state === "error" && needsPassword(check.error) ? check.error : null;
  };
  const problemOf = (item: ChosenFile): string | undefined => {
    if (problem?.id === item.id) return problem.message;
    const check = checkOf(item);
    // A protected file says why under its password field instead.
    return check?.state === "error" && lockedOf(item) === null
      ? apiErrorMessage(shared, check.error)
      : undefined;
  };
  const passwordPrompt = (item: ChosenFile) => {
    const locked = lockedOf(item);
    if (locked === null) return null;
    return (
      <PdfPasswordPrompt
        error={locked}
        disabled={busy}
        onPassword={(password) => {
          setPdfPassword(item.file, password);
          setPasswords((current) => new Map(current).set(item.id, password));
        }}
      />
    );
  };
  /** The job's `passwords` field (one per file, in order) when any file has one. */
  const passwordFields = (): Record<string, string> =>
    items.some((item) => passwords.has(item.id))
      ? { passwords: JSON.stringify(items.map((item) => passwords.get(item.id) ?? "")) }
      : {};
  const detailOf = (item: ChosenFile): string | undefined => {
    const check = checkOf(item);
    if (check?.state === "analyzing") return shared("fileList.checking");
    return check?.state === "ready" ? shared("fileList.pages", { count: check.pages }) : undefined;
  };
  const checking = items.some((item) => checkOf(item)?.state === "analyzing");
  const refused = items.some((item) => checkOf(item)?.state === "error");

  const changeItems = (next: ChosenFile[]) => {
    setItems(next);
    if (problem && !next.some((item) => item.id === problem.id)) setProblem(null);
  };

  const startOver = () => {
    task.reset();
    setItems([]);
    setProblem(null);
    setPasswords(new Map());
  };

  if (phase.name === "done") {
    const { repaired_files: repaired } = phase.result.facts;
    const facts = [
      ...documentFacts(phase.result, shared, language),
      { id: "size", label: t("result.size"), value: formatFileSize(phase.result.new_size, shared, language) },
      // Damaged files MuPDF could repair were merged; the user should know which result to check.
      ...(typeof repaired === "number" && repaired > 0
        ? [{ id: "repaired", label: t("repairedLabel"), value: t("repaired", { count: repaired }) }]
        : []),
    ];
    return (
      <ToolShell toolId={tool.id}>
        <ResultPanel
          title={t("resultTitle")}
          facts={facts}
          downloadLabel={t("result.download")}
          anotherLabel={t("another")}
          {...finishedTaskActions(task, phase, () => setItems([]))}
          onAnother={startOver}
        />
      </ToolShell>
    );
  }

  const canMerge = items.length >= MIN_FILES && !busy && !checking && !refused;
  return (
    <ToolShell toolId={tool.id}>
      <div className="merge-tool">
        <FileDropzone
          limits={tool.input}
          existing={items.map((item) => item.file)}
          disabled={busy}
          compact={items.length > 0}
          onAccept={(files) => changeItems([...items, ...toChosenFiles(files)])}
        />
        {items.length > 0 ? (
          <SortableFileList
            items={items}
            title={t("listTitle")}
            disabled={busy}
            problemOf={problemOf}
            detailOf={detailOf}
            renderThumbnail={(item) => (
              // A password typed later draws the preview again, opened with it.
              <PageThumbnail key={passwords.get(item.id) ?? ""} file={item.file} page={1} width={40} />
            )}
            renderFooter={passwordPrompt}
            onChange={changeItems}
          />
        ) : null}
        <TaskActions
          phase={phase}
          busy={busy}
          disabled={!canMerge}
          label={t("merge")}
          busyLabel={t("merging")}
          onStart={() => {
            setProblem(null);
            void task.run(
              items.map((item) => item.file),
              passwordFields(),
            );
          }}
          testId="merge-button"
        >
          {items.length > 0 && items.length < MIN_FILES ? (
            <p className="tool-actions__hint">{t("needTwo")}</p>
          ) : null}
          {refused ? <p className="tool-actions__hint">{t("removeBad")}</p> : null}
        </TaskActions>
      </div>
    </ToolShell>
  );
}

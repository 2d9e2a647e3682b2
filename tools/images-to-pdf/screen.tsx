import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type ChosenFile, toChosenFiles } from "../../client/src/components/sortable-files/chosen-file";
import { SortableFileList } from "../../client/src/components/sortable-files/sortable-file-list";
import { useFileProblem } from "../../client/src/components/sortable-files/use-file-problem";
import { ChoiceGroup } from "../../client/src/components/tool/choice-group";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { TaskActions } from "../../client/src/components/tool/task-actions";
import { TaskResultPanel } from "../../client/src/components/tool/task-result-panel";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { downloadResult, useToolTask } from "../../client/src/components/tool/use-tool-task";
import { showErrorMessage } from "../../client/src/lib/show-error";
import { ImageThumbnail } from "./image-thumbnail";
import tool from "./tool.ts";
import "./images-to-pdf.css";

const MARGINS = tool.options.shape.margin.unwrap().options;
const ORIENTATIONS = tool.options.shape.orientation.unwrap().options;
type Margin = (typeof MARGINS)[number];
type Orientation = (typeof ORIENTATIONS)[number];

/** Spec §5: every file of a selection must be an image, or the whole selection is refused. */
const isImage = (file: File) => file.type.startsWith("image/");

/** Images to PDF: choose and order images, pick margin and orientation, convert, download. */
export default function ImagesToPdfPage() {
  const { t } = useTranslation([tool.id, "common"]);
  // Shared helpers take the common namespace.
  const { t: shared } = useTranslation();
  const [items, setItems] = useState<ChosenFile[]>([]);
  const [margin, setMargin] = useState<Margin>("small");
  const [orientation, setOrientation] = useState<Orientation>("portrait");
  const { problemOf, markProblem, clearProblem } = useFileProblem(items);
  // On error the images stay chosen so the user can retry; an image the server names is marked.
  const task = useToolTask(tool, (error) => {
    const message = shared(error.localeKey);
    const item = error.fileIndex === null ? undefined : items[error.fileIndex];
    if (item) markProblem(item.id, message);
    showErrorMessage(
      shared,
      item ? shared("errors.fileProblem", { name: item.file.name, message }) : message,
    );
  });
  const { phase, busy } = task;

  // Spec §4: on success the browser goes to the download address (once per result).
  const downloaded = useRef<string | null>(null);
  useEffect(() => {
    if (phase.name !== "done" || downloaded.current === phase.taskId) return;
    downloaded.current = phase.taskId;
    downloadResult(phase.result);
  }, [phase]);

  const startOver = () => {
    task.reset();
    setItems([]);
  };

  if (phase.name === "done") {
    const animated = phase.result.facts.first_frame_only;
    return (
      <ToolShell toolId={tool.id}>
        <TaskResultPanel
          phase={phase}
          title={t("resultTitle")}
          anotherLabel={t("another")}
          facts={
            typeof animated === "number" && animated > 0
              ? [{ id: "animated", label: t("animatedLabel"), value: t("firstFrame", { count: animated }) }]
              : []
          }
          deleteNow={task.deleteNow}
          onDeleted={() => setItems([])}
          onAnother={startOver}
        />
      </ToolShell>
    );
  }

  return (
    <ToolShell toolId={tool.id}>
      <div className="images-to-pdf">
        <div className="images-to-pdf__controls">
          <FileDropzone
            limits={tool.input}
            accept={{ "image/*": [] }}
            refuseFile={(file) => (isImage(file) ? null : shared("errors.onlyImages"))}
            existing={items.map((item) => item.file)}
            disabled={busy}
            compact={items.length > 0}
            onAccept={(files) => setItems([...items, ...toChosenFiles(files)])}
          />
          <ChoiceGroup
            name="margin"
            legend={t("margin")}
            choices={MARGINS.map((value) => ({
              value,
              label: t(`marginOption.${value}`),
              hint: t(`marginHint.${value}`),
            }))}
            value={margin}
            disabled={busy}
            onChange={setMargin}
          />
          <ChoiceGroup
            name="orientation"
            legend={t("orientation")}
            choices={ORIENTATIONS.map((value) => ({ value, label: t(`orientationOption.${value}`) }))}
            value={orientation}
            disabled={busy}
            onChange={setOrientation}
          />
          <p className="images-to-pdf__page-note">{t("pageNote")}</p>
          <TaskActions
            phase={phase}
            busy={busy}
            disabled={items.length === 0}
            label={t("convert")}
            busyLabel={t("converting")}
            onStart={() => {
              clearProblem();
              void task.run(
                items.map((item) => item.file),
                { margin, orientation },
              );
            }}
            testId="convert-button"
            block
          />
        </div>
        <div className="images-to-pdf__list">
          {items.length > 0 ? (
            <SortableFileList
              items={items}
              title={t("listTitle")}
              disabled={busy}
              problemOf={problemOf}
              itemsClassName="images-to-pdf__items"
              renderThumbnail={(item) => <ImageThumbnail file={item.file} />}
              onChange={setItems}
            />
          ) : (
            <p className="images-to-pdf__empty">{t("empty")}</p>
          )}
        </div>
      </div>
    </ToolShell>
  );
}

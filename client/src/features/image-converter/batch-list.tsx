import { useTranslation } from "react-i18next";
import { FileName } from "../../components/file-name";
import { Icon } from "../../components/icon";
import { downloadResult } from "../../components/tool/use-tool-task";
import { formatFileSize, formatPercent } from "../../lib/format/file-size";
import { type BatchItem, type DoneItem, isDone } from "./use-batch-tasks";

interface BatchListProps {
  items: readonly BatchItem[];
  /** Files can be removed (nothing runs and no result is shown). */
  editable: boolean;
  onRemove: (id: string) => void;
  /** A line under a finished file (e.g. "already optimised"). */
  noteFor?: (item: DoneItem) => string | null;
  /** A download button per finished file (a batch of one has the panel's button only). */
  downloads?: boolean;
  /** With a compare button per finished file: the one shown in the comparison. */
  compared?: string | null;
  onCompare?: (id: string) => void;
}

function ItemStatus({ item }: { item: BatchItem }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { state } = item;
  switch (state.name) {
    case "ready":
      return <span className="batch-item__status">{t("imageBatch.ready")}</span>;
    case "uploading":
    case "processing": {
      const label =
        state.name === "uploading"
          ? t("task.uploading", { percent: state.percent })
          : state.queued
            ? t("task.queued")
            : t("task.processing", { percent: state.percent });
      return (
        <span className="batch-item__status">
          <progress className="batch-item__bar" max={100} value={state.percent} aria-label={item.file.name} />
          <span aria-live="polite">{label}</span>
        </span>
      );
    }
    case "failed":
      return (
        <span
          className="batch-item__status batch-item__status--failed"
          role="alert"
          data-testid="batch-error"
        >
          {state.message}
        </span>
      );
    case "done": {
      const { result } = state;
      const percent = result.size_reduction_percent;
      return (
        <span className="batch-item__status" data-testid="batch-sizes">
          <span data-testid="batch-original-size">{formatFileSize(result.original_size, t, language)}</span>
          <span aria-hidden="true"> → </span>
          <span data-testid="batch-new-size">{formatFileSize(result.new_size, t, language)}</span>{" "}
          <span className={`batch-item__change${percent > 0 ? " batch-item__change--smaller" : ""}`}>
            {percent >= 0
              ? t("imageConverter.smaller", { percent: formatPercent(percent, language) })
              : t("imageConverter.larger", { percent: formatPercent(-percent, language) })}
          </span>
        </span>
      );
    }
  }
}

/** The images of a batch: each with its size, its own progress, its result or its error. */
export function BatchList(props: BatchListProps) {
  const { items, editable, onRemove, noteFor, downloads = false, compared, onCompare } = props;
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  return (
    <ul className="batch-list" data-testid="batch-list" aria-label={t("imageBatch.listLabel")}>
      {items.map((item) => {
        const note = isDone(item) ? noteFor?.(item) : null;
        return (
          <li key={item.id} className="batch-item" data-testid="batch-item" data-state={item.state.name}>
            <div className="batch-item__main">
              <FileName
                className="batch-item__name"
                name={isDone(item) ? item.state.result.filename : item.file.name}
              />
              {item.state.name === "ready" || item.state.name === "failed" ? (
                <span className="batch-item__size">{formatFileSize(item.file.size, t, language)}</span>
              ) : null}
              <ItemStatus item={item} />
              {note ? <span className="batch-item__note">{note}</span> : null}
            </div>
            <div className="batch-item__actions">
              {isDone(item) && onCompare ? (
                <button
                  type="button"
                  className="button button--small button--ghost"
                  aria-pressed={compared === item.id}
                  onClick={() => onCompare(item.id)}
                >
                  {t("imageBatch.compare")}
                </button>
              ) : null}
              {isDone(item) && downloads ? (
                <button
                  type="button"
                  className="button button--small"
                  aria-label={t("imageBatch.downloadOne", { name: item.state.result.filename })}
                  onClick={() => downloadResult(item.state.result)}
                >
                  {t("result.download")}
                </button>
              ) : null}
              {editable ? (
                <button
                  type="button"
                  className="icon-button batch-item__remove"
                  aria-label={t("fileList.remove", { name: item.file.name })}
                  title={t("fileList.remove", { name: item.file.name })}
                  onClick={() => onRemove(item.id)}
                >
                  <Icon name="close" />
                </button>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

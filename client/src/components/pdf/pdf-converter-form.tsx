import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ToolId } from "../../lib/contract";
import type { InputLimits } from "../../lib/files/validate-files";
import { Spinner } from "../spinner";
import { FileDropzone } from "../tool/file-dropzone";
import { TaskProgress } from "../tool/task-progress";
import type { TaskPhase } from "../tool/use-tool-task";
import { ChosenPdf } from "./chosen-pdf";
import { PageGrid, type ToggleGesture } from "./page-thumbnails";
import type { PdfAnalysis } from "./use-pdf-analysis";
import "./pdf-converter.css";

/** Text of a tool namespace by key, for the keys every one-PDF converter's namespace holds. */
type ToolText = (key: string, options?: Record<string, unknown>) => string;

interface PdfConverterFormProps {
  /** The tool whose namespace holds waitAnalysis, chooseAnother, convert, converting and convertingPercent. */
  toolId: ToolId;
  limits: InputLimits;
  file: File | null;
  analysis: PdfAnalysis;
  phase: TaskPhase;
  busy: boolean;
  /** The settings allow a conversion (the page count is known and the options are valid). */
  canConvert: boolean;
  onPick: (file: File | null) => void;
  onConvert: () => void;
  /** Opens a protected PDF with the password the user typed beside it. */
  onPassword: (password: string) => void;
  /** Pages shown pressed on the previews, and what a click on one does (none: previews only). */
  selected?: ReadonlySet<number> | undefined;
  onToggle?: ((page: number, gesture: ToggleGesture) => void) | undefined;
  /** The tool's settings, shown once the page count is known. */
  children: ReactNode;
}

/**
 * The screen of a one-PDF converter (PDF to JPG, PDF to Excel; spec §2, §4): a dropzone, the picked
 * file with its page count once analysed and a remove button, then the tool's settings and the
 * convert button with the job's progress (spinner and percent); the page previews on the right.
 */
export function PdfConverterForm(props: PdfConverterFormProps) {
  const { toolId, limits, file, analysis, phase, busy, canConvert, onPick, onConvert, children } = props;
  const { t: typed } = useTranslation([toolId, "common"]);
  const { t: shared } = useTranslation();
  // The namespace is the caller's: its keys are not known here.
  const t = typed as unknown as ToolText;
  const pages = analysis.state === "ready" ? analysis.pages : null;
  return (
    <div className="pdf-converter">
      <div className="pdf-converter__settings">
        <FileDropzone
          limits={limits}
          disabled={busy}
          compact={file !== null}
          onAccept={(files) => onPick(files[0] ?? null)}
        />
        {file === null ? null : (
          <ChosenPdf
            file={file}
            analysis={analysis}
            disabled={busy}
            onRemove={() => onPick(null)}
            onPassword={props.onPassword}
          />
        )}
        {pages === null ? (
          <p className="state-message" data-testid="no-pages-notice">
            {file === null
              ? shared("errors.noFile")
              : t(analysis.state === "analyzing" ? "waitAnalysis" : "chooseAnother")}
          </p>
        ) : (
          <>
            {children}
            <div className="tool-actions">
              <TaskProgress phase={phase} />
              <button
                type="button"
                className="button button--primary button--large button--block"
                disabled={!canConvert || busy}
                aria-busy={busy}
                onClick={onConvert}
                data-testid="convert-button"
              >
                {busy ? (
                  <span className="pdf-converter__busy">
                    <Spinner />
                    {phase.name === "processing" && phase.percent > 0
                      ? t("convertingPercent", { percent: phase.percent })
                      : t("converting")}
                  </span>
                ) : (
                  t("convert")
                )}
              </button>
            </div>
          </>
        )}
      </div>
      {file !== null && pages !== null ? (
        <PageGrid file={file} pages={pages} selected={props.selected} onToggle={props.onToggle} />
      ) : null}
    </div>
  );
}

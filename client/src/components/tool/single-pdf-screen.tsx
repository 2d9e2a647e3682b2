import type { ReactNode } from "react";
import type { ToolId } from "../../lib/contract";
import type { InputLimits } from "../../lib/files/validate-files";
import { ChosenPdf } from "../pdf/chosen-pdf";
import type { PdfAnalysis } from "../pdf/use-pdf-analysis";
import { FileDropzone } from "./file-dropzone";
import { TaskActions } from "./task-actions";
import { ToolShell } from "./tool-shell";
import type { TaskPhase } from "./use-tool-task";

/** A finished task's phase: what a result is drawn from. */
export type DonePhase = Extract<TaskPhase, { name: "done" }>;

interface SinglePdfScreenProps {
  readonly toolId: ToolId;
  readonly limits: InputLimits;
  /** The form's class (the tool's own layout). */
  readonly className: string;
  readonly task: { readonly phase: TaskPhase; readonly busy: boolean };
  /** The picked file: it makes the drop zone compact. */
  readonly file: File | null;
  /** The PDF shown under the drop zone, when it is not `file` itself (OCR also takes images). */
  readonly pdf?: File | null;
  readonly analysis: PdfAnalysis;
  /** A new pick, or null when the file is removed: the screen resets its task and keeps the file. */
  readonly onPick: (file: File | null) => void;
  /** Given, a PDF refused for its password asks for it under its name. */
  readonly onPassword?: (password: string) => void;
  /** The result, once the task is done. */
  readonly result: (phase: DonePhase) => ReactNode;
  /** The button that starts the task, with its progress. */
  readonly action: {
    readonly label: string;
    readonly busyLabel: string;
    readonly testId: string;
    readonly disabled: boolean;
    readonly onStart: () => void;
    /** Shown above the button: what is still missing before it can start. */
    readonly hint?: ReactNode;
  };
  /** The tool's options, between the picked file and the button. */
  readonly children?: ReactNode;
}

/**
 * The screen of a tool that takes one PDF: the drop zone, the picked PDF (page count, password),
 * the tool's options, the button with its progress; then the result in place of the form.
 */
export function SinglePdfScreen(props: SinglePdfScreenProps) {
  const { task, file, onPick } = props;
  const { phase, busy } = task;
  const pdf = props.pdf === undefined ? file : props.pdf;
  return (
    <ToolShell toolId={props.toolId}>
      {phase.name === "done" ? (
        props.result(phase)
      ) : (
        <div className={props.className}>
          <FileDropzone
            limits={props.limits}
            disabled={busy}
            compact={file !== null}
            onAccept={(files) => onPick(files[0] ?? null)}
          />
          {pdf ? (
            <ChosenPdf
              file={pdf}
              analysis={props.analysis}
              disabled={busy}
              onRemove={() => onPick(null)}
              onPassword={props.onPassword}
            />
          ) : null}
          {props.children}
          <TaskActions phase={phase} busy={busy} {...props.action}>
            {props.action.hint}
          </TaskActions>
        </div>
      )}
    </ToolShell>
  );
}

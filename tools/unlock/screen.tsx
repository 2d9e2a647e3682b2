import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ChosenPdf } from "../../client/src/components/pdf/chosen-pdf";
import { PasswordInput } from "../../client/src/components/pdf/password-input";
import { FileDropzone } from "../../client/src/components/tool/file-dropzone";
import { TaskActions } from "../../client/src/components/tool/task-actions";
import { TaskResultPanel } from "../../client/src/components/tool/task-result-panel";
import { ToolShell } from "../../client/src/components/tool/tool-shell";
import { useToolTask } from "../../client/src/components/tool/use-tool-task";
import { showApiError, showErrorMessage } from "../../client/src/lib/show-error";
import tool from "./tool.ts";
import "./unlock.css";

/** Nothing is analysed before the job: a protected PDF cannot be opened without its password. */
const NOT_ANALYSED = { state: "idle" } as const;

/**
 * Unlock PDF: one protected PDF and its password; the result is the same PDF without encryption.
 * A wrong password or an unprotected PDF comes back as its named error, the file and the typed
 * password kept so the user can correct it.
 */
export default function UnlockPage() {
  const { t } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState("");
  const [visible, setVisible] = useState(false);
  const task = useToolTask(tool, (error) => showApiError(shared, shared("errors.conversionFailed"), error));
  const { phase, busy } = task;

  const pick = (next: File | null) => {
    task.reset();
    setFile(next);
  };

  const unlock = () => {
    if (file === null) {
      showErrorMessage(shared, shared("errors.selectPdf"));
      return;
    }
    void task.run([file], { password });
  };

  if (phase.name === "done") {
    return (
      <ToolShell toolId={tool.id}>
        <TaskResultPanel
          phase={phase}
          title={t("resultTitle")}
          anotherLabel={t("another")}
          deleteNow={task.deleteNow}
          onDeleted={() => pick(null)}
          onAnother={() => {
            setPassword("");
            pick(null);
          }}
        />
      </ToolShell>
    );
  }

  return (
    <ToolShell toolId={tool.id}>
      <div className="unlock">
        <FileDropzone
          limits={tool.input}
          disabled={busy}
          compact={file !== null}
          onAccept={(files) => pick(files[0] ?? null)}
        />
        {file ? (
          <ChosenPdf file={file} analysis={NOT_ANALYSED} disabled={busy} onRemove={() => pick(null)} />
        ) : null}
        <div className="unlock__password">
          <PasswordInput
            label={t("passwordLabel")}
            hint={t("passwordHint")}
            value={password}
            onChange={setPassword}
            visible={visible}
            disabled={busy}
            autoComplete="current-password"
            testId="password"
          />
          <label className="unlock__show">
            <input
              type="checkbox"
              checked={visible}
              onChange={(event) => setVisible(event.currentTarget.checked)}
            />
            {t("show")}
          </label>
        </div>
        <p className="unlock__note">{t("note")}</p>
        <TaskActions
          phase={phase}
          busy={busy}
          disabled={file === null || password === ""}
          label={t("unlock")}
          busyLabel={t("unlocking")}
          onStart={unlock}
          testId="unlock-button"
        />
      </div>
    </ToolShell>
  );
}

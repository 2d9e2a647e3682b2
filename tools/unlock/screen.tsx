import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordInput } from "../../client/src/components/pdf/password-input";
import { SinglePdfScreen } from "../../client/src/components/tool/single-pdf-screen";
import { TaskResultPanel } from "../../client/src/components/tool/task-result-panel";
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
  const task = useToolTask(tool, (error) => showApiError(shared, shared("errors.conversionFailed"), error));
  const { busy } = task;

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

  return (
    <SinglePdfScreen
      toolId={tool.id}
      limits={tool.input}
      className="unlock"
      task={task}
      file={file}
      analysis={NOT_ANALYSED}
      onPick={pick}
      result={(done) => (
        <TaskResultPanel
          phase={done}
          title={t("resultTitle")}
          anotherLabel={t("another")}
          deleteNow={task.deleteNow}
          onDeleted={() => pick(null)}
          onAnother={() => {
            setPassword("");
            pick(null);
          }}
        />
      )}
      action={{
        label: t("unlock"),
        busyLabel: t("unlocking"),
        testId: "unlock-button",
        disabled: file === null || password === "",
        onStart: unlock,
      }}
    >
      <div className="unlock__password">
        <PasswordInput
          label={t("passwordLabel")}
          hint={t("passwordHint")}
          value={password}
          onChange={setPassword}
          disabled={busy}
          autoComplete="current-password"
          testId="password"
        />
      </div>
      <p className="unlock__note">{t("note")}</p>
    </SinglePdfScreen>
  );
}

import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordInput } from "../../client/src/components/pdf/password-input";
import { acquirePdf, releasePdf } from "../../client/src/components/pdf/pdf-pages";
import { SinglePdfScreen } from "../../client/src/components/tool/single-pdf-screen";
import { TaskResultPanel } from "../../client/src/components/tool/task-result-panel";
import { useToolTask } from "../../client/src/components/tool/use-tool-task";
import { showApiError, showErrorMessage } from "../../client/src/lib/show-error";
import tool from "./tool.ts";
import "./unlock.css";

/** Nothing is analysed on the server before the job: a protected PDF cannot be opened without its password. */
const NOT_ANALYSED = { state: "idle" } as const;

/**
 * Whether `file` is encrypted yet opens without a password (the empty user password: an owner
 * password restricting printing, copying or editing), as pdf.js finds it: it opens with no password
 * and has permissions, which only an encryption dictionary gives. False while it is being read,
 * and for a PDF that needs its password, one without encryption or one pdf.js cannot read.
 */
function useOpensWithoutPassword(file: File | null): boolean {
  const [answer, setAnswer] = useState<{ file: File | null; opens: boolean }>({ file: null, opens: false });
  useEffect(() => {
    if (file === null) return;
    let current = true;
    acquirePdf(file)
      .then((document) => document.getPermissions())
      .then(
        (permissions) => current && setAnswer({ file, opens: permissions !== null }),
        () => current && setAnswer({ file, opens: false }),
      )
      .finally(() => releasePdf(file));
    return () => {
      current = false;
    };
  }, [file]);
  return answer.file === file && answer.opens;
}

/**
 * Unlock PDF: one protected PDF and its password; the result is the same PDF without encryption.
 * A PDF that opens without a password is said to, and unlocks without one. A wrong password or an
 * unprotected PDF comes back as its named error, the file and the typed password kept so the user
 * can correct it.
 */
export default function UnlockPage() {
  const { t } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState("");
  const opensWithoutPassword = useOpensWithoutPassword(file);
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
    void task.run([file], password === "" ? {} : { password });
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
        disabled: file === null || (password === "" && !opensWithoutPassword),
        onStart: unlock,
      }}
    >
      {opensWithoutPassword ? (
        <p className="unlock__opens" role="status" data-testid="opens-without-password">
          {t("opensWithoutPassword")}
        </p>
      ) : null}
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

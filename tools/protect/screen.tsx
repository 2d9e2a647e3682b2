import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordInput } from "../../client/src/components/pdf/password-input";
import { passwordStrength, utf8Length } from "../../client/src/components/pdf/password-strength";
import { usePickedPdf } from "../../client/src/components/pdf/use-picked-pdf";
import { SinglePdfScreen } from "../../client/src/components/tool/single-pdf-screen";
import { TaskResultPanel } from "../../client/src/components/tool/task-result-panel";
import { useToolTask } from "../../client/src/components/tool/use-tool-task";
import { MAX_PASSWORD_BYTES } from "../../client/src/lib/contract";
import { showApiError, showErrorMessage } from "../../client/src/lib/show-error";
import tool from "./tool.ts";
import "./protect.css";

/** The permissions in the order shown; each one a `true`/`false` field of the API. */
const PERMISSIONS = [
  "allow_printing",
  "allow_copying",
  "allow_editing",
  "allow_forms",
  "allow_annotations",
] as const;
type Permission = (typeof PERMISSIONS)[number];

const STRENGTH_STEPS = { weak: 1, fair: 2, good: 3, strong: 4 } as const;

/**
 * Protect PDF: one PDF, its password typed twice (strength shown), an optional owner password,
 * the permissions (all allowed by default) and what protection does and does not do.
 */
export default function ProtectPage() {
  const { t } = useTranslation([tool.id, "common"]);
  const { t: shared } = useTranslation();
  // A PDF protected already opens with its current password, then gets the new one.
  const {
    file,
    setFile,
    analysis,
    setPassword: setInputPassword,
    passwordFields,
  } = usePickedPdf("input_password");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [owner, setOwner] = useState("");
  const [visible, setVisible] = useState(false);
  const [allowed, setAllowed] = useState<Record<Permission, boolean>>(
    () => Object.fromEntries(PERMISSIONS.map((name) => [name, true])) as Record<Permission, boolean>,
  );
  const task = useToolTask(tool, (error) => showApiError(shared, shared("errors.conversionFailed"), error));
  const { busy } = task;

  const pick = (next: File | null) => {
    task.reset();
    setFile(next);
  };
  const tooLong = (value: string) => (utf8Length(value) > MAX_PASSWORD_BYTES ? t("tooLong") : null);
  const mismatch = repeat !== "" && repeat !== password ? t("mismatch") : null;
  const ready =
    password !== "" && repeat === password && tooLong(password) === null && tooLong(owner) === null;
  const strength = password === "" ? null : passwordStrength(password);

  const protect = () => {
    if (file === null) {
      showErrorMessage(shared, shared("errors.selectPdf"));
      return;
    }
    const permissions = Object.fromEntries(PERMISSIONS.map((name) => [name, String(allowed[name])]));
    const ownerField: Record<string, string> = owner === "" ? {} : { owner_password: owner };
    void task.run([file], { password, ...ownerField, ...permissions, ...passwordFields });
  };

  return (
    <SinglePdfScreen
      toolId={tool.id}
      limits={tool.input}
      className="protect"
      task={task}
      file={file}
      analysis={analysis}
      onPick={pick}
      onPassword={setInputPassword}
      result={(done) => {
        const signatures = done.result.facts.signatures_invalidated;
        return (
          <TaskResultPanel
            phase={done}
            title={t("resultTitle")}
            anotherLabel={t("another")}
            facts={[
              { id: "encryption", label: t("facts.encryption"), value: "AES-256" },
              ...(typeof signatures === "number" && signatures > 0
                ? [{ id: "signatures", label: t("facts.signatures"), value: String(signatures) }]
                : []),
            ]}
            deleteNow={task.deleteNow}
            onDeleted={() => pick(null)}
            onAnother={() => pick(null)}
          />
        );
      }}
      action={{
        label: t("protect"),
        busyLabel: t("protecting"),
        testId: "protect-button",
        disabled: analysis.state !== "ready" || !ready,
        onStart: protect,
      }}
    >
      <div className="protect__passwords">
        <PasswordInput
          label={t("passwordLabel")}
          hint={t("passwordHint")}
          value={password}
          onChange={setPassword}
          visible={visible}
          onVisibleChange={setVisible}
          showLabel={t("show")}
          disabled={busy}
          problem={tooLong(password)}
          autoComplete="new-password"
          testId="password"
        />
        {strength === null ? null : (
          <div className="protect__strength" data-testid="password-strength" data-strength={strength}>
            <meter
              min={0}
              max={4}
              low={2}
              high={3}
              optimum={4}
              value={STRENGTH_STEPS[strength]}
              aria-label={t("strength.label")}
            />
            <span>
              {t("strength.label")}: {t(`strength.${strength}`)}
            </span>
          </div>
        )}
        <PasswordInput
          label={t("repeatLabel")}
          value={repeat}
          onChange={setRepeat}
          visible={visible}
          disabled={busy}
          problem={mismatch}
          autoComplete="new-password"
          testId="password-repeat"
        />
        <PasswordInput
          label={t("ownerLabel")}
          hint={t("ownerHint")}
          value={owner}
          onChange={setOwner}
          visible={visible}
          disabled={busy}
          problem={tooLong(owner)}
          autoComplete="new-password"
          testId="owner-password"
        />
      </div>
      <fieldset className="protect__permissions" disabled={busy} data-testid="permissions">
        <legend>{t("permissionsLegend")}</legend>
        {PERMISSIONS.map((name) => (
          <label key={name} className="protect__permission">
            <input
              type="checkbox"
              name={name}
              checked={allowed[name]}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setAllowed((current) => ({ ...current, [name]: checked }));
              }}
            />
            {t(`permissions.${name}`)}
          </label>
        ))}
      </fieldset>
      <section className="protect__notes" aria-labelledby="protect-notes" data-testid="protect-notes">
        <h2 id="protect-notes">{t("notes.title")}</h2>
        <ul>
          <li>{t("notes.encryption")}</li>
          <li>{t("notes.permissions")}</li>
          <li>{t("notes.signatures")}</li>
          <li>{t("notes.forget")}</li>
        </ul>
      </section>
    </SinglePdfScreen>
  );
}

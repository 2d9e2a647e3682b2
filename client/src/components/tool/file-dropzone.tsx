import { useId, useState } from "react";
import { useDropzone } from "react-dropzone";
import { useTranslation } from "react-i18next";
import { acceptFor, formatsLabel } from "../../lib/files/file-formats";
import { type InputLimits, validateFiles } from "../../lib/files/validate-files";
import { formatLimit } from "../../lib/format/file-size";
import { showErrorMessage } from "../../lib/show-error";
import { useHydrated } from "../../lib/use-hydrated";
import { Icon } from "../icon";
import { announce } from "../live-announcer";
import { describeProblems } from "./describe-problem";

interface FileDropzoneProps {
  limits: InputLimits;
  /** Files already chosen (counted against the limits). Single-file tools pass none: a pick replaces. */
  existing?: readonly File[];
  disabled?: boolean;
  compact?: boolean;
  /** The picker's filter when it is wider than the tool's kinds (e.g. image/*); files are still checked. */
  accept?: Record<string, string[]>;
  /** The tool's own check of one file before the declaration's checks: a message refuses that file. */
  refuseFile?: (file: File) => string | null;
  onAccept: (files: File[]) => void;
}

/**
 * A drop area with a button opening the file picker (the area is not itself a control, so the button
 * is the one keyboard stop and its name is its visible text). New files are checked against the
 * tool's declaration (type, real content, size, count); every refused file is named once in one
 * destructive toast, the good ones are kept.
 */
export function FileDropzone({
  limits,
  existing = [],
  disabled = false,
  compact = false,
  accept,
  refuseFile,
  onAccept,
}: FileDropzoneProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const [checking, setChecking] = useState(false);
  // Sent disabled and busy: the picker and drops work once the app has hydrated the page.
  const waiting = !useHydrated();
  const hintId = useId();
  const multiple = limits.maxFiles > 1;
  const format = formatsLabel(limits.kinds);

  const handleFiles = async (files: File[]) => {
    if (files.length === 0) return;
    const own = files.flatMap((file) => {
      const message = refuseFile?.(file);
      return message ? [t("errors.fileProblem", { name: file.name, message })] : [];
    });
    const candidates = refuseFile ? files.filter((file) => !refuseFile(file)) : files;
    // The region around the dropzone keeps the keyboard focus when the dropzone itself goes away.
    const region = rootRef.current?.closest<HTMLElement>("[data-focus-fallback]") ?? null;
    setChecking(true);
    try {
      const { accepted, problems } = await validateFiles(candidates, existing, limits);
      const refused = describeProblems(problems, {
        kinds: limits.kinds,
        kept: existing.length + accepted.length,
        t,
        language,
      });
      const message = [...own, ...(refused ? [refused] : [])].join("\n");
      if (message) showErrorMessage(t, message);
      if (accepted.length > 0) {
        onAccept(accepted);
        announce(t("upload.added", { count: accepted.length }));
        keepFocus(rootRef.current, region);
      }
    } finally {
      setChecking(false);
    }
  };

  const { getRootProps, getInputProps, isDragActive, rootRef } = useDropzone({
    accept: accept ?? acceptFor(limits.kinds),
    multiple,
    disabled: disabled || checking || waiting,
    // The area is not a control itself (a button inside it is): it takes clicks and drops only.
    noKeyboard: true,
    // Every dropped file is checked here, so refused types get the tool's own message.
    onDrop: (accepted, rejected) => void handleFiles([...accepted, ...rejected.map((r) => r.file)]),
  });

  const hint = multiple
    ? t("upload.limitsMany", {
        count: limits.maxFiles,
        size: formatLimit(limits.maxFileBytes, t, language),
        total: formatLimit(limits.maxTotalBytes, t, language),
      })
    : t("upload.limitsOne", { size: formatLimit(limits.maxFileBytes, t, language) });

  const classes = ["dropzone"];
  if (isDragActive) classes.push("dropzone--active");
  if (disabled || checking || waiting) classes.push("dropzone--disabled");
  if (compact) classes.push("dropzone--compact");

  const browse = multiple ? t("upload.browseMany") : t("upload.browseOne");
  return (
    <div
      {...getRootProps({ className: classes.join(" "), role: "group", "aria-label": t("upload.areaLabel") })}
      aria-busy={waiting || undefined}
      data-testid="dropzone"
    >
      {/* Hidden by a class: the inline style react-dropzone gives would be refused by the CSP in prerendered HTML. */}
      <input
        {...getInputProps({ "aria-label": browse, style: undefined, className: "visually-hidden" })}
        data-testid="file-input"
      />
      <span className="dropzone__icon">
        <Icon name="upload" />
      </span>
      <p className="dropzone__title" aria-live="polite">
        {checking
          ? t("upload.checking")
          : isDragActive
            ? t("upload.dragActive")
            : multiple
              ? t("upload.titleMany", { format })
              : t("upload.titleOne", { format })}
      </p>
      {compact ? null : <p className="dropzone__or">{t("upload.or")}</p>}
      {/* Its click reaches the area, which opens the file picker. */}
      <button
        type="button"
        className="button button--primary dropzone__button"
        aria-describedby={hintId}
        disabled={disabled || checking || waiting}
        aria-busy={waiting || undefined}
        data-testid="dropzone-button"
      >
        {browse}
      </button>
      <p className="dropzone__hint" id={hintId}>
        {hint}
      </p>
    </div>
  );
}

/**
 * After files are added the screen may replace the dropzone (or disable it): the focus then
 * falls to <body>. It goes back to the dropzone's button when it is still there, else to the
 * tool's region, so the next Tab reaches the new controls.
 */
function keepFocus(root: HTMLElement | null, region: HTMLElement | null) {
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const button = root?.isConnected ? root.querySelector<HTMLButtonElement>(".dropzone__button") : null;
    if (button && !button.disabled) button.focus();
    else region?.focus();
  });
}

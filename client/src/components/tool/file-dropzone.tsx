import { useId, useState } from "react";
import { useDropzone } from "react-dropzone";
import { useTranslation } from "react-i18next";
import { acceptFor, formatsLabel } from "../../lib/files/file-formats";
import { type InputLimits, validateFiles } from "../../lib/files/validate-files";
import { formatLimit } from "../../lib/format/file-size";
import { showErrorMessage } from "../../lib/show-error";
import { Icon } from "../icon";
import { describeProblem } from "./describe-problem";

interface FileDropzoneProps {
  limits: InputLimits;
  /** Files already chosen (counted against the limits). Single-file tools pass none: a pick replaces. */
  existing?: readonly File[];
  disabled?: boolean;
  compact?: boolean;
  /** The picker's filter when it is wider than the tool's kinds (e.g. image/*); files are still checked. */
  accept?: Record<string, string[]>;
  /** A check of the whole selection before its files are checked one by one: a message refuses them all. */
  refuseSelection?: (files: readonly File[]) => string | null;
  onAccept: (files: File[]) => void;
}

/**
 * A drop area that is also a button opening the file picker. New files are checked against the tool's
 * declaration (type, real content, size, count); refused files are named in a destructive toast.
 */
export function FileDropzone({
  limits,
  existing = [],
  disabled = false,
  compact = false,
  accept,
  refuseSelection,
  onAccept,
}: FileDropzoneProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const [checking, setChecking] = useState(false);
  const hintId = useId();
  const multiple = limits.maxFiles > 1;
  const format = formatsLabel(limits.kinds);

  const handleFiles = async (files: File[]) => {
    if (files.length === 0) return;
    const refusal = refuseSelection?.(files);
    if (refusal) {
      showErrorMessage(t, refusal);
      return;
    }
    setChecking(true);
    try {
      const { accepted, problems } = await validateFiles(
        multiple ? files : files.slice(0, 1),
        existing,
        limits,
      );
      const first = problems[0];
      if (first) showErrorMessage(t, describeProblem(first, limits.kinds, t, language));
      if (accepted.length > 0) onAccept(accepted);
    } finally {
      setChecking(false);
    }
  };

  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: accept ?? acceptFor(limits.kinds),
    multiple,
    disabled: disabled || checking,
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
  if (disabled || checking) classes.push("dropzone--disabled");
  if (compact) classes.push("dropzone--compact");

  return (
    <div
      {...getRootProps({
        className: classes.join(" "),
        role: "button",
        "aria-label": multiple ? t("upload.browseMany") : t("upload.browseOne"),
        "aria-describedby": hintId,
        "aria-disabled": disabled || checking,
      })}
      data-testid="dropzone"
    >
      <input {...getInputProps({ "aria-label": t("upload.areaLabel") })} data-testid="file-input" />
      <span className="dropzone__icon">
        <Icon name="upload" />
      </span>
      <p className="dropzone__title">
        {checking
          ? t("upload.checking")
          : isDragActive
            ? t("upload.dragActive")
            : multiple
              ? t("upload.titleMany", { format })
              : t("upload.titleOne", { format })}
      </p>
      {compact ? null : <p className="dropzone__or">{t("upload.or")}</p>}
      <span className="button button--primary dropzone__button">
        {multiple ? t("upload.browseMany") : t("upload.browseOne")}
      </span>
      <p className="dropzone__hint" id={hintId}>
        {hint}
      </p>
    </div>
  );
}

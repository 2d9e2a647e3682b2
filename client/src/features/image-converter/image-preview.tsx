import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatMegabytes } from "../../lib/format/file-size";

/** The chosen image with its name, size in MB and a remove button. */
export function ImagePreview({
  file,
  disabled,
  onRemove,
}: {
  file: File;
  disabled: boolean;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return (
    <figure className="image-preview" data-testid="image-preview">
      <div className="image-preview__frame">
        {url ? (
          <img
            className="image-preview__image"
            src={url}
            alt={t("imageConverter.preview", { name: file.name })}
          />
        ) : null}
      </div>
      <figcaption className="image-preview__caption">
        <span className="image-preview__name" title={file.name}>
          {file.name}
        </span>
        <span className="image-preview__size">
          {formatMegabytes(file.size, t, i18n.resolvedLanguage ?? "en")}
        </span>
        <button
          type="button"
          className="button button--small button--danger-outline"
          disabled={disabled}
          onClick={onRemove}
        >
          {t("imageConverter.remove")}
        </button>
      </figcaption>
    </figure>
  );
}

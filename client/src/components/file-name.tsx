import { extensionOf } from "../lib/contract";
import "./file-name.css";

/**
 * A file name that stays readable in a narrow place: the stem is cut with an ellipsis while the
 * extension stays visible ("quarterly-rep….pdf", the whole name in `title`); on phones the whole
 * name wraps instead.
 */
export function FileName({ name, className }: { name: string; className?: string }) {
  const extension = extensionOf(name);
  const stem = extension ? name.slice(0, name.length - extension.length - 1) : name;
  return (
    <span className={className ? `file-name ${className}` : "file-name"} title={name}>
      <span className="file-name__stem">{stem}</span>
      {extension ? <span className="file-name__extension">{name.slice(stem.length)}</span> : null}
    </span>
  );
}

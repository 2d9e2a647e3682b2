import type { TFunction } from "i18next";
import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { TaskResult } from "../../lib/contract";
import { formatCount } from "../../lib/format/number";
import { Icon } from "../icon";
import { announce } from "../live-announcer";

export interface ResultFact {
  id: string;
  label: string;
  value: string;
}

/** The facts every document result starts with: its file name, and its page count when the job gave one. */
export function documentFacts(result: TaskResult, t: TFunction, language: string): ResultFact[] {
  const { pages } = result.facts;
  return [
    { id: "name", label: t("result.fileName"), value: result.filename },
    ...(typeof pages === "number"
      ? [{ id: "pages", label: t("result.pages"), value: formatCount(pages, language) }]
      : []),
  ];
}

interface ResultPanelProps {
  title: string;
  facts: readonly ResultFact[];
  downloadLabel: string;
  anotherLabel: string;
  expiresAt: string;
  deleting: boolean;
  onDownload: () => void;
  onDelete: () => void;
  onAnother: () => void;
  children?: ReactNode;
}

/**
 * The result of a task: facts, download, delete now, process another, and when files expire. It
 * takes the focus to its title when it appears, so keyboard users land on it and screen readers
 * announce it (the form it replaces, and the button that had the focus, are gone); its title and
 * facts are also read out through the polite live region.
 */
export function ResultPanel(props: ResultPanelProps) {
  const { t, i18n } = useTranslation();
  const title = useRef<HTMLHeadingElement>(null);
  // Runs once, when the panel appears: the facts are those of the finished task.
  // biome-ignore lint/correctness/useExhaustiveDependencies: announced on appearance only
  useEffect(() => {
    title.current?.focus();
    announce([props.title, ...props.facts.map((fact) => `${fact.label}: ${fact.value}`)].join(". "));
  }, []);
  const expires = new Date(props.expiresAt);
  const time = Number.isNaN(expires.getTime())
    ? null
    : new Intl.DateTimeFormat(i18n.resolvedLanguage, { timeStyle: "short" }).format(expires);
  return (
    <section className="result-panel" aria-labelledby="result-title" data-testid="result-panel">
      <div className="result-panel__header">
        <span className="result-panel__check">
          <Icon name="check" />
        </span>
        <h2 id="result-title" className="result-panel__title" ref={title} tabIndex={-1}>
          {props.title}
        </h2>
      </div>
      <dl className="result-panel__facts">
        {props.facts.map((fact) => (
          <div key={fact.id} className="result-panel__fact" data-fact={fact.id}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      {props.children}
      <div className="result-panel__actions">
        <button type="button" className="button button--primary button--large" onClick={props.onDownload}>
          {props.downloadLabel}
        </button>
        <button
          type="button"
          className="button button--danger-outline"
          onClick={props.onDelete}
          disabled={props.deleting}
        >
          {props.deleting ? t("result.deleting") : t("result.deleteNow")}
        </button>
        <button
          type="button"
          className="button button--ghost"
          onClick={props.onAnother}
          disabled={props.deleting}
        >
          {props.anotherLabel}
        </button>
      </div>
      {time ? <p className="result-panel__expiry">{t("result.expiresAt", { time })}</p> : null}
    </section>
  );
}

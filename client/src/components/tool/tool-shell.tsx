import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { PATHS } from "../../config/paths";
import type { ToolId } from "../../lib/contract";
import { catalogTool } from "../../lib/tool-catalog";
import { useHydrated } from "../../lib/use-hydrated";
import { usePageMeta } from "../../lib/use-page-meta";
import { LocalizedLink } from "../localized-link";

/**
 * The frame of every tool page: title and description from the locale, then the tool itself, or
 * the "not available yet" notice for tools the API does not run (`available: false`) or that have
 * no screen yet.
 */
export function ToolShell({ toolId, children }: { toolId: ToolId; children?: ReactNode }) {
  const { t } = useTranslation(toolId);
  const name = t("name");
  const description = t("description");
  usePageMeta({ title: name, description });
  const hydrated = useHydrated();
  return (
    <div className="tool-page container">
      <header className="tool-page__header">
        <h1 className="tool-page__title">{name}</h1>
        <p className="tool-page__description">{description}</p>
      </header>
      {/* Takes the focus when the control that had it goes away (see FileDropzone). */}
      <div
        className="tool-page__body"
        tabIndex={-1}
        data-focus-fallback
        aria-busy={hydrated ? undefined : true}
        data-testid="tool-body"
      >
        {/*
         * Until the app has hydrated the page, every control of the screen (options, buttons,
         * fields) is disabled by this fieldset: a click or a typed character before then is visibly
         * not taken, instead of changing an option the app then ignores.
         */}
        <fieldset className="tool-page__controls" disabled={!hydrated} role="presentation">
          {catalogTool(toolId).state === "available" && children ? children : <UnavailableNotice />}
        </fieldset>
      </div>
    </div>
  );
}

/** Shown instead of a form for tools the API does not run yet. */
function UnavailableNotice() {
  const { t } = useTranslation();
  return (
    <section className="notice" aria-labelledby="unavailable-title" data-testid="tool-unavailable">
      <h2 id="unavailable-title" className="notice__title">
        {t("pages.toolPage.unavailableTitle")}
      </h2>
      <p className="notice__body">{t("pages.toolPage.unavailableBody")}</p>
      <LocalizedLink to={PATHS.tools} className="button button--primary">
        {t("pages.toolPage.browseTools")}
      </LocalizedLink>
    </section>
  );
}

import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useRouteError } from "react-router";

/** Shown when a page fails to render or its code cannot be loaded. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <main className="container page page--narrow crash" id="main">
      <h1 className="page__title">{t("app.crashTitle")}</h1>
      <p className="page__subtitle">{t("app.crashBody")}</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        {t("app.reload")}
      </button>
    </main>
  );
}

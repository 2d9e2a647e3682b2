import { Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { LiveAnnouncer } from "../components/live-announcer";
import { Spinner } from "../components/spinner";
import { Toaster } from "../components/toaster";
import { currentLanguage } from "../lib/i18n/i18n";
import { languageOfPath } from "../lib/i18n/language-path";
import { Footer } from "./footer";
import { Header } from "./header";

/** A language prefix in the path wins over the stored choice (spec §2, language handling). */
function useLanguageFromPath() {
  const { i18n } = useTranslation();
  const { pathname } = useLocation();
  useEffect(() => {
    const code = languageOfPath(pathname);
    if (code && code !== currentLanguage()) void i18n.changeLanguage(code);
  }, [pathname, i18n]);
}

/** Fixed header, main area (lazy pages behind a centred spinner), footer and toasts. */
export function RootLayout() {
  const { t } = useTranslation();
  useLanguageFromPath();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("app.skipToContent")}
      </a>
      <Header />
      <main id="main" className="site-main" tabIndex={-1}>
        <Suspense fallback={<Spinner centered label={t("app.loading")} />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <Toaster />
      <LiveAnnouncer />
    </>
  );
}

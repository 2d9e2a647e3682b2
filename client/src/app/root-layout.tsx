import { Suspense, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useLocation } from "react-router";
import { LiveAnnouncer } from "../components/live-announcer";
import { Spinner } from "../components/spinner";
import { Toaster } from "../components/toaster";
import { FALLBACK_LANGUAGE } from "../lib/contract";
import { currentLanguage } from "../lib/i18n/i18n";
import { rememberLanguage } from "../lib/i18n/language-cookie";
import { languageOfPath } from "../lib/i18n/language-path";
import { useFocusOnNavigation } from "../lib/use-focus-on-navigation";
import { Footer } from "./footer";
import { Header } from "./header";

/**
 * The path's language is the page's (spec §2, language handling): a prefixed path switches to its
 * language and is remembered; an unprefixed one reached in the app is English. The first page keeps
 * the language i18n.ts started in (an unknown address may be shown in the visitor's language).
 */
function useLanguageFromPath() {
  const { i18n } = useTranslation();
  const { pathname } = useLocation();
  const shownPath = useRef<string | null>(null);
  useEffect(() => {
    const code = languageOfPath(pathname);
    if (code) rememberLanguage(code);
    if (shownPath.current === pathname) return;
    const first = shownPath.current === null;
    shownPath.current = pathname;
    if (first) return;
    const language = code ?? FALLBACK_LANGUAGE;
    if (language !== currentLanguage()) void i18n.changeLanguage(language);
  }, [pathname, i18n]);
}

/** Fixed header, main area (lazy pages behind a centred spinner), footer and toasts. */
export function RootLayout() {
  const { t } = useTranslation();
  useLanguageFromPath();
  useFocusOnNavigation();
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

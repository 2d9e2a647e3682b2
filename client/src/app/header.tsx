import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { Icon } from "../components/icon";
import { LocalizedLink } from "../components/localized-link";
import { ThemeToggle } from "../components/theme/theme-toggle";
import { PATHS } from "../config/paths";
import { useLocalizedPath } from "../lib/i18n/use-localized-path";
import { untilHydrated, useHydrated } from "../lib/use-hydrated";
import { LanguageGrid, LanguageSelect } from "./language-select";
import "./header.css";

/** Spec §9: the header changes look once the page is scrolled more than 10 px. */
const SCROLL_THRESHOLD_PX = 10;

const LINKS = [
  { to: PATHS.home, key: "nav.home", end: true },
  { to: PATHS.about, key: "nav.about", end: false },
  { to: PATHS.blog, key: "nav.blog", end: false },
  { to: PATHS.imageTools, key: "nav.imageTools", end: false },
] as const;

function NavLinks({ onPick }: { onPick?: () => void }) {
  const { t } = useTranslation();
  const localize = useLocalizedPath();
  return (
    <ul className="site-nav__list">
      {LINKS.map((link) => (
        <li key={link.to}>
          <NavLink to={localize(link.to)} end={link.end} className="site-nav__link" onClick={onPick}>
            {t(link.key)}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export function Header() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const hydrated = useHydrated();

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > SCROLL_THRESHOLD_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  // The panel closes on navigation (pathname is the trigger) and with Escape.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the route changes
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  const close = () => setMenuOpen(false);
  return (
    <header
      className={`site-header${scrolled ? " site-header--scrolled" : ""}${menuOpen ? " site-header--open" : ""}`}
    >
      <div className="container site-header__inner">
        <LocalizedLink
          to={PATHS.home}
          className="brand"
          aria-label={t("nav.homeLink", { name: t("app.name") })}
        >
          <img className="brand__logo" src="/static/dist/logo.png" alt="" width="32" height="32" />
          <span className="brand__name">{t("app.name")}</span>
        </LocalizedLink>
        <nav className="site-nav site-nav--desktop" aria-label={t("nav.main")}>
          <NavLinks />
        </nav>
        <div className="site-header__actions">
          <div className="site-header__language">
            <LanguageSelect />
          </div>
          <ThemeToggle />
          <button
            type="button"
            className="icon-button menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
            onClick={() => setMenuOpen((open) => !open)}
            {...untilHydrated(hydrated)}
            data-testid="menu-toggle"
          >
            <Icon name={menuOpen ? "close" : "menu"} />
          </button>
        </div>
      </div>
      {menuOpen ? (
        <div id="mobile-menu" className="mobile-menu" data-testid="mobile-menu">
          <nav className="container site-nav site-nav--mobile" aria-label={t("nav.main")}>
            <NavLinks onPick={close} />
            <LanguageGrid onPick={close} />
          </nav>
        </div>
      ) : null}
    </header>
  );
}

import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { LocalizedLink } from "../components/localized-link";
import { EXTERNAL_LINKS } from "../config/external-links";
import { blogTagPath, homeSectionPath, PATHS, TUTORIALS_TAG } from "../config/paths";
import { DEFAULT_RETENTION_MINUTES } from "../lib/contract";
import { useHydrated } from "../lib/use-hydrated";
import "./footer.css";

/** Spec §9: the page scrolls to the top 100 ms after every route change. */
const SCROLL_DELAY_MS = 100;

const GROUPS = [
  {
    id: "product",
    links: [
      { to: homeSectionPath("features"), key: "footer.product.features" },
      { to: PATHS.tools, key: "footer.product.tools" },
      { to: PATHS.imageTools, key: "footer.product.imageTools" },
      { to: homeSectionPath("promises"), key: "footer.product.promises" },
    ],
  },
  {
    id: "resources",
    links: [
      { to: PATHS.blog, key: "footer.resources.blog" },
      { to: blogTagPath(TUTORIALS_TAG), key: "footer.resources.tutorials" },
    ],
  },
  {
    id: "company",
    links: [
      { to: PATHS.about, key: "footer.company.about" },
      { to: PATHS.contact, key: "footer.company.contact" },
      { to: PATHS.privacy, key: "footer.company.privacy" },
      { to: PATHS.terms, key: "footer.company.terms" },
    ],
  },
] as const;

/**
 * After a route change: smooth scroll to the linked section, or to the top. Not on the first load: the
 * browser has placed the page already (at its hash, or where the visitor has scrolled to meanwhile).
 */
function useScrollOnRouteChange() {
  const { pathname, hash } = useLocation();
  const placed = useRef(`${pathname}${hash}`);
  useEffect(() => {
    if (placed.current === `${pathname}${hash}`) return;
    placed.current = `${pathname}${hash}`;
    const timer = setTimeout(() => {
      const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
      if (target) target.scrollIntoView({ behavior: "smooth", block: "start" });
      else window.scrollTo({ top: 0, behavior: "smooth" });
    }, SCROLL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pathname, hash]);
}

export function Footer() {
  const { t } = useTranslation();
  useScrollOnRouteChange();
  const hydrated = useHydrated();
  const name = t("app.name");
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div className="site-footer__about">
          <p className="brand brand--footer">
            <img className="brand__logo" src="/static/dist/logo.png" alt="" width="32" height="32" />
            <span className="brand__name">{name}</span>
          </p>
          <p className="site-footer__description">
            {t("footer.description", { minutes: DEFAULT_RETENTION_MINUTES })}
          </p>
        </div>
        <nav className="site-footer__groups" aria-label={t("footer.navigation")}>
          {GROUPS.map((group) => (
            <div key={group.id} className="site-footer__group">
              <h2 className="site-footer__title">{t(`footer.${group.id}.title`)}</h2>
              <ul>
                {group.links.map((link) => (
                  <li key={link.key}>
                    <LocalizedLink to={link.to}>{t(link.key)}</LocalizedLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {EXTERNAL_LINKS.length > 0 ? (
            <div className="site-footer__group">
              <h2 className="site-footer__title">{t("footer.products.title")}</h2>
              <ul>
                {EXTERNAL_LINKS.map((link) => (
                  <li key={link.id}>
                    <a href={link.href} target="_blank" rel="noopener noreferrer">
                      {t(`footer.products.${link.id}`)}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </nav>
      </div>
      <div className="container site-footer__bottom">
        {/* The year the page was built in, kept while hydrating (React leaves this one text as it
            is), then the visitor's current year. */}
        <p key={hydrated ? "browser" : "page"} suppressHydrationWarning>
          {t("footer.copyright", { year: new Date().getFullYear(), name })}
        </p>
        <p>{t("footer.license")}</p>
      </div>
    </footer>
  );
}

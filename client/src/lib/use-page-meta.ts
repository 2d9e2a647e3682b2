import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { applyHead, type PageHead, pageHead } from "./page-head";

export interface PageMeta {
  /** The page's own title; the brand is appended. Omit for the brand alone. */
  title?: string;
  description: string;
  /** "article" for blog posts. */
  type?: "website" | "article";
  image?: string;
  /** Comma-separated keywords (a blog post's tags). */
  keywords?: string;
  /** Extra `<meta property>` tags such as article:author. */
  extra?: Readonly<Record<string, string>>;
  /** Keeps the page out of search engines (the not-found page). */
  noindex?: boolean;
}

/** The public origin canonical and alternate addresses use (SITE_ORIGIN at build time). */
export const SITE_ORIGIN: string = (import.meta.env.VITE_SITE_ORIGIN ?? "").replace(/\/+$/, "");

let renderedHead: PageHead | null = null;

/** The head the last server render asked for (the prerender reads it after each page). */
export function takeRenderedHead(): PageHead | null {
  const head = renderedHead;
  renderedHead = null;
  return head;
}

/**
 * Sets the document title and the search-engine and social-card tags of the current page: during a
 * prerender they are recorded for the page's HTML, in the browser they follow every navigation.
 */
export function usePageMeta({
  title,
  description,
  type = "website",
  image,
  keywords,
  extra,
  noindex = false,
}: PageMeta) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const brand = t("app.name");
  const fullTitle = title ? t("app.titleTemplate", { page: title, name: brand }) : brand;
  const extraKey = JSON.stringify(extra ?? {});
  const head = useMemo(
    () =>
      pageHead({
        title: fullTitle,
        description,
        brand,
        pathname,
        origin: SITE_ORIGIN || (typeof window === "undefined" ? "" : window.location.origin),
        type,
        image,
        keywords,
        extra: JSON.parse(extraKey) as Record<string, string>,
        noindex,
      }),
    [fullTitle, description, brand, pathname, type, image, keywords, extraKey, noindex],
  );
  if (typeof document === "undefined") renderedHead = head;
  useEffect(() => applyHead(head, document), [head]);
}

import { useEffect } from "react";
import { useTranslation } from "react-i18next";

export interface PageMeta {
  /** The page's own title; the brand is appended. Omit for the brand alone. */
  title?: string;
  description: string;
  /** "article" for blog posts. */
  type?: "website" | "article";
  image?: string;
  /** Extra `<meta property>` tags such as article:author. */
  extra?: Readonly<Record<string, string>>;
}

function setMeta(attribute: "name" | "property", key: string, content: string) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement("meta");
    element.setAttribute(attribute, key);
    element.dataset.pageMeta = "";
    document.head.append(element);
  }
  element.content = content;
}

function setCanonical(href: string) {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "canonical";
    document.head.append(link);
  }
  link.href = href;
}

/** Sets the document title and the search-engine and social-card tags of the current page. */
export function usePageMeta({ title, description, type = "website", image, extra }: PageMeta) {
  const { t } = useTranslation();
  const brand = t("app.name");
  const fullTitle = title ? t("app.titleTemplate", { page: title, name: brand }) : brand;
  const extraKey = JSON.stringify(extra ?? {});
  useEffect(() => {
    const url = `${window.location.origin}${window.location.pathname}`;
    document.title = fullTitle;
    setMeta("name", "description", description);
    setMeta("name", "robots", "index, follow");
    setMeta("property", "og:title", fullTitle);
    setMeta("property", "og:description", description);
    setMeta("property", "og:type", type);
    setMeta("property", "og:url", url);
    setMeta("property", "og:site_name", brand);
    setMeta("name", "twitter:card", image ? "summary_large_image" : "summary");
    setMeta("name", "twitter:title", fullTitle);
    setMeta("name", "twitter:description", description);
    if (image) setMeta("property", "og:image", new URL(image, window.location.origin).href);
    for (const [key, value] of Object.entries(JSON.parse(extraKey) as Record<string, string>)) {
      setMeta("property", key, value);
    }
    setCanonical(url);
    return () => {
      for (const element of document.head.querySelectorAll("meta[data-page-meta]")) {
        const key = element.getAttribute("property") ?? "";
        if (key.startsWith("article:") || key === "og:image") element.remove();
      }
    };
  }, [fullTitle, description, type, image, brand, extraKey]);
}

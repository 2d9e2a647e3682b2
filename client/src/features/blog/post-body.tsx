import { type MouseEvent, useMemo } from "react";
import { useNavigate } from "react-router";
import { useLocalizedPath } from "../../lib/i18n/use-localized-path";
import { renderPostMarkdown } from "./render-markdown";

/**
 * The sanitised HTML of an article body. Links to the site's own pages ("/tools/…") navigate inside
 * the app, under the current language prefix, instead of reloading the page. `lang` names the
 * body's language when it is not the page's (the articles are written in English).
 */
export function PostBody({ markdown, lang }: { markdown: string; lang?: string | undefined }) {
  const html = useMemo(() => renderPostMarkdown(markdown), [markdown]);
  const navigate = useNavigate();
  const localize = useLocalizedPath();

  const followSiteLink = (event: MouseEvent<HTMLDivElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest("a");
    const href = link?.getAttribute("href") ?? "";
    if (!href.startsWith("/") || href.startsWith("//") || href.startsWith("/content/")) return;
    event.preventDefault();
    void navigate(localize(href));
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: the links inside are the interactive elements; the handler only routes their clicks (Enter on a link fires click too)
    <div
      className="prose article__body"
      lang={lang}
      onClick={followSiteLink}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML comes from sanitize-post-html.ts (DOMPurify, spec §5 rules)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

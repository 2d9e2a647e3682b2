import { useTranslation } from "react-i18next";
import { useHydrated } from "../../lib/use-hydrated";
import type { BlogPost } from "./posts";

/** Author, date and reading time of a post. */
export function PostMeta({ post }: { post: BlogPost }) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [year, month, day] = post.date.split("-").map(Number);
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, {
    dateStyle: "medium",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)));
  return (
    <p className="post-meta">
      <span>{t("pages.blog.byAuthor", { author: post.author })}</span>
      <span aria-hidden="true">·</span>
      {/* The prerender's ICU data (Node) and the browser's may word a date differently: hydration
          keeps the page's wording (React leaves this one text as it is), then the browser's replaces it. */}
      <time key={hydrated ? "browser" : "page"} dateTime={post.date} suppressHydrationWarning>
        {date}
      </time>
      <span aria-hidden="true">·</span>
      <span>{t("pages.blog.readingTime", { minutes: post.readingTime })}</span>
    </p>
  );
}

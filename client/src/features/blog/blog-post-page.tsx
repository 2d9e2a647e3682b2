import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useParams } from "react-router";
import { Icon, type IconName } from "../../components/icon";
import { LocalizedLink } from "../../components/localized-link";
import { blogTagPath, PATHS } from "../../config/paths";
import { prerenderedData } from "../../lib/prerendered-data";
import { SITE_ORIGIN, usePageMeta } from "../../lib/use-page-meta";
import { PostBody } from "./post-body";
import { postHead } from "./post-head";
import { PostMeta } from "./post-meta";
import { langUnless, postText } from "./post-schema";
import { type Attachment, assetUrl, loadPost, PostNotFoundError, postQueryKey } from "./posts";
import { ShareButtons } from "./share-buttons";
import "./blog.css";

const ATTACHMENT_ICONS: Record<Attachment["type"], IconName> = {
  pdf: "document",
  video: "video",
  image: "image",
};

function BackLink() {
  const { t } = useTranslation();
  return (
    <LocalizedLink className="back-link" to={PATHS.blog}>
      ← {t("pages.post.back")}
    </LocalizedLink>
  );
}

/** One article: loading, then the post, or Post not found / Failed to load post content. */
export default function BlogPostPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const { slug = "" } = useParams();
  const { pathname } = useLocation();
  // Shared addresses start with the public origin in the prerendered page, and with the one the
  // visitor actually uses once hydrated (they differ on a local or preview deployment).
  const [origin, setOrigin] = useState(SITE_ORIGIN);
  useEffect(() => setOrigin(window.location.origin), []);
  const query = useQuery({
    queryKey: postQueryKey(slug),
    queryFn: () => loadPost(slug),
    initialData: () => prerenderedData<Awaited<ReturnType<typeof loadPost>>>(postQueryKey(slug)),
    retry: (count, error) => !(error instanceof PostNotFoundError) && count < 3,
  });
  const head = query.data ? postHead(query.data.post, t("pages.blog.title"), language) : null;
  usePageMeta({
    title: head?.title ?? t("pages.blog.title"),
    description: head?.description ?? t("pages.blog.description"),
    type: head ? "article" : "website",
    ...(head?.image ? { image: assetUrl(head.image) } : {}),
    ...(head ? { keywords: head.keywords } : {}),
    extra: head ? { ...head.articleTags } : {},
  });

  // A post already shown (prerendered, or loaded before) stays when a later refetch fails.
  if (query.data === undefined && !query.isError) {
    return (
      <div className="container page page--narrow">
        <p className="state-message" role="status">
          {t("pages.post.loading")}
        </p>
      </div>
    );
  }
  if (query.data === undefined) {
    return (
      <div className="container page page--narrow">
        <BackLink />
        <p className="state-message state-message--error" data-testid="post-error">
          {query.error instanceof PostNotFoundError ? t("errors.postNotFound") : t("errors.postLoadFailed")}
        </p>
      </div>
    );
  }

  const { post: article, body } = query.data;
  const image = article.image ? assetUrl(article.image) : null;
  const url = `${origin}${pathname}`;
  // The title and description in the page's language when the post has them; the body, the
  // attachments' titles and the tags are in the post's own language, and say so.
  const text = postText(article, language);
  const written = langUnless(article.language, language);
  return (
    <article className="container page page--narrow article">
      <BackLink />
      {image ? <img className="article__image" src={image} alt="" /> : null}
      <header className="article__header">
        <h1 className="page__title" {...langUnless(text.language, language)}>
          {text.title}
        </h1>
        <PostMeta post={article} />
      </header>
      <ShareButtons title={text.title} description={text.description} url={url} />
      <PostBody markdown={body} lang={written.lang} />
      {article.attachments && article.attachments.length > 0 ? (
        <section className="attachments" aria-labelledby="attachments-title">
          <h2 id="attachments-title">{t("pages.post.attachments")}</h2>
          <ul>
            {article.attachments.map((attachment) => (
              <li key={attachment.url}>
                <a href={assetUrl(attachment.url)} target="_blank" rel="noopener noreferrer">
                  <Icon name={ATTACHMENT_ICONS[attachment.type]} />{" "}
                  <span {...written}>{attachment.title}</span>{" "}
                  <span className="attachments__type">
                    ({t(`pages.post.attachmentType.${attachment.type}`)})
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {article.tags.length > 0 ? (
        <section aria-labelledby="tags-title">
          <h2 id="tags-title" className="visually-hidden">
            {t("pages.post.tags")}
          </h2>
          <ul className="tag-list" {...written}>
            {article.tags.map((tag) => (
              <li key={tag}>
                <LocalizedLink className="tag" to={blogTagPath(tag)}>
                  #{tag}
                </LocalizedLink>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}

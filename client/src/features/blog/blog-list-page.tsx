import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { LocalizedLink } from "../../components/localized-link";
import { Spinner } from "../../components/spinner";
import { PATHS } from "../../config/paths";
import { prerenderedData } from "../../lib/prerendered-data";
import { usePageMeta } from "../../lib/use-page-meta";
import { PostCard } from "./post-card";
import { type BlogPost, loadPosts, postsQueryKey } from "./posts";
import "./blog.css";

/** The blog list, all posts or those of one tag: loading, then error, empty or the cards. */
export default function BlogListPage() {
  const { t } = useTranslation();
  const { tag } = useParams();
  const posts = useQuery({
    queryKey: postsQueryKey(tag),
    queryFn: () => loadPosts(tag),
    initialData: () => prerenderedData<BlogPost[]>(postsQueryKey(tag)),
  });
  const heading = tag ? t("pages.blog.tagTitle", { tag }) : t("pages.blog.heading");
  usePageMeta({ title: tag ? heading : t("pages.blog.title"), description: t("pages.blog.description") });

  useEffect(() => {
    if (posts.error) console.error("Failed to load blog posts", posts.error);
  }, [posts.error]);

  // Posts already shown (prerendered, or loaded before) stay when a later refetch fails.
  let content: ReactNode;
  if (posts.data === undefined)
    content = posts.isError ? (
      <p className="state-message state-message--error">{t("errors.blogLoadFailed")}</p>
    ) : (
      <Spinner centered label={t("app.loading")} />
    );
  else if (posts.data.length === 0)
    content = (
      <p className="state-message" data-testid="blog-empty">
        {tag ? t("errors.noPostsForTag", { tag }) : t("errors.noPosts")}
      </p>
    );
  else
    content = (
      <ul className="card-grid card-grid--three">
        {posts.data.map((post) => (
          <PostCard key={post.slug} post={post} />
        ))}
      </ul>
    );

  return (
    <div className="container page">
      <header className="page__header">
        {tag ? (
          <LocalizedLink className="back-link" to={PATHS.blog}>
            ← {t("pages.blog.backToAll")}
          </LocalizedLink>
        ) : null}
        <h1 className="page__title">{heading}</h1>
        {tag ? null : <p className="page__subtitle">{t("pages.blog.subtitle")}</p>}
      </header>
      {content}
    </div>
  );
}

import { useTranslation } from "react-i18next";
import { LocalizedLink } from "../../components/localized-link";
import { blogPostPath, blogTagPath } from "../../config/paths";
import { PostMeta } from "./post-meta";
import { langUnless, postText } from "./post-schema";
import { assetUrl, type BlogPost } from "./posts";

/** Spec §9: a card shows at most two tags. */
const CARD_TAGS = 2;

export function PostCard({ post }: { post: BlogPost }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? "en";
  const text = postText(post, language);
  const textLang = langUnless(text.language, language);
  const image = post.image ? assetUrl(post.image) : null;
  return (
    <li className="card post-card" data-testid="post-card">
      {image ? <img className="post-card__image" src={image} alt="" loading="lazy" /> : null}
      <div className="post-card__body">
        <ul className="tag-list" {...langUnless(post.language, language)}>
          {post.tags.slice(0, CARD_TAGS).map((tag) => (
            <li key={tag}>
              <LocalizedLink className="tag" to={blogTagPath(tag)}>
                #{tag}
              </LocalizedLink>
            </li>
          ))}
        </ul>
        <h2 className="post-card__title" {...textLang}>
          <LocalizedLink to={blogPostPath(post.slug)}>{text.title}</LocalizedLink>
        </h2>
        <p className="post-card__description" {...textLang}>
          {text.description}
        </p>
        <PostMeta post={post} />
        <LocalizedLink className="visually-hidden" to={blogPostPath(post.slug)}>
          {t("pages.blog.readMore", { title: text.title })}
        </LocalizedLink>
      </div>
    </li>
  );
}

import { useTranslation } from "react-i18next";
import { showToast } from "../../lib/toast-store";
import { untilHydrated, useHydrated } from "../../lib/use-hydrated";

/** Spec §9: the copy-link toast stays 3000 ms. */
const COPY_TOAST_MS = 3000;

interface ShareButtonsProps {
  title: string;
  description: string;
  url: string;
}

/** Share links (each opens a new window without an opener), email and copy link. */
export function ShareButtons({ title, description, url }: ShareButtonsProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const encodedUrl = encodeURIComponent(url);
  const networks = [
    {
      id: "twitter",
      label: t("pages.post.shareTwitter"),
      href: `https://twitter.com/intent/tweet?text=${encodeURIComponent(title)}&url=${encodedUrl}`,
    },
    {
      id: "facebook",
      label: t("pages.post.shareFacebook"),
      href: `https://www.facebook.com/sharer/sharer.php?u=${encodedUrl}`,
    },
    {
      id: "linkedin",
      label: t("pages.post.shareLinkedIn"),
      href: `https://www.linkedin.com/sharing/share-offsite/?url=${encodedUrl}`,
    },
  ];
  const mailto = `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(
    t("pages.post.emailBody", { title, description, url }),
  )}`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      showToast({
        title: t("pages.post.linkCopied"),
        description: t("pages.post.linkCopiedDescription"),
        durationMs: COPY_TOAST_MS,
      });
    } catch {
      showToast({ variant: "destructive", title: t("errors.title"), description: t("errors.unexpected") });
    }
  };

  return (
    <section className="share" aria-labelledby="share-title">
      <h2 id="share-title" className="share__title">
        {t("pages.post.shareTitle")}
      </h2>
      <ul className="share__list">
        {networks.map((network) => (
          <li key={network.id}>
            <a className="button button--small" href={network.href} target="_blank" rel="noopener noreferrer">
              {network.label}
            </a>
          </li>
        ))}
        <li>
          <a className="button button--small" href={mailto}>
            {t("pages.post.shareEmail")}
          </a>
        </li>
        <li>
          <button
            type="button"
            className="button button--small"
            onClick={() => void copy()}
            {...untilHydrated(hydrated)}
          >
            {t("pages.post.copyLink")}
          </button>
        </li>
      </ul>
    </section>
  );
}

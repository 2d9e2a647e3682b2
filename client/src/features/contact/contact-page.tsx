import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { showToast } from "../../lib/toast-store";
import { usePageMeta } from "../../lib/use-page-meta";
import "./contact.css";

/** Contact topics (spec §3); the first is the usual choice. */
const TOPICS = ["general", "support", "billing", "feedback", "partnership"] as const;
/** Spec §9: the form resets 1000 ms after submitting. */
const SUBMIT_DELAY_MS = 1000;

const EMPTY = { name: "", email: "", topic: "", message: "" };

/**
 * The contact form: name, email and message are required (email checked by the browser), topic is
 * optional. Submitting shows Sending..., then after 1 s resets the form and confirms with a toast.
 * Nothing is sent to any other service.
 */
export default function ContactPage() {
  const { t } = useTranslation();
  usePageMeta({ title: t("pages.contact.title"), description: t("pages.contact.description") });
  // A link may choose the topic (/contact?topic=billing from the premium page).
  const [query] = useSearchParams();
  const [values, setValues] = useState(() => ({
    ...EMPTY,
    topic: TOPICS.find((topic) => topic === query.get("topic")) ?? "",
  }));
  const [submitting, setSubmitting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const update = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setSubmitting(true);
    timer.current = setTimeout(() => {
      setValues(EMPTY);
      setSubmitting(false);
      showToast({ title: t("pages.contact.submitted") });
    }, SUBMIT_DELAY_MS);
  };

  const required = <span className="field__required">({t("pages.contact.required")})</span>;
  return (
    <div className="container page page--narrow">
      <header className="page__header">
        <h1 className="page__title">{t("pages.contact.heading")}</h1>
        <p className="page__subtitle">{t("pages.contact.subtitle")}</p>
      </header>
      <form className="card contact-form" onSubmit={submit} data-testid="contact-form">
        <div className="field">
          <label htmlFor="contact-name">
            {t("pages.contact.name")} {required}
          </label>
          <input
            id="contact-name"
            name="name"
            autoComplete="name"
            required
            value={values.name}
            onChange={update("name")}
          />
        </div>
        <div className="field">
          <label htmlFor="contact-email">
            {t("pages.contact.email")} {required}
          </label>
          <input
            id="contact-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={values.email}
            onChange={update("email")}
          />
        </div>
        <div className="field">
          <label htmlFor="contact-topic">{t("pages.contact.topic")}</label>
          <select id="contact-topic" name="topic" value={values.topic} onChange={update("topic")}>
            <option value="">{t("pages.contact.topicPlaceholder")}</option>
            {TOPICS.map((topic) => (
              <option key={topic} value={topic}>
                {t(`pages.contact.topics.${topic}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="contact-message">
            {t("pages.contact.message")} {required}
          </label>
          <textarea
            id="contact-message"
            name="message"
            rows={6}
            required
            value={values.message}
            onChange={update("message")}
          />
        </div>
        <button
          type="submit"
          className="button button--primary button--large"
          disabled={submitting}
          aria-busy={submitting}
        >
          {submitting ? t("pages.contact.sending") : t("pages.contact.submit")}
        </button>
      </form>
    </div>
  );
}

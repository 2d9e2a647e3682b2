import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import {
  CONTACT_HONEYPOT,
  CONTACT_LIMITS,
  CONTACT_TOPICS,
  type ContactField,
  type ContactProblem,
  contactProblems,
  contactSubmissionSchema,
} from "../../../../contract/contact.ts";
import { toApiError } from "../../lib/api/api-error";
import { isLanguageCode } from "../../lib/contract";
import { showToast } from "../../lib/toast-store";
import { useHydrated } from "../../lib/use-hydrated";
import { usePageMeta } from "../../lib/use-page-meta";
import { failureText, problemText, serverProblem } from "./contact-problems";
import { sendContactMessage } from "./send-contact-message";
import "./contact.css";

type Values = Record<ContactField | typeof CONTACT_HONEYPOT, string>;
const EMPTY: Values = { name: "", email: "", topic: "", message: "", [CONTACT_HONEYPOT]: "" };
const isTopic = (value: string | null) => CONTACT_TOPICS.some((topic) => topic === value);

/**
 * The contact form (spec §2–§5): name, email and message required, topic optional (preselected by
 * `?topic=billing` and the like). The shared schema checks it before sending, with a translated
 * message under each refused field. Sending... shows until the server has stored the message; only
 * then the fields reset, Form submitted shows, and a notice above the form says the message was
 * sent and what happens next. A failure shows a toast saying why, and keeps
 * everything typed.
 */
export default function ContactPage() {
  const { t, i18n } = useTranslation();
  usePageMeta({ title: t("pages.contact.title"), description: t("pages.contact.description") });
  const [search] = useSearchParams();
  const [values, setValues] = useState<Values>(EMPTY);
  // After hydration, not in the first render: the prerendered page has no topic, and hydration
  // would keep the served <select> as it is.
  const linkedTopic = search.get("topic");
  useEffect(() => {
    if (linkedTopic !== null && isTopic(linkedTopic))
      setValues((current) => ({ ...current, topic: linkedTopic }));
  }, [linkedTopic]);
  const [problems, setProblems] = useState<readonly ContactProblem[]>([]);
  const [submitting, setSubmitting] = useState(false);
  // Who the last message was from: the page says it was sent and what happens next.
  const [sent, setSent] = useState<{ name: string; email: string } | null>(null);
  const sentNotice = useRef<HTMLElement>(null);
  useEffect(() => {
    if (sent) sentNotice.current?.focus();
  }, [sent]);
  // Sent disabled: before the app runs, the form would be submitted as a plain page request.
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);

  const update = (field: keyof Values) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setProblems((current) => current.filter((problem) => problem.field !== field));
  };

  /** Shows the refusals and puts the focus on the first refused field, which announces its message. */
  const refuse = (found: readonly ContactProblem[]) => {
    setProblems(found);
    const first = found[0];
    if (first !== undefined) form.current?.querySelector<HTMLElement>(`[name="${first.field}"]`)?.focus();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const language = i18n.resolvedLanguage;
    const message = { ...values, ...(isLanguageCode(language) ? { language } : {}) };
    const checked = contactSubmissionSchema.safeParse(message);
    if (!checked.success) {
      refuse(contactProblems(checked.error));
      return;
    }
    setProblems([]);
    setSent(null);
    setSubmitting(true);
    try {
      await sendContactMessage(checked.data);
      // Only what was sent is cleared: anything typed while it was on its way stays.
      setValues((current) => {
        const next = { ...current };
        for (const key of Object.keys(EMPTY) as (keyof Values)[])
          if (current[key] === values[key]) next[key] = "";
        return next;
      });
      showToast({ title: t("pages.contact.submitted") });
      setSent({ name: checked.data.name, email: checked.data.email });
    } catch (caught) {
      const error = toApiError(caught);
      const problem = serverProblem(error);
      if (problem !== null) refuse([problem]);
      const length = problem === null ? 0 : values[problem.field].length;
      showToast({
        variant: "destructive",
        title: t("pages.contact.notSent"),
        description: `${failureText(t, error, problem, length)} ${t("pages.contact.textKept")}`,
      });
    } finally {
      setSubmitting(false);
    }
  };

  /** The props every control shares: its id and name, value, change handler and problem state. */
  const controlProps = (name: ContactField, describedBy: string | undefined) => ({
    id: `contact-${name}`,
    name,
    "aria-invalid": problems.some((p) => p.field === name) || undefined,
    "aria-describedby": describedBy,
    value: values[name],
    onChange: update(name),
  });
  type ControlProps = ReturnType<typeof controlProps>;

  /** Label, control and, when refused, the field's message (linked by aria-describedby). */
  const field = (
    name: ContactField,
    control: (props: ControlProps) => ReactNode,
    { required = false, hint }: { required?: boolean; hint?: ReactNode } = {},
  ) => {
    const problem = problems.find((p) => p.field === name);
    const ids = [
      hint === undefined ? null : `contact-${name}-hint`,
      problem ? `contact-${name}-problem` : null,
    ];
    const describedBy = ids.filter((id) => id !== null).join(" ") || undefined;
    return (
      <div className="field">
        <label htmlFor={`contact-${name}`}>
          {t(`pages.contact.${name}`)}
          {required ? <span className="field__required"> ({t("pages.contact.required")})</span> : null}
        </label>
        {control(controlProps(name, describedBy))}
        {hint === undefined ? null : (
          <p className="field__hint" id={`contact-${name}-hint`}>
            {hint}
          </p>
        )}
        {problem === undefined ? null : (
          <p className="field__problem" id={`contact-${name}-problem`} data-testid="field-problem">
            {problemText(t, problem, values[name].length)}
          </p>
        )}
      </div>
    );
  };

  return (
    <div className="container page page--narrow">
      <header className="page__header">
        <h1 className="page__title">{t("pages.contact.heading")}</h1>
        <p className="page__subtitle">{t("pages.contact.subtitle")}</p>
      </header>
      {sent ? (
        <section
          ref={sentNotice}
          className="card contact-sent"
          role="status"
          tabIndex={-1}
          aria-labelledby="contact-sent-title"
          data-testid="contact-sent"
        >
          <h2 id="contact-sent-title" className="contact-sent__title">
            {t("pages.contact.sent.title")}
          </h2>
          <p className="contact-sent__body">{t("pages.contact.sent.body", sent)}</p>
        </section>
      ) : null}
      <form ref={form} className="card contact-form" onSubmit={submit} noValidate data-testid="contact-form">
        {field(
          "name",
          (props) => (
            <input {...props} autoComplete="name" required />
          ),
          { required: true },
        )}
        {field(
          "email",
          (props) => (
            <input {...props} type="email" autoComplete="email" required />
          ),
          {
            required: true,
          },
        )}
        {field("topic", (props) => (
          <select {...props}>
            <option value="">{t("pages.contact.topicPlaceholder")}</option>
            {CONTACT_TOPICS.map((topic) => (
              <option key={topic} value={topic}>
                {t(`pages.contact.topics.${topic}`)}
              </option>
            ))}
          </select>
        ))}
        {field(
          "message",
          (props) => (
            <textarea {...props} rows={6} required />
          ),
          {
            required: true,
            hint: t("pages.contact.characters", {
              length: values.message.length,
              max: CONTACT_LIMITS.message,
            }),
          },
        )}
        {/* The honeypot: off screen, out of the accessibility tree and the tab order; people leave it empty. */}
        <div className="contact-form__trap" aria-hidden="true">
          <label htmlFor="contact-website">{t("pages.contact.honeypot")}</label>
          <input
            id="contact-website"
            name={CONTACT_HONEYPOT}
            tabIndex={-1}
            autoComplete="off"
            value={values[CONTACT_HONEYPOT]}
            onChange={update(CONTACT_HONEYPOT)}
          />
        </div>
        <button
          type="submit"
          className="button button--primary button--large"
          disabled={submitting || !hydrated}
          aria-busy={submitting || !hydrated}
        >
          {submitting ? t("pages.contact.sending") : t("pages.contact.submit")}
        </button>
      </form>
    </div>
  );
}

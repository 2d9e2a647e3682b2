import type { TFunction } from "i18next";
import {
  CONTACT_FIELDS,
  type ContactField,
  type ContactProblem,
  type ContactProblemKind,
} from "../../../../contract/contact.ts";
import type { ApiError } from "../../lib/api/api-error";
import { apiErrorMessage } from "../../lib/show-error";

/** The message of each refusal a field can get. */
const MESSAGES = {
  name: { required: "pages.contact.problems.nameRequired", tooLong: "pages.contact.problems.nameTooLong" },
  email: {
    required: "pages.contact.problems.emailRequired",
    invalid: "pages.contact.problems.emailInvalid",
    tooLong: "pages.contact.problems.emailTooLong",
  },
  topic: { invalid: "pages.contact.problems.topicInvalid" },
  message: {
    required: "pages.contact.problems.messageRequired",
    tooLong: "pages.contact.problems.messageTooLong",
  },
} as const;

type MessageKey = { [F in ContactField]: (typeof MESSAGES)[F][keyof (typeof MESSAGES)[F]] }[ContactField];

const KINDS: readonly ContactProblemKind[] = ["required", "tooLong", "invalid"];

/** The translated text of a refused field (`length`: how long the field now is). */
export function problemText(t: TFunction, problem: ContactProblem, length: number): string {
  const messages: Partial<Record<ContactProblemKind, MessageKey>> = MESSAGES[problem.field];
  const key = messages[problem.problem] ?? messages.invalid ?? messages.required;
  return key === undefined ? t("errors.codes.BAD_REQUEST") : t(key, { max: problem.max ?? 0, length });
}

/** The refused field the server named in a 400 answer, if it named one. */
export function serverProblem(error: ApiError): ContactProblem | null {
  if (error.code !== "BAD_REQUEST") return null;
  const { field, problem, max } = error.context;
  const known = CONTACT_FIELDS.find((name) => name === field);
  const kind = KINDS.find((name) => name === problem);
  if (known === undefined || kind === undefined) return null;
  return typeof max === "number" ? { field: known, problem: kind, max } : { field: known, problem: kind };
}

/** Why sending failed, in the user's language: the network, the limit, a refused field… */
export function failureText(
  t: TFunction,
  error: ApiError,
  problem: ContactProblem | null,
  length: number,
): string {
  if (problem !== null) return problemText(t, problem, length);
  // Without the server, even the CSRF token cannot be fetched: that is the network's fault.
  if (error.code === null && error.fallbackKey === "errors.csrfFailed") return t("errors.network");
  return apiErrorMessage(t, error);
}

import { z } from "zod";
import { LANGUAGE_CODES, type LanguageCode } from "./languages.ts";

/**
 * The contact form (spec §3, §5) as one schema shared by the page, which checks it before sending,
 * and the Worker, which checks it again: name, email and message are required, topic is optional.
 */
export const CONTACT_TOPICS = ["general", "support", "billing", "feedback", "partnership"] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];

/** Longest accepted values, in UTF-16 code units (what `String.length` counts). */
export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const;

/**
 * The honeypot: a field the page hides from people, screen readers and the keyboard, so only a
 * bot that fills every input it finds sends it non-empty.
 */
export const CONTACT_HONEYPOT = "website";

export const CONTACT_PATHS = {
  submit: "/api/contact",
  /** GET: stored messages, newest first (`ADMIN_TOKEN` as bearer token). */
  adminMessages: "/api/admin/contact/messages",
} as const;
/** DELETE: one stored message (`ADMIN_TOKEN` as bearer token). */
export const adminMessagePath = (id: number | string) => `${CONTACT_PATHS.adminMessages}/${id}`;

const text = (max: number) => z.string().trim().min(1).max(max);

export const contactSubmissionSchema = z.object({
  name: text(CONTACT_LIMITS.name),
  /** The HTML standard's rule, the one a browser applies to `<input type="email">`. */
  email: z
    .string()
    .trim()
    .min(1)
    .max(CONTACT_LIMITS.email)
    .pipe(z.email({ pattern: z.regexes.html5Email })),
  /** Empty when no topic was chosen. */
  topic: z.union([z.enum(CONTACT_TOPICS), z.literal("")]).default(""),
  message: text(CONTACT_LIMITS.message),
  /** The interface language the message was written from (to answer in it). */
  language: z.enum(LANGUAGE_CODES as [LanguageCode, ...LanguageCode[]]).optional(),
  [CONTACT_HONEYPOT]: z.string().max(1000).default(""),
});
export type ContactSubmission = z.input<typeof contactSubmissionSchema>;
export type ContactMessageInput = z.output<typeof contactSubmissionSchema>;

export const CONTACT_FIELDS = ["name", "email", "topic", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** Why a field was refused; the page shows `pages.contact.problems.<field>.<problem>`. */
export type ContactProblemKind = "required" | "tooLong" | "invalid";
export interface ContactProblem {
  readonly field: ContactField;
  readonly problem: ContactProblemKind;
  /** The field's limit, for `tooLong`. */
  readonly max?: number;
}

/** The refused fields of a failed parse, in form order, one problem per field. */
export function contactProblems(error: z.ZodError): ContactProblem[] {
  const found = new Map<ContactField, ContactProblem>();
  for (const issue of error.issues) {
    const field = CONTACT_FIELDS.find((name) => name === issue.path[0]);
    if (field === undefined || found.has(field)) continue;
    // Missing (or not text at all) and blank both count as not filled in.
    if (issue.code === "too_small" || issue.code === "invalid_type")
      found.set(field, { field, problem: "required" });
    else if (issue.code === "too_big" && field !== "topic")
      found.set(field, { field, problem: "tooLong", max: CONTACT_LIMITS[field] });
    else found.set(field, { field, problem: "invalid" });
  }
  return CONTACT_FIELDS.flatMap((field) => {
    const problem = found.get(field);
    return problem === undefined ? [] : [problem];
  });
}

export const contactReceiptSchema = z.object({
  /** The stored message's number. */
  id: z.number().int().positive(),
  received_at: z.string(),
});
export type ContactReceipt = z.infer<typeof contactReceiptSchema>;

/** What happened to the copy sent by email: off (not configured), pending, sent or failed. */
export const forwardStateSchema = z.enum(["off", "pending", "sent", "failed"]);
export type ForwardState = z.infer<typeof forwardStateSchema>;

export const storedContactMessageSchema = z.object({
  id: z.number().int().positive(),
  received_at: z.string(),
  name: z.string(),
  email: z.string(),
  topic: z.string(),
  message: z.string(),
  language: z.string().nullable(),
  forward: forwardStateSchema,
});
export type StoredContactMessage = z.infer<typeof storedContactMessageSchema>;

export const ADMIN_PAGE_SIZE = { default: 20, max: 100 } as const;

/** `GET` admin messages: `limit` per page, `before` the id where the previous page ended. */
export const adminMessagesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ADMIN_PAGE_SIZE.max).default(ADMIN_PAGE_SIZE.default),
  before: z.coerce.number().int().positive().optional(),
});
export type AdminMessagesQuery = z.infer<typeof adminMessagesQuerySchema>;

export const adminMessagesPageSchema = z.object({
  messages: z.array(storedContactMessageSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: z.number().int().positive().nullable(),
  /** All stored messages. */
  total: z.number().int().nonnegative(),
});
export type AdminMessagesPage = z.infer<typeof adminMessagesPageSchema>;

export const adminMessageParamsSchema = z.object({ id: z.coerce.number().int().positive() });

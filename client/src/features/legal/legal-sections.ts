/** The sections of each legal text, in page order; their strings are `pages.<page>.<section>.{title,body}`. */
export const PRIVACY_SECTIONS = [
  "uploads",
  "processing",
  "retention",
  "cookies",
  "storage",
  "thirdParties",
  "logs",
  "contactForm",
] as const;

export const TERMS_SECTIONS = [
  "service",
  "yourFiles",
  "acceptableUse",
  "availability",
  "liability",
  "premium",
  "openSource",
  "changes",
] as const;

/**
 * The day each legal text last changed (its strings under `pages.<page>` in any language), as git
 * history shows: privacy 2026-11-27 (dc47634, the language entry of the storage list), terms
 * 2026-11-23 (6571c56, the free-conversions notice). tests/unit/legal-dates.test.ts fails when the
 * text changes without this date.
 */
export const LEGAL_UPDATED = { privacy: "2026-11-27", terms: "2026-11-23" } as const;

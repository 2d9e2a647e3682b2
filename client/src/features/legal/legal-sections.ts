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
 * history shows: both 2026-11-27, when their English titles took sentence case and the terms dropped
 * their line on tools not yet built (before that, the privacy policy on 2026-11-27 in dc47634, the
 * terms on 2026-11-23 in 6571c56).
 * tests/unit/legal-dates.test.ts fails when a text changes without this date.
 */
export const LEGAL_UPDATED = { privacy: "2026-11-27", terms: "2026-11-27" } as const;

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

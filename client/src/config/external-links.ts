/**
 * External links of the footer's "We also built" group. Their addresses belong to the deployment,
 * so they come from build-time variables; a link without an address is not shown.
 */
export interface ExternalLink {
  readonly id: "sisterProduct" | "social" | "sourceCode";
  readonly href: string;
}

const candidates: ReadonlyArray<{ id: ExternalLink["id"]; href: string | undefined }> = [
  { id: "sisterProduct", href: import.meta.env.VITE_SISTER_PRODUCT_URL },
  { id: "social", href: import.meta.env.VITE_COMPANY_SOCIAL_URL },
  { id: "sourceCode", href: import.meta.env.VITE_SOURCE_CODE_URL },
];

export const EXTERNAL_LINKS: readonly ExternalLink[] = candidates.flatMap((link) =>
  link.href && /^https:\/\//.test(link.href) ? [{ id: link.id, href: link.href }] : [],
);

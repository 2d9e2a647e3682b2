const formatters = new Map<string, Intl.NumberFormat>();

/** One Intl.NumberFormat per language and digit count, made when first needed. */
export function numberFormat(language: string, digits?: number): Intl.NumberFormat {
  const key = `${language}/${digits ?? ""}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      language,
      digits === undefined ? undefined : { minimumFractionDigits: digits, maximumFractionDigits: digits },
    );
    formatters.set(key, format);
  }
  return format;
}

/**
 * A whole number for display. Below 1000 it is written with plain ASCII digits, which is what
 * Intl gives in every language we ship (their CLDR default digits are Latin, and no grouping
 * applies; tests/unit/number-format.test.ts checks each language). The first Intl.NumberFormat a
 * page makes costs ~16 ms of main thread (ICU's number data), measured in Chromium; tool
 * screens print their limits while hydrating, where that time blocks input.
 */
export function formatCount(value: number, language: string): string {
  if (Number.isInteger(value) && value >= 0 && value < 1000) return String(value);
  return numberFormat(language).format(value);
}

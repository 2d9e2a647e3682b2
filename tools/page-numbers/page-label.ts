/**
 * The text of a page number: the number in the chosen digits, alone, over the total, or in the
 * words "Page 1 of N" of one of the site's languages. The engine writes it into the PDF and the
 * screen's preview shows the same text.
 */
import type { NUMBER_DIGITS, NUMBER_FORMATS, NUMBER_LANGUAGES } from "./tool.ts";

type Digits = (typeof NUMBER_DIGITS)[number];
type Format = (typeof NUMBER_FORMATS)[number];
type Language = (typeof NUMBER_LANGUAGES)[number];

const DIGITS: Readonly<Record<Digits, string>> = {
  latin: "0123456789",
  devanagari: "०१२३४५६७८९",
  telugu: "౦౧౨౩౪౫౬౭౮౯",
  tamil: "௦௧௨௩௪௫௬௭௮௯",
};

/** "Page {n} of {total}" in each language ({n} and {total} are replaced). */
const PAGE_OF_TOTAL: Readonly<Record<Language, string>> = {
  en: "Page {n} of {total}",
  es: "Página {n} de {total}",
  de: "Seite {n} von {total}",
  fr: "Page {n} sur {total}",
  hi: "पृष्ठ {n} / {total}",
  te: "పేజీ {n} / {total}",
  ta: "பக்கம் {n} / {total}",
};

export function writeNumber(value: number, digits: Digits): string {
  const set = [...DIGITS[digits]];
  return String(value).replace(/\d/g, (digit) => set[Number(digit)] ?? digit);
}

export function pageLabel(
  n: number,
  total: number,
  style: { readonly format: Format; readonly digits: Digits; readonly language: Language },
): string {
  const number = writeNumber(n, style.digits);
  const all = writeNumber(total, style.digits);
  if (style.format === "number") return number;
  if (style.format === "number-of-total") return `${number} / ${all}`;
  return PAGE_OF_TOTAL[style.language].replace("{n}", number).replace("{total}", all);
}

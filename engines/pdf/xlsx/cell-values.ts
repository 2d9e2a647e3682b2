/**
 * Cell text → typed spreadsheet values: numbers (grouping separators, decimal point or comma,
 * parentheses and trailing-minus negatives, currency symbols and codes, percentages) and dates
 * (ISO, day/month/year in either order, month names), each with an Excel number format that shows
 * it as the PDF did. Which way "1,234" and "03/04/2024" read is decided once per document from the
 * values that can only be read one way.
 */

export interface Conventions {
  /** "1.234,56": comma decimals, dot (or space) grouping. */
  readonly decimalComma: boolean;
  /** "03/04/2024" is 3 April. */
  readonly dayFirst: boolean;
}

export type Typed =
  | { readonly kind: "number"; readonly value: number; readonly format: string }
  | { readonly kind: "date"; readonly value: Date; readonly format: string }
  | { readonly kind: "text"; readonly value: string };

const CURRENCY = /^(?:[$€£¥₹₽₩₺]|R\$|US\$|CHF|USD|EUR|GBP|JPY|INR|CAD|AUD|Rs\.?)$/;
const SYMBOL_BEFORE = /^((?:[$€£¥₹₽₩₺]|R\$|US\$|CHF|USD|EUR|GBP|JPY|INR|CAD|AUD|Rs\.?)\s?)(.*)$/;
const SYMBOL_AFTER = /^(.*?)(\s?(?:[$€£¥₹₽₩₺]|CHF|USD|EUR|GBP|JPY|INR|CAD|AUD))$/;

/** Dot decimals: 1,234.56 · 1,23,456.78 (Indian grouping) · 1234.5 */
const DOT = /^(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})+,\d{3}|\d+)(?:\.\d+)?$/;
/** Comma decimals: 1.234,56 · 1234,5 */
const COMMA = /^(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?$/;
/** Space or apostrophe grouping, either decimal mark: 1 234,56 · 1'234.56 */
const SPACED = /^\d{1,3}(?:[ \u00a0\u202f']\d{3})+(?:[.,]\d+)?$/;

interface NumberShape {
  readonly digits: string;
  readonly negative: "" | "minus" | "parentheses" | "trailing";
  readonly before: string;
  readonly after: string;
  readonly percent: boolean;
}

/** Splits sign, currency and percent from the digits; null when the text is no number. */
function numberShape(raw: string): NumberShape | null {
  let text = raw.trim().replace(/\u2212/g, "-");
  let negative: NumberShape["negative"] = "";
  if (/^\(.*\)$/.test(text)) {
    negative = "parentheses";
    text = text.slice(1, -1).trim();
  }
  let before = "";
  let after = "";
  const sign = () => {
    if (negative === "" && text.startsWith("-")) {
      negative = "minus";
      text = text.slice(1).trim();
    } else if (text.startsWith("+")) text = text.slice(1).trim();
  };
  sign();
  const leading = SYMBOL_BEFORE.exec(text);
  if (leading !== null && CURRENCY.test((leading[1] ?? "").trim())) {
    before = leading[1] ?? "";
    text = leading[2] ?? "";
    sign();
  }
  if (negative === "" && /\d-$/.test(text)) {
    negative = "trailing";
    text = text.slice(0, -1);
  }
  const trailing = SYMBOL_AFTER.exec(text);
  if (before === "" && trailing !== null) {
    after = trailing[2] ?? "";
    text = (trailing[1] ?? "").trim();
  }
  if (negative === "" && /\d-$/.test(text)) {
    negative = "trailing";
    text = text.slice(0, -1);
  }
  const percent = before === "" && after === "" && /\d\s?%$/.test(text);
  if (percent) text = text.replace(/\s?%$/, "");
  if (!/^\d[\d.,\s\u00a0\u202f']*$/.test(text) || !/\d$/.test(text)) return null;
  return { digits: text, negative, before, after, percent };
}

/** The ways the digits can be read: "dot", "comma", or both when ambiguous. */
function readings(digits: string): ("dot" | "comma")[] {
  if (SPACED.test(digits))
    return /,\d+$/.test(digits) ? ["comma"] : /\.\d+$/.test(digits) ? ["dot"] : ["dot", "comma"];
  const out: ("dot" | "comma")[] = [];
  if (DOT.test(digits)) out.push("dot");
  if (COMMA.test(digits)) out.push("comma");
  return out;
}

/** Reads the document's conventions from the values that can be read only one way. */
export function conventionsOf(texts: Iterable<string>): Conventions {
  let dot = 0;
  let comma = 0;
  let dayFirst = 0;
  let monthFirst = 0;
  for (const text of texts) {
    const shape = numberShape(text);
    if (shape !== null) {
      const ways = readings(shape.digits);
      if (ways.length === 1) {
        if (ways[0] === "dot") dot++;
        else comma++;
      }
      continue;
    }
    const date = NUMERIC_DATE.exec(text.trim());
    if (date !== null) {
      const a = Number(date[1]);
      const b = Number(date[3]);
      if (a > 12 && b <= 12) dayFirst++;
      if (b > 12 && a <= 12) monthFirst++;
    }
  }
  const decimalComma = comma > dot;
  return { decimalComma, dayFirst: dayFirst >= monthFirst };
}

function parseNumber(text: string, conventions: Conventions): Typed | null {
  const shape = numberShape(text);
  if (shape === null) return null;
  const ways = readings(shape.digits);
  if (ways.length === 0) return null;
  const way = ways.length === 1 ? ways[0] : conventions.decimalComma ? "comma" : "dot";
  const decimalMark = way === "comma" ? "," : ".";
  const lastMark = shape.digits.lastIndexOf(decimalMark);
  const integer = (lastMark === -1 ? shape.digits : shape.digits.slice(0, lastMark)).replace(/[^\d]/g, "");
  const fraction = lastMark === -1 ? "" : shape.digits.slice(lastMark + 1);
  // Identifiers keep their leading zeros and long codes their digits: they stay text.
  if ((integer.length > 1 && integer.startsWith("0")) || integer.length + fraction.length > 15) return null;
  const grouped = /[^\d]/.test(lastMark === -1 ? shape.digits : shape.digits.slice(0, lastMark));
  let value = Number(`${integer}.${fraction || "0"}`);
  if (shape.negative !== "") value = -value;
  let base = `${grouped ? "#,##0" : "0"}${fraction.length > 0 ? `.${"0".repeat(fraction.length)}` : ""}`;
  if (shape.percent) return { kind: "number", value: value / 100, format: `${base}%` };
  if (shape.before !== "") base = `"${shape.before}"${base}`;
  if (shape.after !== "") base = `${base}"${shape.after}"`;
  const format =
    shape.negative === "parentheses"
      ? `${base};(${base})`
      : shape.negative === "trailing"
        ? `${base};${base}-`
        : base;
  return { kind: "number", value, format };
}

const NUMERIC_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY_MONTH_YEAR = /^(\d{1,2})[ -]([A-Za-z]{3,9})\.?[ -,]*(\d{4}|\d{2})$/;
const MONTH_DAY_YEAR = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/;

function monthOf(name: string): number {
  const lower = name.toLowerCase();
  const index = MONTHS.indexOf(lower.slice(0, 3));
  if (index === -1) return 0;
  const full = new Date(Date.UTC(2000, index, 1)).toLocaleString("en", { month: "long", timeZone: "UTC" });
  return lower.length === 3 || full.toLowerCase().startsWith(lower) || lower === "sept" ? index + 1 : 0;
}

function fullYear(text: string): number {
  const year = Number(text);
  if (text.length === 4) return year;
  return year < 70 ? 2000 + year : 1900 + year;
}

function dateOf(year: number, month: number, day: number, format: string): Typed | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const value = new Date(Date.UTC(year, month - 1, day));
  if (value.getUTCDate() !== day) return null;
  return { kind: "date", value, format };
}

function parseDate(raw: string, conventions: Conventions): Typed | null {
  const text = raw.trim();
  const iso = ISO_DATE.exec(text);
  if (iso !== null) return dateOf(Number(iso[1]), Number(iso[2]), Number(iso[3]), "yyyy-mm-dd");
  const numeric = NUMERIC_DATE.exec(text);
  if (numeric !== null) {
    const [, a = "", separator = "/", b = "", y = ""] = numeric;
    const dayFirst = Number(a) > 12 ? true : Number(b) > 12 ? false : conventions.dayFirst;
    const [day, month] = dayFirst ? [a, b] : [b, a];
    const d = day.length === 2 ? "dd" : "d";
    const m = month.length === 2 ? "mm" : "m";
    const years = y.length === 4 ? "yyyy" : "yy";
    const format = (dayFirst ? [d, m, years] : [m, d, years]).join(separator === "." ? "." : separator);
    return dateOf(fullYear(y), Number(month), Number(day), format);
  }
  const dmy = DAY_MONTH_YEAR.exec(text);
  if (dmy !== null) {
    const [, day = "", name = "", y = ""] = dmy;
    const separator = text.includes("-") ? "-" : " ";
    const format = [
      day.length === 2 ? "dd" : "d",
      name.length > 3 ? "mmmm" : "mmm",
      y.length === 4 ? "yyyy" : "yy",
    ];
    return dateOf(fullYear(y), monthOf(name), Number(day), format.join(separator));
  }
  const mdy = MONTH_DAY_YEAR.exec(text);
  if (mdy !== null) {
    const [, name = "", day = "", y = ""] = mdy;
    return dateOf(Number(y), monthOf(name), Number(day), `${name.length > 3 ? "mmmm" : "mmm"} d, yyyy`);
  }
  return null;
}

/** The typed value of a cell's text under the document's conventions. */
export function typedValue(text: string, conventions: Conventions): Typed {
  if (text.trim() === "") return { kind: "text", value: "" };
  return parseDate(text, conventions) ?? parseNumber(text, conventions) ?? { kind: "text", value: text };
}

const EITHER: readonly Conventions[] = [
  { decimalComma: false, dayFirst: true },
  { decimalComma: true, dayFirst: false },
];

/**
 * Whether a text is a number or a date under some convention: header rows hold none, except
 * years ("2023" over a group of columns).
 */
export function isDataValue(text: string): boolean {
  if (/^(?:19|20)\d\d$/.test(text.trim())) return false;
  return EITHER.some((conventions) => typedValue(text, conventions).kind !== "text");
}

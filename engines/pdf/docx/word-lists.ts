/**
 * Word lists from the PDF's list items: one numbering definition per list, each level numbered
 * as its first item in the PDF was.
 */
import { AlignmentType, LevelFormat } from "docx";
import type { ListKind, ListMark } from "./model.ts";

const FORMATS: Record<ListKind, (typeof LevelFormat)[keyof typeof LevelFormat]> = {
  bullet: LevelFormat.BULLET,
  decimal: LevelFormat.DECIMAL,
  "lower-letter": LevelFormat.LOWER_LETTER,
  "upper-letter": LevelFormat.UPPER_LETTER,
  "lower-roman": LevelFormat.LOWER_ROMAN,
  "upper-roman": LevelFormat.UPPER_ROMAN,
};
const BULLETS = ["•", "◦", "▪"];

/**
 * Word lists: one numbering definition per list (a list starts again after anything that is not
 * one of its items, or at an item that does not follow on), each level numbered as its first item
 * in the PDF was: its kind, its first number, and the marker's own punctuation ("3.", "b)", "(iv)").
 */
export class ListNumbering {
  private readonly lists: WordList[] = [];
  private current: { list: WordList; last: number } | null = null;

  numberingOf(list: ListMark) {
    const style = levelStyle(list);
    const current = this.current;
    const top = current?.list.levels.get(0);
    const continues =
      current !== null &&
      (list.level > 0 ||
        (top !== undefined &&
          top.kind === style.kind &&
          top.text === style.text &&
          (list.kind === "bullet" || list.number === current.last + 1)));
    if (current === null || !continues) {
      const created = { reference: `list-${this.lists.length + 1}`, levels: new Map<number, LevelStyle>() };
      this.lists.push(created);
      this.current = { list: created, last: list.number };
    } else if (list.level === 0) {
      current.last = list.number;
    }
    const open = (this.current as { list: WordList }).list;
    if (!open.levels.has(list.level)) open.levels.set(list.level, style);
    return { reference: open.reference, level: list.level };
  }

  /** Anything that is not a list item ends the list. */
  end(): void {
    this.current = null;
  }

  definitions() {
    return this.lists.map(({ reference, levels }) => ({
      reference,
      levels: Array.from({ length: 9 }, (_, level) => {
        const style = levels.get(level) ?? { kind: "decimal" as const, start: 1, text: `%1.` };
        return {
          level,
          format: FORMATS[style.kind],
          text:
            style.kind === "bullet"
              ? (BULLETS[level % BULLETS.length] ?? "•")
              : style.text.replace("%1", `%${level + 1}`),
          start: style.start,
          alignment: AlignmentType.LEFT,
          style: { paragraph: { indent: { left: 360 * (level + 1), hanging: 360 } } },
        };
      }),
    }));
  }
}

interface WordList {
  readonly reference: string;
  readonly levels: Map<number, LevelStyle>;
}

interface LevelStyle {
  readonly kind: ListKind;
  readonly start: number;
  /** The marker with its number as "%1" ("%1.", "(%1)"). */
  readonly text: string;
}

function levelStyle(list: ListMark): LevelStyle {
  if (list.kind === "bullet") return { kind: "bullet", start: 1, text: "" };
  const text = list.marker.replace(/[0-9]+|[A-Za-z]+/, "%1");
  return { kind: list.kind, start: list.number, text: text.includes("%1") ? text : "%1." };
}

import type { TFunction } from "i18next";
import type en from "../../../../locales/en/common.json";

type Common = typeof en;

/**
 * Item ids as the English file names them. At run time the ids come from the language's own file,
 * so an operator may add, remove or reorder items there; the type only checks the field keys.
 */
export type ItemId<Section extends "features" | "promises" | "projects"> = Exclude<
  keyof Common[Section],
  "title" | "subtitle"
>;

/**
 * The items of a marketing section, read from the locale file rather than listed in code: each
 * entry of `section` holding a group of strings (features, promises) or, for project names,
 * a string, in the file's order.
 */
export function contentItems<Section extends "features" | "promises" | "projects">(
  t: TFunction,
  section: Section,
): ItemId<Section>[] {
  const tree: unknown = (t as (key: string, options: { returnObjects: true }) => unknown)(section, {
    returnObjects: true,
  });
  if (typeof tree !== "object" || tree === null) return [];
  const wanted = section === "projects" ? "string" : "object";
  return Object.entries(tree).flatMap(([id, value]) =>
    typeof value === wanted && value !== null ? [id as ItemId<Section>] : [],
  );
}

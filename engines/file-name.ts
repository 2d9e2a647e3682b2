/** The upload's name without its extension ("report.pdf" → "report"), "document" when none is left. */
export function baseName(name: string): string {
  const stem = name.replace(/\.[^.]*$/, "").trim();
  return stem === "" ? "document" : stem;
}

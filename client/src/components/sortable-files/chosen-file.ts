/** A file in a reorderable list; the id keeps React and drag-and-drop stable across reorders. */
export interface ChosenFile {
  id: string;
  file: File;
}

export function toChosenFiles(files: readonly File[]): ChosenFile[] {
  return files.map((file) => ({ id: crypto.randomUUID(), file }));
}

/** Natural name order ("file2" before "file10"), in the interface language. */
export function sortByName<T extends ChosenFile>(items: readonly T[], language: string): T[] {
  const collator = new Intl.Collator(language, { numeric: true, sensitivity: "base" });
  return [...items].sort((a, b) => collator.compare(a.file.name, b.file.name));
}

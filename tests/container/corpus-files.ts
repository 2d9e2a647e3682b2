/**
 * The real files of ../shared/corpus/pdf (never copied into the repository) and what SOURCES.tsv
 * says of each. Tests that read them skip when `corpus` does not exist.
 */
import { readFileSync } from "node:fs";

export const corpus = new URL("../../../shared/corpus/pdf/", import.meta.url);

export interface CorpusFile {
  readonly file: string;
  readonly pages: number;
  readonly encrypted: string;
  readonly kind: string;
}

export function corpusFiles(): CorpusFile[] {
  const [header = "", ...rows] = readFileSync(new URL("SOURCES.tsv", corpus), "utf8").trim().split("\n");
  const columns = header.split("\t");
  const column = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? "";
  return rows.map((row) => {
    const cells = row.split("\t");
    return {
      file: column(cells, "file"),
      pages: Number(column(cells, "pages")),
      encrypted: column(cells, "encrypted"),
      kind: column(cells, "kind"),
    };
  });
}

export function bytesOf(file: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(file, corpus)));
}

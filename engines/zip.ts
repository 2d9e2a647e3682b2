import { zipSync } from "fflate";

/** One file of a ZIP the engines write. */
export interface ZipEntry {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * A ZIP of `entries`, stored without compression: every tool zips formats that are compressed
 * already (PDF streams, JPEG), where deflate costs time and gains under 1 %. Names are made unique
 * ("page-1.jpg", "page-1 (2).jpg") so no part overwrites another when unpacked.
 */
export function zipFiles(entries: readonly ZipEntry[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const entry of entries) files[uniqueName(entry.name, files)] = entry.bytes;
  // A fixed time keeps the archive free of when (and so roughly where) it was made.
  return zipSync(files, { level: 0, mtime: new Date("2000-01-01T00:00:00Z") });
}

function uniqueName(name: string, taken: Readonly<Record<string, unknown>>): string {
  if (!Object.hasOwn(taken, name)) return name;
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let copy = 2; ; copy++) {
    const candidate = `${stem} (${copy})${extension}`;
    if (!Object.hasOwn(taken, candidate)) return candidate;
  }
}

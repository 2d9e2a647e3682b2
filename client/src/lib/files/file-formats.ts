import { extensionOf, FILE_KINDS, type FileKind, SNIFF_BYTES, sniffFileKind } from "../contract";

/** The name users know a file kind by ("jpeg" is shown as JPG). */
export function formatLabel(kind: FileKind): string {
  return (FILE_KINDS[kind].extensions[0] ?? kind).toUpperCase();
}

/** The label of a list of kinds: "PDF", or "PNG, JPG, WEBP". */
export function formatsLabel(kinds: readonly FileKind[]): string {
  return kinds.map(formatLabel).join(", ");
}

/** The dropzone's `accept` map (MIME type → extensions) for a list of kinds. */
export function acceptFor(kinds: readonly FileKind[]): Record<string, string[]> {
  const accept: Record<string, string[]> = {};
  for (const kind of kinds) {
    accept[FILE_KINDS[kind].mime] = FILE_KINDS[kind].extensions.map((ext) => `.${ext}`);
  }
  return accept;
}

/**
 * Whether the browser's type or the name says the file is one of the kinds (spec §5: the type must
 * contain the format; jpg also accepts jpeg). Used before the bytes are checked.
 */
export function claimsKind(file: File, kinds: readonly FileKind[]): boolean {
  const type = file.type.toLowerCase();
  return kinds.some((kind) => {
    const names: readonly string[] = [kind, ...FILE_KINDS[kind].extensions];
    if (type !== "") return type === FILE_KINDS[kind].mime || names.some((name) => type.includes(name));
    return FILE_KINDS[kind].extensions.some((ext) => ext === extensionOf(file.name));
  });
}

/** The kind of a file decided from its first bytes (never from its name or reported type). */
export async function sniffFile(file: File): Promise<FileKind | null> {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return sniffFileKind(head, file.name);
}

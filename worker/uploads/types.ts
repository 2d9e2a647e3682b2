import type { ExtraFileInput, FileKind } from "../../contract/index.ts";

/** What one request may upload: derived from the tool declarations (see tool-resolution.ts). */
export interface UploadPlan {
  readonly fileField: string;
  readonly kinds: readonly FileKind[];
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  /** Images whose header declares more pixels are refused (422 IMAGE_TOO_LARGE) before storing. */
  readonly maxPixels?: number;
  /** Named file fields besides `fileField` (one file each), with their own kinds and limits. */
  readonly extraFiles?: Readonly<Record<string, ExtraFileInput>>;
}

/** A file of the upload, checked by content, whose bytes are still arriving. */
export interface ReceivedFile {
  readonly index: number;
  /** The extra file field it came in (UploadPlan.extraFiles); absent for the main file field. */
  readonly field?: string;
  readonly name: string;
  readonly kind: FileKind;
  /**
   * The file's bytes as they arrive; read it once, to its end. Reading throws an AppError as soon
   * as a size limit is passed (the sink then undoes what it started and rethrows).
   */
  readonly chunks: AsyncIterable<Uint8Array>;
}

/** Where received files go as they arrive, and how to undo that when the upload is refused. */
export interface FileSink<T> {
  keep(file: ReceivedFile): Promise<T>;
  discard(kept: readonly T[]): Promise<void>;
}

export interface Upload<T> {
  readonly files: T[];
  /** Files of the extra file fields, in arrival order (each knows its field). */
  readonly extras: T[];
  /** Text fields of the form (last value wins). */
  readonly fields: Record<string, string>;
}

/** An upload stored in R2 for a task. */
export interface StoredInput {
  readonly key: string;
  /** The extra file field it came in; absent for the main file field. */
  readonly field?: string;
  readonly name: string;
  readonly size: number;
  readonly kind: FileKind;
}

import { zipFiles } from "../../../../engines/zip.ts";
import { downloadResult } from "../../components/tool/use-tool-task";
import { ApiError } from "../../lib/api/api-error";
import type { DoneItem } from "./use-batch-tasks";

async function fetchResult(item: DoneItem): Promise<{ name: string; bytes: Uint8Array }> {
  const response = await fetch(item.state.result.download_url, { credentials: "same-origin" });
  if (!response.ok) throw new ApiError({ message: "Download failed", status: response.status });
  return { name: item.state.result.filename, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Saves bytes the page made under `name` (a temporary object URL behind a download link). */
function saveBytes(bytes: Uint8Array, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * One result as it is, several as one ZIP built here in the browser (stored, not deflated: the
 * images are compressed already; engines/zip.ts makes clashing names unique).
 */
export async function downloadBatch(items: readonly DoneItem[], zipName: string): Promise<void> {
  const [only] = items;
  if (only && items.length === 1) {
    downloadResult(only.state.result);
    return;
  }
  const entries = await Promise.all(items.map(fetchResult));
  saveBytes(zipFiles(entries), zipName, "application/zip");
}

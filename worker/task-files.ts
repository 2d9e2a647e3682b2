/**
 * Where a task's files live in R2. Everything of a task is under one prefix, so expiry and
 * delete-now remove it by listing that prefix.
 */
export function taskPrefix(taskId: string): string {
  return `tasks/${taskId}/`;
}

/** Upload number `index` (in the order the files arrived). */
export function inputKey(taskId: string, index: number): string {
  return `${taskPrefix(taskId)}in/${index}`;
}

/** The file of the extra file field `field` (a name the tool declares, never the user's). */
export function extraInputKey(taskId: string, field: string): string {
  return `${taskPrefix(taskId)}in/field-${encodeURIComponent(field)}`;
}

/** Result file number `index`; its download name is data in the task record, never in the key. */
export function outputKey(taskId: string, index: number): string {
  return `${taskPrefix(taskId)}out/${index}`;
}

/** Deletes every object of a task (uploads and results); returns how many were deleted. */
export async function deleteTaskFiles(bucket: R2Bucket, taskId: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: taskPrefix(taskId), cursor, limit: 1000 });
    const keys = page.objects.map((o) => o.key);
    if (keys.length > 0) await bucket.delete(keys);
    deleted += keys.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return deleted;
}

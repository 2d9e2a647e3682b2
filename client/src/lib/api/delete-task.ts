import { deleteTaskResponseSchema, type TaskType, taskPath } from "../contract";
import { ApiError, errorFromResponse, parseJson } from "./api-error";
import { withCsrf } from "./csrf";

/** Deletes a task and its files at once (the "Delete now" button). */
export function deleteTask(taskId: string, type: TaskType): Promise<void> {
  return withCsrf(async (headers) => {
    let response: Response;
    try {
      response = await fetch(taskPath(type, taskId), {
        method: "DELETE",
        credentials: "same-origin",
        headers: { ...headers, Accept: "application/json" },
      });
    } catch {
      throw new ApiError({ message: "Network error", fallbackKey: "errors.network" });
    }
    const text = await response.text();
    if (!response.ok) throw errorFromResponse(response.status, text, "errors.unexpected");
    const body = parseJson(text);
    if (!deleteTaskResponseSchema.safeParse(body).success) {
      throw new ApiError({ message: "Invalid delete response", status: response.status });
    }
  });
}

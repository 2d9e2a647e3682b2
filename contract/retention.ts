/** Default time after which a task's files and state are deleted (its own module: no zod needed). */
export const DEFAULT_RETENTION_MINUTES = 60;

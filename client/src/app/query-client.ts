import { QueryClient } from "@tanstack/react-query";

/** Spec §9: 3 retries, exponential backoff from 1 s capped at 30 s, garbage-collected after 5 minutes. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: 3,
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
      gcTime: 5 * 60 * 1000,
      refetchOnWindowFocus: false,
    },
  },
});

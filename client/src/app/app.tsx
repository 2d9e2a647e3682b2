import { QueryClientProvider } from "@tanstack/react-query";
import { Suspense } from "react";
import { RouterProvider } from "react-router/dom";
import { Spinner } from "../components/spinner";
import { queryClient } from "./query-client";
import { router } from "./router";

/** Providers around the router; the spinner shows until the interface language is loaded. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={<Spinner centered />}>
        <RouterProvider router={router} />
      </Suspense>
    </QueryClientProvider>
  );
}

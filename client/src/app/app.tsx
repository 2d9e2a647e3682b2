import { type ReactNode, Suspense } from "react";
import { Spinner } from "../components/spinner";

/**
 * What surrounds the router (the browser's RouterProvider, or the prerender's static one: both must
 * produce the same markup for hydration); the spinner shows until the language is loaded.
 */
export function AppShell({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Spinner centered />}>{children}</Suspense>;
}

/*
 * What "react" resolves to in the browser and prerender builds (vite.config.ts): preact/compat, plus
 * the one hook that react-router's RouterProvider calls and compat lacks, `useOptimistic`.
 * (JavaScript, because compat's types are an `export =` module that TypeScript cannot re-export
 * with `export *`; the app's own code is type-checked against @types/react.)
 */
export * from "preact/compat";
export { default } from "preact/compat";

function keepPassthrough() {}

/**
 * React shows an optimistic value while a transition is pending. Preact has no concurrent
 * rendering: `startTransition` applies its updates at once, so the transition's own state is what
 * the next render shows and there is never a pending moment for an optimistic value to fill.
 * @template State
 * @param {State} passthrough
 * @returns {[State, (action: unknown) => void]}
 */
export function useOptimistic(passthrough) {
  return [passthrough, keepPassthrough];
}

/**
 * React's DOM renderer (react-dom/client, with React and its scheduler), imported by the entry
 * (main.tsx) on its own before the app: evaluating a module graph is one task, and evaluating
 * react-dom is about half of the app's (on Lighthouse's slowed phone CPU, one task of 150–250 ms,
 * all counted as blocking time). Evaluated first and apart, with a yield to the browser before the
 * rest, the app's start-up is two shorter tasks. start.tsx takes the renderer from here.
 */
export { createRoot, hydrateRoot } from "react-dom/client";

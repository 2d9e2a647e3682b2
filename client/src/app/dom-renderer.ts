/**
 * React's DOM renderer (react-dom/client, with React and its scheduler), imported by the entry
 * (main.tsx) on its own before the app: evaluating a module graph is one task, and react-dom is most
 * of the app's (traces of /hi: the whole graph 21–22 ms of CPU, ×4 on Lighthouse's phone; the renderer
 * alone 15–19 ms, the rest 5–6 ms). Evaluated first and apart, with a yield to the browser before the
 * rest, the app's start-up is two shorter tasks. start.tsx takes the renderer from here.
 */
export { createRoot, hydrateRoot } from "react-dom/client";

// Global styles first: feature styles imported by components come later and may refine them.
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/components.css";
import "./styles/tool.css";
import "./lib/i18n/i18n";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";
import { reloadOnPreloadError } from "./app/preload-error";

reloadOnPreloadError();

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

export * from "./api.ts";
export * from "./converter.ts";
export * from "./endpoints.ts";
export * from "./errors.ts";
export * from "./file-kinds.ts";
export * from "./languages.ts";
export * from "./tool-kit.ts";
export * from "./tools.ts";

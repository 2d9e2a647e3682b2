/**
 * Which files the blog serves under /content/blog/ and as what type (never HTML or SVG, so no
 * content file can act as a page of this site). Shared by the Worker route and the client build.
 */
export const BLOG_CONTENT_PATH = "/content/blog/";

/** Served extensions and their Content-Type. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  json: "application/json; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
  pdf: "application/pdf",
  mp4: "video/mp4",
  webm: "video/webm",
};

/** `a/b.ext` with plain segments only (no "..", no encoded separators), or null. */
export function contentFilePath(path: string): { path: string; type: string } | null {
  const segments = path.split("/");
  if (segments.some((segment) => !/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(segment))) return null;
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? "";
  const type = CONTENT_TYPES[extension];
  return type === undefined ? null : { path, type };
}

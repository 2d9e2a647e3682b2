/** Line icons drawn on a 24×24 grid; decorative (hidden from screen readers). */
const PATHS = {
  convert: "M4 7h12l-3-3M20 17H8l3 3",
  edit: "M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4",
  ocr: "M4 8V5a1 1 0 0 1 1-1h3M16 4h3a1 1 0 0 1 1 1v3M20 16v3a1 1 0 0 1-1 1h-3M8 20H5a1 1 0 0 1-1-1v-3M8 10h8M8 14h6",
  lock: "M6 11h12v9H6zM8.5 11V8a3.5 3.5 0 0 1 7 0v3M12 15v2",
  compress: "M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5",
  share: "M6 12v7h12v-7M12 3v12M8 7l4-4 4 4",
  merge: "M5 4h6v7H5zM13 13h6v7h-6zM8 11v3a2 2 0 0 0 2 2h3M16 13v-3a2 2 0 0 0-2-2h-3",
  split: "M4 4h16v7H4zM4 14h16v6H4z",
  document: "M7 3h7l4 4v14H7zM14 3v4h4M9.5 12h6M9.5 15.5h6",
  table: "M4 5h16v14H4zM4 10h16M4 15h16M10 5v14",
  image: "M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9a1 1 0 1 0 0-.01",
  markdown: "M3 6h18v12H3zM6 15V9l3 3 3-3v6M16 9v6M14 13l2 2 2-2",
  pen: "M4 20c3-1 4-4 7-4s3 3 6 2M14 4l6 6-8 8H6v-6z",
  upload: "M12 16V4M7 9l5-5 5 5M4 16v4h16v-4",
  tools: "M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z",
  globe:
    "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z",
  video: "M4 6h11v12H4zM15 10l5-3v10l-5-3",
  menu: "M4 7h16M4 12h16M4 17h16",
  close: "M6 6l12 12M18 6L6 18",
  check: "M5 12l5 5 9-10",
  grip: "M9 6h.01M15 6h.01M9 12h.01M15 12h.01M9 18h.01M15 18h.01",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className = "icon" }: { name: IconName; className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}

import {
  ArrowLeftRight,
  Check,
  Combine,
  FileCode,
  FilePen,
  FileText,
  Globe,
  GripVertical,
  ImageIcon,
  LayoutGrid,
  LockOpen,
  type LucideIcon,
  Menu,
  Minimize2,
  Moon,
  PenLine,
  ScanText,
  Scissors,
  Share2,
  Sheet,
  ShieldCheck,
  Sun,
  Upload,
  Video,
  X,
} from "lucide-react";

/**
 * The site's pictures, from lucide (named imports: the bundle keeps only these). Decorative: hidden
 * from screen readers, the control or text beside them carries the meaning.
 */
const ICONS = {
  convert: ArrowLeftRight,
  edit: FilePen,
  ocr: ScanText,
  lock: ShieldCheck,
  unlock: LockOpen,
  compress: Minimize2,
  share: Share2,
  merge: Combine,
  split: Scissors,
  document: FileText,
  table: Sheet,
  image: ImageIcon,
  markdown: FileCode,
  pen: PenLine,
  upload: Upload,
  tools: LayoutGrid,
  globe: Globe,
  video: Video,
  menu: Menu,
  close: X,
  check: Check,
  grip: GripVertical,
  sun: Sun,
  moon: Moon,
} as const satisfies Record<string, LucideIcon>;

export type IconName = keyof typeof ICONS;

export function Icon({ name, className = "icon" }: { name: IconName; className?: string }) {
  const Picture = ICONS[name];
  return (
    <Picture
      className={className}
      width={24}
      height={24}
      strokeWidth={1.8}
      aria-hidden="true"
      focusable="false"
    />
  );
}

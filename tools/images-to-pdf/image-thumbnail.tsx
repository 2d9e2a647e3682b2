import { useEffect, useState } from "react";
import { extensionOf } from "../../client/src/lib/contract";

/** The longest side of a drawn thumbnail, in device pixels (the tile is 3.5rem). */
const THUMBNAIL_SIZE = 112;
/** TIFFs decoded in the browser for their thumbnail at most (larger ones show their format tile). */
const MAX_TIFF_BYTES = 40 * 1024 * 1024;
const MAX_TIFF_PIXELS = 40_000_000;

type Thumbnail = { name: "pending" } | { name: "image"; url: string } | { name: "tile" };

/** The browser decodes the file itself (JPEG, PNG, WebP, GIF, AVIF, BMP; HEIC and TIFF in Safari). */
async function browserDecodes(file: File): Promise<boolean> {
  try {
    const bitmap = await createImageBitmap(file);
    bitmap.close();
    return true;
  } catch {
    return false;
  }
}

/** A small PNG of a TIFF's first image, decoded by UTIF (Chromium and Firefox cannot show TIFF). */
async function tiffThumbnail(file: File): Promise<Blob | null> {
  if (file.size > MAX_TIFF_BYTES) return null;
  const { default: UTIF } = await import("utif2");
  const bytes = await file.arrayBuffer();
  const [first] = UTIF.decode(bytes);
  if (!first) return null;
  UTIF.decodeImage(bytes, first);
  const { width, height } = first;
  if (!width || !height || width * height > MAX_TIFF_PIXELS) return null;
  const full = document.createElement("canvas");
  full.width = width;
  full.height = height;
  full
    .getContext("2d")
    ?.putImageData(new ImageData(new Uint8ClampedArray(UTIF.toRGBA8(first)), width, height), 0, 0);
  const scale = Math.min(1, THUMBNAIL_SIZE / Math.max(width, height));
  const small = document.createElement("canvas");
  small.width = Math.max(1, Math.round(width * scale));
  small.height = Math.max(1, Math.round(height * scale));
  small.getContext("2d")?.drawImage(full, 0, 0, small.width, small.height);
  return new Promise((resolve) => small.toBlob(resolve, "image/png"));
}

async function thumbnailOf(file: File): Promise<Blob | File | null> {
  if (await browserDecodes(file)) return file;
  if (extensionOf(file.name) === "tif" || extensionOf(file.name) === "tiff" || file.type === "image/tiff") {
    return tiffThumbnail(file).catch(() => null);
  }
  return null;
}

/**
 * The picture of a chosen image: the file itself when the browser can show it, a small rendering of
 * a TIFF's first image otherwise, and for what no browser decoder reads (HEIC in Chromium) a tile
 * naming its format, never a broken image. The converter reads all of them.
 */
export function ImageThumbnail({ file }: { file: File }) {
  const [thumbnail, setThumbnail] = useState<Thumbnail>({ name: "pending" });
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    void thumbnailOf(file).then((blob) => {
      if (!live) return;
      if (!blob) {
        setThumbnail({ name: "tile" });
        return;
      }
      url = URL.createObjectURL(blob);
      setThumbnail({ name: "image", url });
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [file]);
  if (thumbnail.name === "image") {
    return (
      <img className="images-to-pdf__thumbnail" src={thumbnail.url} alt="" data-testid="image-thumbnail" />
    );
  }
  return (
    <span
      className="images-to-pdf__thumbnail images-to-pdf__thumbnail--tile"
      aria-hidden="true"
      data-testid="image-thumbnail"
      data-pending={thumbnail.name === "pending" || undefined}
    >
      {thumbnail.name === "tile" ? extensionOf(file.name).toUpperCase() : null}
    </span>
  );
}

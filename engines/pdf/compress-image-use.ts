import * as mupdf from "mupdf";

/**
 * Where each image XObject is drawn: the lowest effective resolution (pixels per inch) over every
 * place it is painted (page contents, forms, patterns, annotation appearances), i.e. where it is
 * drawn largest. Images are matched to their objects by MuPDF's image cache: `loadImage` of an
 * object returns the same image the interpreter paints, as long as we keep holding it.
 */
export class ImageUse {
  private readonly byPointer = new Map<number, number>();
  private readonly held: mupdf.Image[] = [];
  private readonly lowestDpi = new Map<number, number>();

  private readonly pdf: mupdf.PDFDocument;

  constructor(pdf: mupdf.PDFDocument) {
    this.pdf = pdf;
  }

  /** Registers image objects to watch (by object number). */
  watch(objects: readonly number[]): void {
    for (const num of objects) {
      try {
        const image = this.pdf.loadImage(this.pdf.newIndirect(num));
        this.held.push(image);
        this.byPointer.set(Number(image.pointer), num);
      } catch {
        // An image MuPDF cannot load is left as it is.
      }
    }
  }

  /**
   * Runs every page (contents and annotations) and records how large each image is drawn. Layers
   * (optional content) hidden on screen are shown for the run: a print-only or switched-off layer's
   * images are sized where that layer draws them, as a printer or a reader turning it on would.
   */
  scan(onPage: (index: number, count: number) => void): void {
    const hidden: number[] = [];
    try {
      for (let layer = 0; layer < this.pdf.countLayers(); layer++) {
        if (this.pdf.isLayerVisible(layer)) continue;
        this.pdf.setLayerVisible(layer, true);
        hidden.push(layer);
      }
      this.run(onPage);
    } finally {
      for (const layer of hidden) this.pdf.setLayerVisible(layer, false);
    }
  }

  private run(onPage: (index: number, count: number) => void): void {
    const record = (image: mupdf.Image, ctm: mupdf.Matrix) => {
      const num = this.byPointer.get(Number(image.pointer));
      if (num === undefined) return;
      // The unit square mapped by the CTM: its sides in points (1/72 inch).
      const widthPt = Math.hypot(ctm[0], ctm[1]);
      const heightPt = Math.hypot(ctm[2], ctm[3]);
      if (widthPt <= 0 || heightPt <= 0) return;
      const dpi = Math.min(image.getWidth() / (widthPt / 72), image.getHeight() / (heightPt / 72));
      const previous = this.lowestDpi.get(num);
      if (previous === undefined || dpi < previous) this.lowestDpi.set(num, dpi);
    };
    const device = new mupdf.Device({
      fillImage: (image, ctm) => record(image, ctm),
      fillImageMask: (image, ctm) => record(image, ctm),
      clipImageMask: (image, ctm) => record(image, ctm),
    });
    try {
      const count = this.pdf.countPages();
      for (let index = 0; index < count; index++) {
        const page = this.pdf.loadPage(index);
        try {
          page.run(device, mupdf.Matrix.identity);
        } catch {
          // A page whose content fails to run keeps the images it reached recorded.
        } finally {
          page.destroy();
        }
        onPage(index, count);
      }
      device.close();
    } finally {
      device.destroy();
    }
  }

  /** Lowest effective resolution of an image, or undefined when no page draws it. */
  dpiOf(num: number): number | undefined {
    return this.lowestDpi.get(num);
  }

  release(): void {
    for (const image of this.held) image.destroy();
    this.held.length = 0;
  }
}

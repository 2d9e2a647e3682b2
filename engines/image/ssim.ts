/**
 * Mean SSIM (Wang, Bovik, Sheikh, Simoncelli 2004) on luma, as in the authors' reference
 * implementation: 11×11 Gaussian window (σ 1.5), K1 0.01, K2 0.03, dynamic range 255, windows
 * entirely inside the image, and the image first averaged down by round(min side / 256) so the
 * score reflects viewing the whole picture. Options measure the same at full resolution (every
 * pixel, as when zoomed to 100 %) and on the JPEG chroma planes (Cb, Cr) instead of luma, which a
 * luma score cannot see. Pure TypeScript: runs in Node and in workerd.
 */

export interface SsimImage {
  readonly width: number;
  readonly height: number;
  /** Interleaved 8-bit samples: 1 (grey), 3 (RGB) or 4 (RGBA, alpha ignored) per pixel. */
  readonly data: ArrayLike<number>;
  readonly channels: 1 | 3 | 4;
}

const WINDOW = 11;
const SIGMA = 1.5;
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

export interface SsimOptions {
  /**
   * "viewing" (default): averaged down by round(min side / 256) first, as the reference
   * implementation does; "full": every pixel, so fine detail lost at 100 % zoom counts too.
   */
  readonly scale?: "viewing" | "full";
  /** "luma" (default), or "chroma": the mean of the Cb and Cr scores (grey images score 1). */
  readonly plane?: "luma" | "chroma";
}

/** Weights of R, G, B and the offset of a BT.601 full-range plane (JPEG's YCbCr). */
type PlaneWeights = readonly [number, number, number, number];
const LUMA: PlaneWeights = [0.299, 0.587, 0.114, 0];
const CB: PlaneWeights = [-0.168736, -0.331264, 0.5, 128];
const CR: PlaneWeights = [0.5, -0.418688, -0.081312, 128];

/** One BT.601 plane of each pixel (single precision: 4 bytes per pixel on large images). */
function planeOf(image: SsimImage, [r, g, b, offset]: PlaneWeights): Float32Array {
  const { width, height, data, channels } = image;
  if (data.length !== width * height * channels) throw new Error("pixel data does not match the size");
  const out = new Float32Array(width * height);
  for (let p = 0, i = 0; p < out.length; p++, i += channels) {
    out[p] =
      channels === 1
        ? offset === 0
          ? (data[i] ?? 0)
          : 128
        : r * (data[i] ?? 0) + g * (data[i + 1] ?? 0) + b * (data[i + 2] ?? 0) + offset;
  }
  return out;
}

/** Rec. 601 luma of each pixel (single precision: 4 bytes per pixel on large images). */
export function luma(image: SsimImage): Float32Array {
  return planeOf(image, LUMA);
}

/** Averages `factor`×`factor` blocks (partial blocks at the right and bottom edges are dropped). */
function downsample(plane: Float32Array, width: number, height: number, factor: number) {
  const w = Math.floor(width / factor);
  const h = Math.floor(height / factor);
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += plane[row + dx] ?? 0;
      }
      out[y * w + x] = sum / (factor * factor);
    }
  }
  return { plane: out, width: w, height: h };
}

const kernel = (() => {
  const k = Array.from({ length: WINDOW }, (_, i) =>
    Math.exp(-((i - (WINDOW >> 1)) ** 2) / (2 * SIGMA * SIGMA)),
  );
  const total = k.reduce((a, b) => a + b, 0);
  return k.map((v) => v / total);
})();

/** Gaussian-weighted local means over every window that fits ("valid" convolution), separably. */
function filterValid(plane: Float64Array, width: number, height: number): Float64Array {
  const outW = width - WINDOW + 1;
  const outH = height - WINDOW + 1;
  const horizontal = new Float64Array(outW * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < outW; x++) {
      let sum = 0;
      for (let k = 0; k < WINDOW; k++) sum += (kernel[k] ?? 0) * (plane[y * width + x + k] ?? 0);
      horizontal[y * outW + x] = sum;
    }
  }
  const out = new Float64Array(outW * outH);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      let sum = 0;
      for (let k = 0; k < WINDOW; k++) sum += (kernel[k] ?? 0) * (horizontal[(y + k) * outW + x] ?? 0);
      out[y * outW + x] = sum;
    }
  }
  return out;
}

/**
 * Mean SSIM of two images of the same size: 1 for identical luma (or chroma, by `options.plane`),
 * lower as structure differs.
 */
export function ssim(a: SsimImage, b: SsimImage, options: SsimOptions = {}): number {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`sizes differ: ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  }
  const factor = options.scale === "full" ? 1 : Math.max(1, Math.round(Math.min(a.width, a.height) / 256));
  const planes = options.plane === "chroma" ? [CB, CR] : [LUMA];
  let total = 0;
  for (const weights of planes) {
    total += planeSsim(
      downsample(planeOf(a, weights), a.width, a.height, factor),
      downsample(planeOf(b, weights), b.width, b.height, factor),
    );
  }
  return total / planes.length;
}

type Plane = ReturnType<typeof downsample>;

function planeSsim(x: Plane, y: Plane): number {
  const { width, height } = x;
  if (width < WINDOW || height < WINDOW) throw new Error(`image too small for an ${WINDOW}×${WINDOW} window`);
  const xp = x.plane;
  const yp = y.plane;
  const xx = new Float64Array(xp.length);
  const yy = new Float64Array(xp.length);
  const xy = new Float64Array(xp.length);
  for (let i = 0; i < xp.length; i++) {
    const u = xp[i] ?? 0;
    const v = yp[i] ?? 0;
    xx[i] = u * u;
    yy[i] = v * v;
    xy[i] = u * v;
  }
  const muX = filterValid(xp, width, height);
  const muY = filterValid(yp, width, height);
  const sigmaXX = filterValid(xx, width, height);
  const sigmaYY = filterValid(yy, width, height);
  const sigmaXY = filterValid(xy, width, height);
  let total = 0;
  for (let i = 0; i < muX.length; i++) {
    const mx = muX[i] ?? 0;
    const my = muY[i] ?? 0;
    const varX = (sigmaXX[i] ?? 0) - mx * mx;
    const varY = (sigmaYY[i] ?? 0) - my * my;
    const cov = (sigmaXY[i] ?? 0) - mx * my;
    total += ((2 * mx * my + C1) * (2 * cov + C2)) / ((mx * mx + my * my + C1) * (varX + varY + C2));
  }
  return total / muX.length;
}

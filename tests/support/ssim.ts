/** SSIM for tests and benchmarks: the engines' own measure (engines/image/ssim.ts). */
export * from "../../engines/image/ssim.ts";

import sharp from "sharp";
import { type ContainerToolId, declarationOf, MAX_IMAGE_PIXELS, TOOLS } from "../../contract/index.ts";
import { refuseDecodeBombs } from "../../engines/pdf/decode-bombs.ts";
import { withFullDecodeParms } from "../../engines/pdf/decode-parms.ts";
import { openPdf } from "../../engines/pdf/open-pdf.ts";
import { decryptOpenableInputs } from "../../engines/pdf/open-without-password.ts";
import { checkPageLimit } from "../../engines/pdf/page-limit.ts";
import { withReadablePageTree } from "../../engines/pdf/page-tree.ts";
import { inputPasswords, unlockInputs } from "../../engines/pdf/unlock-inputs.ts";
import type { EngineInput } from "../../engines/types.ts";

/**
 * The inputs as the tool gets them: protected PDFs opened with the passwords the request gave,
 * those meant to open without one that MuPDF cannot decrypt passed through qpdf, short DecodeParms
 * arrays padded (engines/pdf/decode-parms.ts), a page tree MuPDF cannot walk (a cycle, a page as
 * its root) flattened to the pages it reaches (engines/pdf/page-tree.ts); then refused
 * before the tool starts when they hold more pages than it takes or a JBIG2 stream declaring a
 * page too large to decode (from its header).
 */
export async function preparedInputs(
  tool: ContainerToolId,
  options: object,
  read: readonly EngineInput[],
): Promise<EngineInput[]> {
  const passwords = inputPasswords(TOOLS[tool], options, read.length);
  const unlocked = unlockInputs(await decryptOpenableInputs(read, passwords), passwords);
  const inputs = withReadablePageTree(withFullDecodeParms(unlocked)).map((input, index) => {
    const upload = read[index];
    const rewritten = upload !== undefined && input.bytes !== upload.bytes && passwords[index] === undefined;
    return rewritten ? { ...input, uploaded: upload.bytes } : input;
  });
  checkPageLimit(inputs, declarationOf(tool).input.maxPages);
  refuseDecodeBombs(inputs);
  return inputs;
}

/**
 * Pages the (prepared) inputs hold: a PDF's pages, an image's pages (every page of a multi-page
 * TIFF, read from its header), one for an image of one page or of a kind libvips reads no header of.
 */
export async function inputPages(inputs: readonly EngineInput[]): Promise<number> {
  let pages = 0;
  for (const [index, input] of inputs.entries()) {
    if (input.kind === "pdf") {
      const pdf = openPdf(input.bytes, index);
      try {
        pages += pdf.countPages();
      } finally {
        pdf.destroy();
      }
    } else {
      // One page for an image whose header libvips does not read (BMP): its own decoder reads it.
      pages += await sharp(input.bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
        .metadata()
        .then(
          (metadata) => metadata.pages ?? 1,
          () => 1,
        );
    }
  }
  return pages;
}

import { type ContainerToolId, declarationOf, TOOLS } from "../../contract/index.ts";
import { refuseDecodeBombs } from "../../engines/pdf/decode-bombs.ts";
import { withFullDecodeParms } from "../../engines/pdf/decode-parms.ts";
import { decryptOpenableInputs } from "../../engines/pdf/open-without-password.ts";
import { checkPageLimit } from "../../engines/pdf/page-limit.ts";
import { inputPasswords, unlockInputs } from "../../engines/pdf/unlock-inputs.ts";
import type { EngineInput } from "../../engines/types.ts";

/**
 * The inputs as the tool gets them: protected PDFs opened with the passwords the request gave,
 * those meant to open without one that MuPDF cannot decrypt passed through qpdf, short DecodeParms
 * arrays padded (engines/pdf/decode-parms.ts); then refused
 * before the tool starts when they hold more pages than it takes or a JBIG2 stream declaring a
 * page too large to decode (from its header).
 */
export async function preparedInputs(
  tool: ContainerToolId,
  options: object,
  read: readonly EngineInput[],
): Promise<EngineInput[]> {
  const passwords = inputPasswords(TOOLS[tool], options, read.length);
  const inputs = withFullDecodeParms(unlockInputs(await decryptOpenableInputs(read, passwords), passwords));
  checkPageLimit(inputs, declarationOf(tool).input.maxPages);
  refuseDecodeBombs(inputs);
  return inputs;
}

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * qpdf's copy of `bytes` encrypted with the `user` and `owner` passwords, printing, copying and
 * editing refused: AES-256 (R6) for 256 bits, RC4 (R3) for 128. With `user` empty, the PDF opens
 * without a password in every viewer (a bank statement's or an e-book's restrictions only).
 */
export function qpdfEncrypted(bytes: Uint8Array, user: string, owner: string, bits: 128 | 256): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "qpdf-encrypted-"));
  try {
    const input = join(dir, "plain.pdf");
    const output = join(dir, "locked.pdf");
    writeFileSync(input, bytes);
    const cipher = bits === 128 ? ["--use-aes=n"] : [];
    const restrictions = ["--print=none", "--extract=n", "--modify=none"];
    const args = [
      "--allow-weak-crypto",
      "--encrypt",
      user,
      owner,
      `${bits}`,
      ...cipher,
      ...restrictions,
      "--",
    ];
    execFileSync("qpdf", [...args, input, output]);
    return new Uint8Array(readFileSync(output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

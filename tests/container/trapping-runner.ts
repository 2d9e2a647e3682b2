/**
 * The converter's job runner (container/src/job-runner.ts) as it is, except that a merge whose
 * first file is named `trap.pdf` ends in a WebAssembly trap, as MuPDF's did on issue19800.pdf: a
 * real `RuntimeError` thrown by a WebAssembly module, which the runner reports like any engine
 * error and the parent must take as a sign to replace the runner.
 */
import { handlers } from "../../container/src/handlers.ts";

/**
 * A module whose one function, `t`, executes `unreachable`: magic and version, one type () → (),
 * one function of it, exported as "t", whose body is `unreachable end`.
 */
const TRAP_MODULE = Buffer.from("0061736d0100000001040160000003020100070501017400000a05010300000b", "hex");

type Merge = (typeof handlers)["merge-pdf"];
const merge: Merge = handlers["merge-pdf"];
const trapping: Merge = (...args: Parameters<Merge>) => {
  if (args[0][0]?.name === "trap.pdf") {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(TRAP_MODULE));
    (instance.exports.t as () => void)();
  }
  return merge(...args);
};
(handlers as { -readonly [K in keyof typeof handlers]: (typeof handlers)[K] })["merge-pdf"] = trapping;

await import("../../container/src/job-runner.ts");

import { describe, expect, it } from "vitest";
import { pruneToUnicode } from "../../engines/pdf/to-unicode-cmap.ts";

const HEAD = [
  "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
  "/CMapName /Test-UCS def /CMapType 2 def",
  "1 begincodespacerange <0000> <FFFF> endcodespacerange",
].join("\n");
const TAIL = "endcmap CMapName currentdict /CMap defineresource pop end end";

/** The mapping blocks of a CMap, whitespace folded. */
const blocks = (cmap: string) =>
  cmap
    .slice(HEAD.length, cmap.length - TAIL.length)
    .replace(/\s+/g, " ")
    .trim();

describe("pruneToUnicode", () => {
  it("keeps the char entries of the codes given, and the text around the blocks as written", () => {
    const cmap = `${HEAD}\n3 beginbfchar\n<0001> <0041>\n<0002> <0042>\n<0A0B> <00E9>\nendbfchar\n${TAIL}`;
    const cut = pruneToUnicode(cmap, new Set([2, 0x0a0b]));
    expect(cut?.startsWith(`${HEAD}\n`)).toBe(true);
    expect(cut?.endsWith(TAIL)).toBe(true);
    expect(blocks(cut ?? "")).toBe("2 beginbfchar <0002> <0042> <0A0B> <00E9> endbfchar");
  });

  it("keeps a range with one start value whole, and splits a range with an array of values", () => {
    const cmap = [
      HEAD,
      "2 beginbfrange",
      "<0010> <0020> <0061>",
      "<0030> <0032> [<0041> <00420043> <0044>]",
      "endbfrange",
      "1 beginbfrange <0040> <0050> <0030> endbfrange",
      TAIL,
    ].join("\n");
    const cut = pruneToUnicode(cmap, new Set([0x15, 0x31]));
    expect(blocks(cut ?? "")).toBe(
      "1 beginbfrange <0010> <0020> <0061> endbfrange 1 beginbfchar <0031> <00420043> endbfchar",
    );
  });

  it("keeps the order of the entries it keeps (a later mapping of a code wins)", () => {
    const cmap = [
      HEAD,
      "1 beginbfrange <0001> <00FF> <0041> endbfrange",
      "1 beginbfchar <0005> <0078> endbfchar",
      TAIL,
    ].join("\n");
    expect(blocks(pruneToUnicode(cmap, new Set([5])) ?? "")).toBe(
      "1 beginbfrange <0001> <00FF> <0041> endbfrange 1 beginbfchar <0005> <0078> endbfchar",
    );
  });

  it("writes at most 100 entries a block", () => {
    const entries = Array.from(
      { length: 150 },
      (_, code) => `<${code.toString(16).padStart(4, "0")}> <0041>`,
    );
    const cmap = `${HEAD}\n150 beginbfchar\n${entries.join("\n")}\nendbfchar\n${TAIL}`;
    const cut = pruneToUnicode(cmap, new Set(Array.from({ length: 150 }, (_, code) => code))) ?? "";
    expect([...cut.matchAll(/(\d+) beginbfchar/g)].map((match) => match[1])).toEqual(["100", "50"]);
  });

  it("leaves alone a CMap it does not read, or one that would keep no mapping", () => {
    const oneByte = `${HEAD}\n1 beginbfchar\n<01> <0041>\nendbfchar\n${TAIL}`;
    expect(pruneToUnicode(oneByte, new Set([1]))).toBeNull();
    const named = `${HEAD}\n1 beginbfchar\n<0001> /A\nendbfchar\n${TAIL}`;
    expect(pruneToUnicode(named, new Set([1]))).toBeNull();
    const namedInArray = `${HEAD}\n1 beginbfrange\n<0001> <0003> [<0041> /B <0043>]\nendbfrange\n${TAIL}`;
    expect(pruneToUnicode(namedInArray, new Set([2]))).toBeNull();
    const other = `${HEAD}\n1 beginbfchar\n<0001> <0041>\nendbfchar\n${TAIL}`;
    expect(pruneToUnicode(other, new Set([2]))).toBeNull();
  });
});

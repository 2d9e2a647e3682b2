/** Entries a `beginbfchar` or `beginbfrange` block may hold (PDF 32000-1, 9.10.3). */
const BLOCK_ENTRIES = 100;

const BLOCK = /(\d+)\s+beginbf(char|range)\b([\s\S]*?)\bendbf\2\b/g;
const HEX = /^<([0-9a-fA-F\s]*)>/;

/** One mapping of a ToUnicode CMap: a code (`bfchar`), or a range of codes to one start value. */
interface Entry {
  readonly kind: "char" | "range";
  readonly text: string;
  readonly low: number;
  readonly high: number;
}

/**
 * A ToUnicode CMap of two-byte codes cut to the mappings of `codes`: `bfchar` entries of other
 * codes go, a `bfrange` of one start value stays whole when it holds one of `codes` (its values
 * are the viewer's arithmetic: kept as written, they mean what they meant), and a `bfrange` with
 * an array of values becomes the `bfchar` entries of the codes kept. Entries keep their order (a
 * later mapping of a code replaces an earlier one), and everything outside the mapping blocks
 * (code space, names, `usecmap`) stays as written. Null when a block holds anything else (names
 * as values, codes of another length) or no mapping would be left: such a CMap is left as it is.
 */
export function pruneToUnicode(cmap: string, codes: ReadonlySet<number>): string | null {
  const kept: Entry[] = [];
  let prefix: string | null = null;
  let suffix = "";
  let last = 0;
  for (const match of cmap.matchAll(BLOCK)) {
    const entries = blockEntries(match[2] === "char" ? "char" : "range", match[3] ?? "");
    if (entries === null) return null;
    for (const entry of entries) {
      if (entry.kind === "char" ? codes.has(entry.low) : anyIn(codes, entry.low, entry.high))
        kept.push(entry);
    }
    prefix ??= cmap.slice(0, match.index);
    // The blocks are written again as one run: only whitespace may lie between them.
    if (cmap.slice(last, match.index).trim() !== "" && last > 0) return null;
    last = match.index + match[0].length;
    suffix = cmap.slice(last);
  }
  // A CMap left without mappings reads differently (poppler then takes codes for Unicode values).
  if (prefix === null || kept.length === 0) return null;
  return `${prefix}${writeBlocks(kept)}${suffix}`;
}

/**
 * The entries as blocks in their order: each run of one kind in blocks of at most 100 entries.
 */
function writeBlocks(entries: readonly Entry[]): string {
  const blocks: string[] = [];
  for (let at = 0; at < entries.length; ) {
    const kind = entries[at]?.kind;
    let end = at;
    while (end < entries.length && end - at < BLOCK_ENTRIES && entries[end]?.kind === kind) end++;
    const texts = entries.slice(at, end).map((entry) => entry.text);
    blocks.push(`${texts.length} beginbf${kind}\n${texts.join("\n")}\nendbf${kind}`);
    at = end;
  }
  return blocks.join("\n");
}

function anyIn(codes: ReadonlySet<number>, low: number, high: number): boolean {
  if (high - low > codes.size) {
    for (const code of codes) if (code >= low && code <= high) return true;
    return false;
  }
  for (let code = low; code <= high; code++) if (codes.has(code)) return true;
  return false;
}

/**
 * The entries of one block, with their text to write again; a range with an array of values
 * becomes one char entry per code. Null when the block does not read.
 */
function blockEntries(kind: "char" | "range", body: string): Entry[] | null {
  const entries: Entry[] = [];
  let rest = body.trim();
  const next = (): string | null => {
    const match = HEX.exec(rest);
    if (match === null) return null;
    rest = rest.slice(match[0].length).trimStart();
    return (match[1] ?? "").replace(/\s/g, "");
  };
  while (rest !== "") {
    const low = next();
    const high = kind === "range" ? next() : low;
    if (low === null || high === null || low.length !== 4 || high.length !== 4) return null;
    const [from, to] = [Number.parseInt(low, 16), Number.parseInt(high, 16)];
    if (kind === "range" && rest.startsWith("[")) {
      const close = rest.indexOf("]");
      if (close < 0) return null;
      const array = rest.slice(1, close);
      // Hex strings only: a value of another kind (a name) would shift the codes of those after it.
      if (array.replace(/<[0-9a-fA-F\s]*>/g, "").trim() !== "") return null;
      const values = array.match(/<[0-9a-fA-F\s]*>/g) ?? [];
      rest = rest.slice(close + 1).trimStart();
      for (const [index, value] of values.entries()) {
        const code = from + index;
        if (code > to) break;
        const text = `<${code.toString(16).padStart(4, "0")}> ${value}`;
        entries.push({ kind: "char", text, low: code, high: code });
      }
      continue;
    }
    const value = next();
    if (value === null) return null;
    const text = kind === "char" ? `<${low}> <${value}>` : `<${low}> <${high}> <${value}>`;
    entries.push({ kind, text, low: from, high: to });
  }
  return entries;
}

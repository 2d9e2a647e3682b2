import { Fragment, type ReactNode } from "react";

/**
 * A small Markdown renderer producing React elements (never HTML strings), so no markup from a
 * post can run. Supports headings, paragraphs, lists, quotes, fenced code, rules, links, images,
 * bold, italic and inline code. Addresses are kept only for the spec's safe schemes (§5).
 */
const SAFE_LINK = /^(https?|ircs?|mailto|xmpp):/i;
const SAFE_IMAGE = /^https?:/i;

function safeUrl(url: string, allowed: RegExp): string {
  const trimmed = url.trim();
  // Relative addresses (no scheme) are kept.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
  return allowed.test(trimmed) ? trimmed : "";
}

const INLINE =
  /(!?\[([^\]]*)\]\(([^)\s]*)(?:\s+"[^"]*")?\))|(`([^`]+)`)|(\*\*([^*]+)\*\*)|(\*([^*]+)\*|_([^_]+)_)/;

export function renderInline(text: string, resolveImage: (src: string) => string | null): ReactNode[] {
  const nodes: ReactNode[] = [];
  let rest = text;
  let key = 0;
  while (rest.length > 0) {
    const match = INLINE.exec(rest);
    if (!match) {
      nodes.push(rest);
      break;
    }
    if (match.index > 0) nodes.push(rest.slice(0, match.index));
    const [whole] = match;
    if (match[1]) {
      const label = match[2] ?? "";
      const url = match[3] ?? "";
      if (whole.startsWith("!")) {
        const src = resolveImage(url) ?? safeUrl(url, SAFE_IMAGE);
        if (src) nodes.push(<img key={key++} src={src} alt={label} loading="lazy" />);
      } else {
        const href = safeUrl(url, SAFE_LINK);
        const external = /^https?:/i.test(href);
        nodes.push(
          <a
            key={key++}
            href={href || undefined}
            {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
          >
            {renderInline(label, resolveImage)}
          </a>,
        );
      }
    } else if (match[4]) {
      nodes.push(<code key={key++}>{match[5]}</code>);
    } else if (match[6]) {
      nodes.push(<strong key={key++}>{renderInline(match[7] ?? "", resolveImage)}</strong>);
    } else {
      nodes.push(<em key={key++}>{renderInline(match[9] ?? match[10] ?? "", resolveImage)}</em>);
    }
    rest = rest.slice(match.index + whole.length);
  }
  return nodes;
}

type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "code"; text: string }
  | { kind: "rule" };

function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (line.trim() === "") {
      i++;
    } else if (line.startsWith("```")) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !(lines[i] ?? "").startsWith("```")) code.push(lines[i++] ?? "");
      i++;
      blocks.push({ kind: "code", text: code.join("\n") });
    } else if (/^#{1,6}\s/.test(line)) {
      const level = line.indexOf(" ");
      blocks.push({ kind: "heading", level, text: line.slice(level + 1).trim() });
      i++;
    } else if (/^(-{3,}|\*{3,})\s*$/.test(line)) {
      blocks.push({ kind: "rule" });
      i++;
    } else if (/^\s*([-*+]|\d+[.)])\s/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: string[] = [];
      while (i < lines.length && /^\s*([-*+]|\d+[.)])\s/.test(lines[i] ?? "")) {
        items.push((lines[i++] ?? "").replace(/^\s*([-*+]|\d+[.)])\s+/, ""));
      }
      blocks.push({ kind: "list", ordered, items });
    } else if (line.startsWith(">")) {
      const quote: string[] = [];
      while (i < lines.length && (lines[i] ?? "").startsWith(">"))
        quote.push((lines[i++] ?? "").replace(/^>\s?/, ""));
      blocks.push({ kind: "quote", text: quote.join(" ") });
    } else {
      const paragraph: string[] = [];
      while (
        i < lines.length &&
        (lines[i] ?? "").trim() !== "" &&
        !/^(#{1,6}\s|```|>)/.test(lines[i] ?? "")
      ) {
        paragraph.push((lines[i++] ?? "").trim());
      }
      blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
    }
  }
  return blocks;
}

export function Markdown({
  source,
  resolveImage,
}: {
  source: string;
  resolveImage: (src: string) => string | null;
}) {
  const inline = (text: string) => renderInline(text, resolveImage);
  return (
    <>
      {parseBlocks(source).map((block, index) => {
        const key = `${block.kind}-${index}`;
        switch (block.kind) {
          case "heading": {
            // The article title is the page's h1: body headings start at h2.
            const Tag = `h${Math.min(6, block.level + 1)}` as "h2";
            return <Tag key={key}>{inline(block.text)}</Tag>;
          }
          case "paragraph":
            return <p key={key}>{inline(block.text)}</p>;
          case "list": {
            const List = block.ordered ? "ol" : "ul";
            return (
              <List key={key}>
                {block.items.map((item, itemIndex) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a post's list items never reorder
                  <li key={`${key}-${itemIndex}`}>{inline(item)}</li>
                ))}
              </List>
            );
          }
          case "quote":
            return <blockquote key={key}>{inline(block.text)}</blockquote>;
          case "code":
            return (
              <pre key={key}>
                <code>{block.text}</code>
              </pre>
            );
          case "rule":
            return <hr key={key} />;
        }
        return <Fragment key={key} />;
      })}
    </>
  );
}

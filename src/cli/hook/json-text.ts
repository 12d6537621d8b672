/**
 * JSON as text with the place of every value, so `hook --install`/`--uninstall` can change a settings file by
 * splicing only their own entries and keep every other byte (issue 35 §2): numbers such as
 * 12345678901234567890, 1e400 or 1.0, spacing, key order and line endings come back exactly as they were, which
 * a parse and stringify cannot promise.
 */

export interface JsonNode {
  kind: "object" | "array" | "string" | "number" | "literal";
  start: number;
  /** Just after the value's last character. */
  end: number;
  /** Arrays: the elements; objects: the member values (with `key`). */
  children: JsonNode[];
  /** A member value's key (objects' children only). */
  key?: string;
  /** A member's start: its key's opening quote (objects' children only). */
  memberStart?: number;
}

class Scanner {
  private at = 0;
  constructor(private readonly text: string) {}

  parse(): JsonNode {
    const value = this.value();
    this.space();
    if (this.at !== this.text.length) this.fail("text after the JSON value");
    return value;
  }

  private fail(what: string): never {
    throw new SyntaxError(`${what} at character ${this.at}`);
  }

  private space(): void {
    while (this.at < this.text.length && " \t\r\n".includes(this.text[this.at])) this.at++;
  }

  private value(): JsonNode {
    this.space();
    const start = this.at;
    const ch = this.text[this.at];
    if (ch === "{") return this.object(start);
    if (ch === "[") return this.array(start);
    if (ch === '"') return { kind: "string", start, end: this.string(), children: [] };
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(start));
    if (m === null) this.fail("a value expected");
    this.at += m[0].length;
    return { kind: /^[-\d]/.test(m[0]) ? "number" : "literal", start, end: this.at, children: [] };
  }

  private string(): number {
    this.at++;
    while (this.at < this.text.length) {
      const ch = this.text[this.at];
      if (ch === "\\") this.at += 2;
      else if (ch === '"') return ++this.at;
      else if (ch < " ") this.fail("a control character in a string");
      else this.at++;
    }
    return this.fail("an unterminated string");
  }

  private object(start: number): JsonNode {
    const node: JsonNode = { kind: "object", start, end: start, children: [] };
    this.at++;
    this.space();
    if (this.text[this.at] === "}") {
      node.end = ++this.at;
      return node;
    }
    for (;;) {
      this.space();
      const memberStart = this.at;
      if (this.text[this.at] !== '"') this.fail("a key expected");
      const key = JSON.parse(this.text.slice(memberStart, this.string())) as string;
      this.space();
      if (this.text[this.at++] !== ":") this.fail("':' expected");
      node.children.push({ ...this.value(), key, memberStart });
      this.space();
      const next = this.text[this.at++];
      if (next === "}") break;
      if (next !== ",") this.fail("',' or '}' expected");
    }
    node.end = this.at;
    return node;
  }

  private array(start: number): JsonNode {
    const node: JsonNode = { kind: "array", start, end: start, children: [] };
    this.at++;
    this.space();
    if (this.text[this.at] === "]") {
      node.end = ++this.at;
      return node;
    }
    for (;;) {
      node.children.push(this.value());
      this.space();
      const next = this.text[this.at++];
      if (next === "]") break;
      if (next !== ",") this.fail("',' or ']' expected");
    }
    node.end = this.at;
    return node;
  }
}

/** The value tree of `text` (strict JSON); a SyntaxError names where it is not JSON. */
export function parseJsonText(text: string): JsonNode {
  return new Scanner(text).parse();
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `text` with the edits made (they must not overlap). */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

const startOf = (node: JsonNode): number => node.memberStart ?? node.start;

/**
 * The edit that removes the children at `indexes` from `parent` (an array or object) with their commas: an
 * element goes from its start to the next kept element's start, the last kept one keeps its place.
 */
export function removeChildren(parent: JsonNode, indexes: ReadonlySet<number>): Edit[] {
  const all = parent.children;
  if (indexes.size === all.length) return [{ start: parent.start + 1, end: parent.end - 1, text: "" }];
  const edits: Edit[] = [];
  for (let i = 0; i < all.length; i++) {
    if (!indexes.has(i)) continue;
    let next = i + 1;
    while (next < all.length && indexes.has(next)) next++;
    if (next < all.length) {
      edits.push({ start: startOf(all[i]), end: startOf(all[next]), text: "" });
    } else {
      // The removed run ends the list: from just after the last kept element (and its comma) to its end.
      let prev = i - 1;
      while (prev >= 0 && indexes.has(prev)) prev--;
      edits.push({ start: all[prev].end, end: all[all.length - 1].end, text: "" });
    }
    i = next - 1;
  }
  return edits;
}

/** The layout of a file: its line ending and one level of indentation. */
export interface Layout {
  eol: string;
  indent: string;
}

export function layoutOf(text: string): Layout {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /\{\r?\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  return { eol, indent };
}

/** `value` as JSON text for a place `depth` levels deep, in the file's layout. */
export function jsonAt(value: unknown, depth: number, layout: Layout): string {
  const pad = layout.indent.repeat(depth);
  return JSON.stringify(value, null, layout.indent)
    .split("\n")
    .map((line, i) => (i === 0 ? line : pad + line))
    .join(layout.eol);
}

/**
 * The edit that appends `items` (JSON texts already laid out for `depth`+1) to the array or object `parent`,
 * which sits `depth` levels deep.
 */
export function appendChildren(parent: JsonNode, items: readonly string[], depth: number, layout: Layout): Edit {
  const inner = layout.eol + layout.indent.repeat(depth + 1);
  const joined = items.join(`,${inner}`);
  if (parent.children.length === 0) {
    return {
      start: parent.start + 1,
      end: parent.end - 1,
      text: `${inner}${joined}${layout.eol}${layout.indent.repeat(depth)}`,
    };
  }
  const last = parent.children[parent.children.length - 1];
  return { start: last.end, end: last.end, text: `,${inner}${joined}` };
}

/**
 * A strict reader for exactly the frontmatter this project writes (renderFrontmatter): flat `key: value`
 * lines whose values are null, [], a decimal integer, a plain word or a double-quoted string without
 * escapes, and block lists of such items. It returns null for anything else — the caller then parses with
 * js-yaml — so it can only ever agree with js-yaml, never differ from it (tests/core/simple-yaml.test.ts).
 * It exists because a scan parses every session note, and js-yaml was a large part of an `end`
 * (docs/performance-log.md).
 */
const KEY = /^([a-z][a-z0-9_]*):(?: (.*))?$/;
const PLAIN = /^[A-Za-z][A-Za-z0-9._-]*$/;
// Plain words YAML (any version) could read as something other than a string.
const RESERVED = /^(true|false|null|yes|no|on|off|y|n)$/i;
const INTEGER = /^(0|-?[1-9][0-9]{0,14})$/;
// No escapes, no control or invisible separators: those are left to js-yaml.
const QUOTED = /^"[^"\\\p{Cc}\u2028\u2029\ufeff]*"$/u;
const ITEM = /^ {2}- (.*)$/;

type Scalar = string | number | null;

function scalar(text: string): Scalar | undefined {
  if (text === "null") return null;
  if (INTEGER.test(text)) return Number(text);
  if (PLAIN.test(text) && !RESERVED.test(text)) return text;
  if (QUOTED.test(text)) return text.slice(1, -1);
  return undefined;
}

export function parseSimpleFrontmatter(yaml: string): Record<string, unknown> | null {
  if (yaml.includes("\r")) return null;
  const lines = yaml.split("\n");
  if (lines.pop() !== "" || lines.length === 0) return null; // a block we wrote ends with a line break
  const fields: Record<string, unknown> = {};
  for (let i = 0; i < lines.length; i++) {
    const match = KEY.exec(lines[i] ?? "");
    if (!match) return null;
    const [, key = "", raw = ""] = match;
    if (Object.prototype.hasOwnProperty.call(fields, key)) return null;
    if (raw === "") {
      const items: string[] = [];
      while (i + 1 < lines.length) {
        const item = ITEM.exec(lines[i + 1] ?? "");
        if (!item) break;
        const value = scalar(item[1] ?? "");
        if (typeof value !== "string") return null;
        items.push(value);
        i++;
      }
      if (items.length === 0) return null; // `key:` alone is null in YAML: leave it to js-yaml
      fields[key] = items;
      continue;
    }
    if (raw === "[]") {
      fields[key] = [];
      continue;
    }
    const value = scalar(raw);
    if (value === undefined) return null;
    fields[key] = value;
  }
  return fields;
}

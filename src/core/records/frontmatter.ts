import { errorMessage } from "../errors";
import { parseYamlBlock, stringifyYamlBlock } from "./yaml";
import { YamlBoundsError } from "./yaml-bounds";

/** How a session file reads: the five states every reader tells apart. */
export type ReadState = "ok" | "schema-invalid" | "no-frontmatter" | "corrupt" | "missing";

export type Fields = Record<string, unknown>;

export type ReadResult =
  | { state: "ok"; fields: Fields; body: string }
  | { state: "schema-invalid"; fields: Fields; body: string }
  | { state: "no-frontmatter"; body: string }
  | { state: "corrupt"; reason: string }
  | { state: "missing" };

export const SUPPORTED_SCHEMA = 1;

interface Split {
  yaml: string;
  body: string;
  /** Offsets into `content` (the text without a BOM): the YAML block is content[yamlStart, yamlEnd). */
  content: string;
  yamlStart: number;
  yamlEnd: number;
}

/** Finds the frontmatter block: a first line "---" and a later "---" or "..." line. */
function splitFrontmatter(text: string): Split | "no-fences" | "unclosed" {
  const content = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const firstBreak = content.indexOf("\n");
  const firstLine = (firstBreak === -1 ? content : content.slice(0, firstBreak)).replace(/\r$/, "");
  if (firstLine.trimEnd() !== "---") return "no-fences";
  if (firstBreak === -1) return "unclosed";
  let start = firstBreak + 1;
  while (start <= content.length) {
    const end = content.indexOf("\n", start);
    const line = (end === -1 ? content.slice(start) : content.slice(start, end)).replace(/\r$/, "");
    const trimmed = line.trimEnd();
    if (trimmed === "---" || trimmed === "...") {
      return {
        yaml: content.slice(firstBreak + 1, start),
        body: end === -1 ? "" : content.slice(end + 1),
        content,
        yamlStart: firstBreak + 1,
        yamlEnd: start,
      };
    }
    if (end === -1) break;
    start = end + 1;
  }
  return "unclosed";
}

/**
 * Classifies a record's text (null: the file does not exist). Timestamps stay strings (CORE_SCHEMA);
 * unknown keys are kept, never rejected; only palee_schema === 1 is "ok". Never throws, and never hangs: the
 * codec is bounded (yaml-bounds.ts).
 */
export function classifyRecord(text: string | null): ReadResult {
  if (text === null) return { state: "missing" };
  const split = splitFrontmatter(text);
  if (split === "no-fences") return { state: "no-frontmatter", body: text.replace(/^\uFEFF/, "") };
  if (split === "unclosed") return { state: "corrupt", reason: "frontmatter is not closed with ---" };
  let parsed: unknown;
  try {
    parsed = parseYamlBlock(split.yaml);
  } catch (error) {
    // A hostile block (too large, aliases expanding too far) is corrupt too, never a hang (contract §3).
    if (error instanceof YamlBoundsError) return { state: "corrupt", reason: error.message };
    const first = errorMessage(error).split("\n")[0] ?? "";
    return { state: "corrupt", reason: `frontmatter YAML does not parse (${first.trim()})` };
  }
  if (parsed === null || parsed === undefined) return { state: "no-frontmatter", body: split.body };
  if (typeof parsed !== "object" || Array.isArray(parsed)) {
    return { state: "corrupt", reason: "frontmatter is not a mapping of keys to values" };
  }
  const fields = parsed as Fields;
  if (fields.palee_schema === SUPPORTED_SCHEMA) return { state: "ok", fields, body: split.body };
  return { state: "schema-invalid", fields, body: split.body };
}

/**
 * The text after the frontmatter block, also when the block does not parse: a record whose frontmatter is
 * not closed is all body after its first line, one without fences all body.
 */
export function bodyAfterFrontmatter(text: string): string {
  const split = splitFrontmatter(text);
  if (split === "no-fences") return text.replace(/^\uFEFF/, "");
  if (split === "unclosed") return text.slice(text.indexOf("\n") + 1);
  return split.body;
}

/** Why a non-ok read is skipped, in words a user can act on. */
export function describeReadProblem(result: ReadResult): string {
  switch (result.state) {
    case "ok":
      return "ok";
    case "missing":
      return "file is missing";
    case "no-frontmatter":
      return result.body.trim() === "" ? "file is empty" : "no frontmatter";
    case "corrupt":
      return result.reason;
    case "schema-invalid": {
      const schema = result.fields.palee_schema;
      return schema === undefined
        ? "palee_schema is missing"
        : `unsupported palee_schema ${JSON.stringify(schema)} (this version reads 1)`;
    }
  }
}

export type FieldValue = string | number | boolean | null | readonly string[];

const RESERVED_PLAIN = /^(true|false|null|yes|no|on|off|y|n|~)$/i;
const SAFE_PLAIN = /^[A-Za-z][A-Za-z0-9._-]*$/;

function yamlString(value: string): string {
  if (SAFE_PLAIN.test(value) && !RESERVED_PLAIN.test(value)) return value;
  // A JSON string is a valid YAML double-quoted scalar; also escape the two Unicode line separators.
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function yamlValue(value: FieldValue): string {
  if (value === null) return " null";
  if (typeof value === "number" || typeof value === "boolean") return ` ${String(value)}`;
  if (typeof value === "string") return ` ${yamlString(value)}`;
  if (value.length === 0) return " []";
  return value.map((item) => `\n  - ${yamlString(item)}`).join("");
}

/** Renders a frontmatter block (with fences and a trailing newline) in the given key order. */
export function renderFrontmatter(entries: ReadonlyArray<readonly [string, FieldValue]>): string {
  const lines = entries.map(([key, value]) => `${key}:${yamlValue(value)}`);
  return `---\n${lines.join("\n")}\n---\n`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Sets top-level frontmatter fields of an ok record and leaves every other byte alone: other keys, their
 * formatting and the body (the learner's notes) are kept exactly. A key written on one line is replaced in
 * place, a new key goes last; anything more complex falls back to re-rendering the frontmatter block only.
 */
export function updateFrontmatterFields(text: string, updates: Readonly<Record<string, FieldValue>>): string {
  const split = splitFrontmatter(text);
  if (typeof split === "string") throw new Error("record has no frontmatter to update");
  let yaml: string | null = split.yaml;
  for (const [key, value] of Object.entries(updates)) {
    const line = `${key}:${yamlValue(value)}`;
    const oneLine = new RegExp(`^${escapeRegExp(key)}:[^\\n]*\\n(?![ \\t-])`, "m");
    if (oneLine.test(yaml)) {
      yaml = yaml.replace(oneLine, () => `${line}\n`);
    } else if (!new RegExp(`^${escapeRegExp(key)}\\s*:`, "m").test(yaml)) {
      yaml = `${yaml.replace(/\r?\n?$/, "\n")}${line}\n`;
    } else {
      yaml = null; // the key spans several lines: re-render the block instead
      break;
    }
  }
  const before = split.content.slice(0, split.yamlStart);
  const after = split.content.slice(split.yamlEnd);
  if (yaml !== null) {
    const check = classifyRecord(`---\n${yaml}---\n`);
    if (check.state === "ok" && Object.keys(updates).every((k) => sameValue(check.fields[k], updates[k]))) {
      return before + yaml + after;
    }
  }
  const current = classifyRecord(text);
  const fields = current.state === "ok" || current.state === "schema-invalid" ? current.fields : {};
  return before + stringifyYamlBlock({ ...fields, ...updates }) + after;
}

function sameValue(actual: unknown, wanted: FieldValue | undefined): boolean {
  return JSON.stringify(actual) === JSON.stringify(wanted);
}

/**
 * A frontmatter block's YAML (without fences) from `fields`, through the codec of this face (js-yaml in the CLI,
 * Obsidian's own in main.js: only this file's import of ./yaml is swapped, esbuild.config.mjs). Bounded.
 */
export function yamlBlock(fields: Record<string, unknown>): string {
  return stringifyYamlBlock(fields);
}

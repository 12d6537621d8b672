/**
 * plan.md's text after a write (contract §2 plan.md, §6 invariant 18): only the keys asked for change; every
 * other key keeps its bytes, and the body is never touched. A new plan.md gets its keys and one body line.
 */
import type { Fields } from "../records/frontmatter";
import { classifyRecord, yamlBlock as stringifyYamlBlock } from "../records/frontmatter";

/** The one body line written when plan.md is created, never touched again. */
export const PLAN_BODY_LINE =
  "Your PALEE study plan: weekly goals and rest rules, in the properties above " +
  "(edit them here, with the Set goals command, or with `palee session goal`).\n";

/** A new plan.md holding `updates`. */
export function newPlanText(updates: Fields): string {
  return `---\n${stringifyYamlBlock({ palee_schema: 1, type: "study_plan", ...updates })}---\n${PLAN_BODY_LINE}`;
}

const TOP_LEVEL_KEY = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]|$)/;
/** A line that belongs to the key above it: indented, or an item of a list written at the margin. */
const CONTINUATION = /^(?:[ \t]|-(?:[ \t]|$))/;

/** The frontmatter block's bounds in `text` (which an ok read already found): [start, end) of its YAML. */
function yamlBounds(text: string): { start: number; end: number } | null {
  const content = text.startsWith("\uFEFF") ? 1 : 0;
  const first = text.indexOf("\n", content);
  if (first < 0) return null;
  const close = /^(?:---|\.\.\.)[ \t]*\r?$/m;
  const rest = text.slice(first + 1);
  const match = close.exec(rest);
  return match ? { start: first + 1, end: first + 1 + match.index } : null;
}

/** Replaces (or appends) the top-level keys of a YAML block, one dumped key at a time. */
function spliceKeys(yaml: string, updates: Fields): string {
  const newline = yaml.includes("\r\n") ? "\r\n" : "\n";
  const lines = yaml.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  for (const [key, value] of Object.entries(updates)) {
    const dumped = stringifyYamlBlock({ [key]: value })
      .replace(/\n$/, "")
      .split("\n");
    const at = lines.findIndex((line) => TOP_LEVEL_KEY.exec(line)?.[1] === key);
    if (at < 0) {
      lines.push(...dumped);
      continue;
    }
    let end = at + 1;
    while (end < lines.length && CONTINUATION.test(lines[end])) end++;
    lines.splice(at, end - at, ...dumped);
  }
  return lines.map((line) => `${line}${newline}`).join("");
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * plan.md's text with `updates` written into its frontmatter (an ok record). Checked by reading it back: the
 * keys asked for hold their new values and every other key its old one; if the splice could not be sure of
 * that (an unusual layout), the frontmatter is written whole from the same values instead. The body stays.
 */
export function updatePlanText(text: string, updates: Fields): string {
  const before = classifyRecord(text);
  const bounds = yamlBounds(text);
  if (before.state !== "ok" || bounds === null) throw new Error("plan.md has no readable frontmatter to update");
  const head = text.slice(0, bounds.start);
  const tail = text.slice(bounds.end);
  const wanted: Fields = { ...before.fields, ...updates };
  const spliced = head + spliceKeys(text.slice(bounds.start, bounds.end), updates) + tail;
  const after = classifyRecord(spliced);
  if (after.state === "ok" && same(Object.keys(after.fields).sort(), Object.keys(wanted).sort())) {
    if (Object.keys(wanted).every((key) => same(after.fields[key], wanted[key]))) return spliced;
  }
  return head + stringifyYamlBlock(wanted) + tail;
}

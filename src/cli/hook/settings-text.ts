/**
 * `hook --install` / `--uninstall` as edits of the settings file's text (issue 35 §2): only this tool's own
 * entries are removed or added (src/core/agent-hook/settings.ts says which are), and every other byte —
 * numbers, spacing, key order, line endings, a byte-order mark — is kept.
 */
import { UsageError } from "../../core/errors";
import { HOOK_EVENTS } from "../../core/agent-hook/event";
import { isOwnHook, ownHook } from "../../core/agent-hook/settings";
import type { Edit, JsonNode } from "./json-text";
import { appendChildren, applyEdits, jsonAt, layoutOf, parseJsonText, removeChildren } from "./json-text";

export interface TextChange {
  text: string;
  changed: boolean;
  /** The events this tool's hooks were removed from. */
  removedFrom: string[];
}

interface Parsed {
  root: JsonNode;
  hooks: JsonNode | undefined;
}

/** The tree of the settings text, refused in one line when it is not the shape Claude Code reads. */
function parsed(text: string, file: string): Parsed {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let root: JsonNode;
  try {
    root = parseJsonText(body);
  } catch (error) {
    const why = error instanceof Error ? error.message : "";
    throw new UsageError(`${file} is not valid JSON (${why}): fix it first; nothing was changed`);
  }
  const shift = text.length - body.length;
  const moved = shift === 0 ? root : shifted(root, shift);
  if (moved.kind !== "object") throw new UsageError(`${file} is not a JSON object: left it as it is`);
  const hooks = moved.children.find((c) => c.key === "hooks");
  if (hooks !== undefined && hooks.kind !== "object") {
    throw new UsageError(`${file}: "hooks" is not an object: left it as it is`);
  }
  for (const event of hooks?.children ?? []) {
    if (event.kind !== "array") throw new UsageError(`${file}: hooks.${event.key} is not a list: left it as it is`);
  }
  return { root: moved, hooks };
}

function shifted(node: JsonNode, by: number): JsonNode {
  return {
    ...node,
    start: node.start + by,
    end: node.end + by,
    ...(node.memberStart === undefined ? {} : { memberStart: node.memberStart + by }),
    children: node.children.map((c) => shifted(c, by)),
  };
}

const valueOf = (text: string, node: JsonNode): unknown => JSON.parse(text.slice(node.start, node.end)) as unknown;

/** The edits that take this tool's hooks out of one event's groups, and whether the event is left empty. */
function eventEdits(
  text: string,
  groups: JsonNode,
  legacy: string | null,
): { edits: Edit[]; emptied: boolean; touched: boolean } {
  const dropGroups = new Set<number>();
  const edits: Edit[] = [];
  groups.children.forEach((group, g) => {
    const hooksNode = group.kind === "object" ? group.children.find((c) => c.key === "hooks") : undefined;
    if (hooksNode === undefined || hooksNode.kind !== "array") return;
    const own = new Set<number>();
    hooksNode.children.forEach((h, i) => isOwnHook(valueOf(text, h), legacy) && own.add(i));
    if (own.size === 0) return;
    if (own.size === hooksNode.children.length) dropGroups.add(g);
    else edits.push(...removeChildren(hooksNode, own));
  });
  const emptied = dropGroups.size > 0 && dropGroups.size === groups.children.length;
  if (dropGroups.size > 0 && !emptied) edits.push(...removeChildren(groups, dropGroups));
  return { edits, emptied, touched: dropGroups.size > 0 || edits.length > 0 };
}

/** The settings text without any of this tool's hooks (what --uninstall writes). */
export function uninstallText(text: string, file: string, legacy: string | null = null): TextChange {
  const { root, hooks } = parsed(text, file);
  if (hooks === undefined) return { text, changed: false, removedFrom: [] };
  const edits: Edit[] = [];
  const removedFrom: string[] = [];
  const emptiedEvents = new Set<number>();
  hooks.children.forEach((groups, e) => {
    const change = eventEdits(text, groups, legacy);
    if (!change.touched) return;
    removedFrom.push(groups.key ?? "");
    if (change.emptied) emptiedEvents.add(e);
    else edits.push(...change.edits);
  });
  if (removedFrom.length === 0) return { text, changed: false, removedFrom };
  if (emptiedEvents.size === hooks.children.length) {
    edits.push(...removeChildren(root, new Set([root.children.indexOf(hooks)])));
  } else if (emptiedEvents.size > 0) {
    edits.push(...removeChildren(hooks, emptiedEvents));
  }
  return { text: applyEdits(text, edits), changed: true, removedFrom };
}

/** The settings text with this tool's hooks for every event it maps, running `command` (what --install writes). */
export function installText(text: string, file: string, command: string, legacy: string | null = null): TextChange {
  const stripped = uninstallText(text, file, legacy).text;
  const { root, hooks } = parsed(stripped, file);
  const layout = layoutOf(stripped);
  const own = { hooks: [ownHook(command)] };
  const edits: Edit[] = [];
  if (hooks === undefined) {
    const all = Object.fromEntries(HOOK_EVENTS.map((e) => [e, [own]]));
    edits.push(appendChildren(root, [`"hooks": ${jsonAt(all, 1, layout)}`], 0, layout));
  } else {
    const missing: string[] = [];
    for (const event of HOOK_EVENTS) {
      const groups = hooks.children.find((c) => c.key === event);
      if (groups !== undefined) edits.push(appendChildren(groups, [jsonAt(own, 3, layout)], 2, layout));
      else missing.push(`${JSON.stringify(event)}: ${jsonAt([own], 2, layout)}`);
    }
    if (missing.length > 0) edits.push(appendChildren(hooks, missing, 1, layout));
  }
  const next = applyEdits(stripped, edits);
  return { text: next, changed: !sameSettings(next, text), removedFrom: [] };
}

/** Whether two settings texts hold the same data (an install over its own identical install changes nothing). */
function sameSettings(a: string, b: string): boolean {
  const strip = (t: string) => (t.startsWith("\uFEFF") ? t.slice(1) : t);
  return a === b || JSON.stringify(JSON.parse(strip(a))) === JSON.stringify(JSON.parse(strip(b)));
}

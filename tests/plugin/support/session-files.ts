/**
 * Looking into the harness's vault from plugin tests: where the session files are, what their frontmatter
 * and bodies hold, and recorded timestamps relative to the fixed test clock (TZ is UTC in the plugin project).
 */
import { classifyRecord } from "../../../src/core/records/frontmatter";
import type { TopicChoice } from "../../../src/plugin/ui/topic-picker";
import type { ObsidianHarness } from "./obsidian-harness";
import type { LoadedPlugin } from "./plugin-harness";
import { MINUTE, T0, modals, noticeLog, pickTopic } from "./plugin-harness";

export const HOT = "palee/hot.md";
export const INDEX = "palee/index.md";
/** A session file (confirmed or draft) of the default folder, by ID. */
export const S = (id: string, folder = "palee"): string => `${folder}/sessions/${id}.md`;

/** A timestamp as the core writes it in UTC: T0 plus `minutes` (negative: before T0). */
export function at(minutes: number): string {
  return new Date(T0 + minutes * MINUTE).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** The text of a file, failing when it does not exist. */
export function textAt(h: ObsidianHarness, path: string): string {
  const text = h.files()[path];
  if (text === undefined) throw new Error(`${path} does not exist (files: ${Object.keys(h.files()).join(", ")})`);
  return text;
}

/** The frontmatter of a record whose palee_schema is 1; throws with the read state otherwise. */
export function fieldsAt(h: ObsidianHarness, path: string): Record<string, unknown> {
  const read = classifyRecord(textAt(h, path));
  if (read.state !== "ok") throw new Error(`${path} is ${read.state}`);
  return read.fields;
}

/** The body (after the frontmatter) of a record whose palee_schema is 1. */
export function bodyAt(h: ObsidianHarness, path: string): string {
  const read = classifyRecord(textAt(h, path));
  if (read.state !== "ok") throw new Error(`${path} is ${read.state}`);
  return read.body;
}

export function draftPaths(h: ObsidianHarness, folder = "palee"): string[] {
  return Object.keys(h.files()).filter((p) => p.startsWith(`${folder}/sessions/DRAFT-S-`));
}

export function confirmedPaths(h: ObsidianHarness, folder = "palee"): string[] {
  return Object.keys(h.files()).filter((p) => p.startsWith(`${folder}/sessions/S-`));
}

/** The one draft of the folder, failing when there is not exactly one. */
export function onlyDraft(h: ObsidianHarness, folder = "palee"): string {
  const drafts = draftPaths(h, folder);
  if (drafts.length !== 1)
    throw new Error(`expected one draft in ${folder}, found ${drafts.length}: ${drafts.join(", ")}`);
  return drafts[0];
}

/** The one confirmed session of the folder, failing when there is not exactly one. */
export function onlyConfirmed(h: ObsidianHarness, folder = "palee"): string {
  const confirmed = confirmedPaths(h, folder);
  if (confirmed.length !== 1)
    throw new Error(`expected one confirmed session in ${folder}, found ${confirmed.length}: ${confirmed.join(", ")}`);
  return confirmed[0];
}

/** The draft ID (file name without .md) of a draft path. */
export function idOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}

/** Session IDs (file names without .md) of the files in a folder's sessions/ whose ID matches `pattern`. */
function idsIn(h: ObsidianHarness, pattern: RegExp, folder: string): string[] {
  const prefix = `${folder}/sessions/`;
  return Object.keys(h.files())
    .filter((p) => p.startsWith(prefix))
    .map(idOf)
    .filter((id) => pattern.test(id));
}

export const confirmedIds = (h: ObsidianHarness, folder = "palee"): string[] => idsIn(h, /^S-/, folder);
export const draftIds = (h: ObsidianHarness, folder = "palee"): string[] => idsIn(h, /^DRAFT-S-/, folder);

/** What the status bar shows (a mobile plugin has none). */
export const statusText = (p: LoadedPlugin): string => p.statusBar()?.textContent ?? "(no status bar)";

/** The class names of the open modals, for messages and assertions. */
export const openModals = (): string[] => modals().map((m) => m.constructor.name);

/** Picks the topic picker's line for exactly this topic ID. */
export const isTopic =
  (topicId: string) =>
  (c: TopicChoice): boolean =>
    "topicId" in c && c.topicId === topicId;

/** Starts a session on `topicId` from the ribbon and the topic picker; returns its draft ID. */
export async function startOn(p: LoadedPlugin, topicId = "T-rust-ownership"): Promise<string> {
  await p.ribbon();
  await pickTopic(topicId, isTopic(topicId));
  const draftId = fieldsAt(p.h, HOT).open_draft;
  if (typeof draftId !== "string") throw new Error(`no session was started (notices: ${noticeLog().join(" | ")})`);
  return draftId;
}

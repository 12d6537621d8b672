import type { Fields, ReadResult } from "./frontmatter";
import { renderFrontmatter } from "./frontmatter";
import { isDraftId, normalizeTopic } from "./ids";
import type { ConfirmedSession } from "./records";
import { extractSection } from "./session-note";

/** hot.md's body (frontmatter excluded) never exceeds this many words. */
export const HOT_WORD_LIMIT = 250;
export const NO_HISTORY_TEXT = "No history yet: end a session to start the working memory.";

/** The open-session pointer and last session, as recorded in an ok hot.md. */
export interface HotState {
  activeTopic: string | null;
  startedAt: string | null;
  openDraft: string | null;
  device: string | null;
  lastSession: string | null;
  /** An open_draft that is not a draft ID (a hand edit, a hostile file): a damaged pointer, never a path. */
  damagedPointer?: string;
}

export const EMPTY_HOT: HotState = {
  activeTopic: null,
  startedAt: null,
  openDraft: null,
  device: null,
  lastSession: null,
};

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

export function interpretHot(fields: Fields): HotState {
  const openDraft = text(fields.open_draft);
  const state: HotState = {
    activeTopic: normalizeTopic(fields.active_topic),
    startedAt: text(fields.started_at),
    openDraft: openDraft !== null && isDraftId(openDraft) ? openDraft : null,
    device: text(fields.device),
    lastSession: text(fields.last_session),
  };
  if (openDraft !== null && state.openDraft === null) state.damagedPointer = openDraft;
  return state;
}

/** What a damaged open_draft is called in warnings (the open session is then treated as none). */
export function describeDamagedPointer(hotPath: string, pointer: string): string {
  const what = `open_draft ${JSON.stringify(pointer)} is not a draft ID (DRAFT-S-…)`;
  return `${hotPath}: ${what}, so no session is open; a rebuild clears it`;
}

/** The hot state of a read: only an ok hot.md is trusted (topic resolution treats the rest as "no topic"). */
export function hotStateOf(read: ReadResult): HotState {
  return read.state === "ok" ? interpretHot(read.fields) : EMPTY_HOT;
}

/** A session is open when hot.md names its draft and its start. */
export function isOpen(hot: HotState): hot is HotState & { openDraft: string; startedAt: string } {
  return hot.openDraft !== null && hot.startedAt !== null;
}

export function countWords(body: string): number {
  return body.match(/\S+/g)?.length ?? 0;
}

/** The first `limit` words of `text`, cut at a word boundary, with "…" when something was cut. */
export function truncateWords(text: string, limit: number): string {
  if (limit <= 0) return "";
  const words = /\S+/g;
  let count = 0;
  let match: RegExpExecArray | null;
  while ((match = words.exec(text)) !== null) {
    count += 1;
    if (count === limit) {
      const end = match.index + match[0].length;
      return end < text.trimEnd().length ? `${text.slice(0, end)}…` : text.slice(0, end);
    }
  }
  return text;
}

/**
 * The working-memory body: the newest confirmed session's Summary and Next action, within the word limit,
 * ending with its source link. With no sessions, one line saying so.
 */
export function renderHotBody(newest: ConfirmedSession | null): string {
  if (!newest) return `${NO_HISTORY_TEXT}\n`;
  const link = newest.path.slice(newest.path.lastIndexOf("/") + 1).replace(/\.md$/, "");
  const source = `Source: [[${link}]]`;
  const summary = extractSection(newest.body, "Summary");
  const next = extractSection(newest.body, "Next action");
  // A session saved after a crash has no summary: its notes are then the best memory of where it stopped.
  const notes = summary === null && next === null ? extractSection(newest.body, "Notes") : null;
  let budget = HOT_WORD_LIMIT - countWords(source);
  const fit = (heading: string, value: string | null): string | null => {
    if (!value || budget - countWords(heading) <= 0) return null;
    const kept = truncateWords(value, budget - countWords(heading));
    budget -= countWords(heading) + countWords(kept);
    return `${heading}\n\n${kept}\n`;
  };
  // The words are shared: the next action, the most useful line for the next session, gets its words first,
  // so a long summary is cut before it (it is still shown first).
  const nextPart = fit("## Next action", next);
  const parts = [fit("## Summary", summary), nextPart, fit("## Notes", notes)].filter((p): p is string => p !== null);
  if (parts.length === 0) parts.push("No summary was recorded for the last session.\n");
  return `${parts.join("\n")}\n${source}\n`;
}

export function renderHotFrontmatter(state: HotState, today: string): string {
  return renderFrontmatter([
    ["palee_schema", 1],
    ["memory_id", "H-active"],
    ["active_topic", state.activeTopic],
    ["started_at", state.startedAt],
    ["open_draft", state.openDraft],
    ["device", state.device],
    ["last_session", state.lastSession],
    ["updated_at", today],
  ]);
}

export function renderHot(state: HotState, newest: ConfirmedSession | null, today: string): string {
  return renderHotFrontmatter(state, today) + renderHotBody(newest);
}

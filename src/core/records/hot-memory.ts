import type { Fields, ReadResult } from "./frontmatter";
import { renderFrontmatter } from "./frontmatter";
import { isDraftId } from "./ids";
import { normalizeTopic } from "../topics/ids";
import { renderTopic } from "../topics/display";
import type { ConfirmedSession } from "./records";
import { linkOf } from "./index-line";
import { extractSection } from "./session-note";
import { recordedDate } from "../time/index";

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
 * The working memory of one topic (contract §2 hot.md, version 3): its newest session, and the older session
 * whose next action is carried forward when the newest has none (null: the newest's own, or none at all).
 */
export interface TopicMemory {
  topicId: string;
  newest: ConfirmedSession | null;
  carried: ConfirmedSession | null;
}

/** A session's own Next action, or null when it has none (an empty section is none). */
export function nextActionOf(session: ConfirmedSession): string | null {
  return extractSection(session.body, "Next action");
}

/** The words the topic line may take at most (a long legacy topic or note name is cut): the rest is memory. */
const TOPIC_LINE_WORDS = 40;

/**
 * A topic note link as hot.md shows it, `[[Name]]`, or null when `topicNote` names nothing a link can safely
 * hold (contract §2: no stray `[[`, `]]`, `|` or line breaks): the topic is then named by its ID only.
 */
export function topicNoteLink(topicNote: string | null): string | null {
  if (topicNote === null) return null;
  const inner = /^\s*\[\[([^\]]*)\]\]\s*$/.exec(topicNote)?.[1] ?? topicNote;
  const target = inner.split("|")[0].trim();
  if (target === "" || target.length > 200 || /[[\]|#^\p{Cc}\u2028\u2029]/u.test(target)) return null;
  return countWords(target) > TOPIC_LINE_WORDS / 2 ? null : `[[${target}]]`;
}

/** The topic as hot.md names it: its ID rendered safely, cut when long, then its note's link when it has one. */
function topicName(memory: TopicMemory): string {
  const rendered = renderTopic(memory.topicId);
  const id = truncateWords(rendered.length > 200 ? `${rendered.slice(0, 200)}…` : rendered, TOPIC_LINE_WORDS / 2);
  const link = topicNoteLink(memory.newest?.topicNote ?? memory.carried?.topicNote ?? null);
  return link === null ? id : `${id} (${link})`;
}

/** The one line of a topic with no session yet. */
export function noSessionsText(topicId: string): string {
  const name = topicName({ topicId, newest: null, carried: null });
  return `No sessions on ${name} yet: end a session on it to start its working memory.`;
}

/**
 * The working-memory body of `memory`'s topic: the topic and the day of its newest session, that session's
 * Summary, the topic's next action (carried forward from an older session, with its day, when the newest has
 * none), within the word limit, then a source link for each session used. With no topic at all (null): one
 * line saying there is no history; with no session on the topic: one line saying so.
 */
export function renderHotBody(memory: TopicMemory | null): string {
  if (memory === null) return `${NO_HISTORY_TEXT}\n`;
  const newest = memory.newest;
  if (newest === null) return `${noSessionsText(memory.topicId)}\n`;
  const used = memory.carried ? [newest, memory.carried] : [newest];
  const sources = used.map((s) => `Source: [[${linkOf(s.path)}]]`).join("\n");
  const header = `Topic: ${topicName(memory)}, newest session ${recordedDate(newest.startedAt)}`;
  const summary = extractSection(newest.body, "Summary");
  const next = memory.carried ? nextActionOf(memory.carried) : nextActionOf(newest);
  const nextHeading = memory.carried
    ? `## Next action (from ${recordedDate(memory.carried.startedAt)})`
    : "## Next action";
  // A session with no summary (saved after a crash, ended without one): its notes are then the best memory of
  // where it stopped, also when a next action is carried (issue 35 §4).
  const notes = summary === null ? extractSection(newest.body, "Notes") : null;
  let budget = HOT_WORD_LIMIT - countWords(sources) - countWords(header);
  const fit = (heading: string, value: string | null): string | null => {
    if (!value || budget - countWords(heading) <= 0) return null;
    const kept = truncateWords(value, budget - countWords(heading));
    budget -= countWords(heading) + countWords(kept);
    return `${heading}\n\n${kept}\n`;
  };
  // The words are shared: the next action, the most useful line for the next session, gets its words first,
  // so a long summary is cut before it (it is still shown first).
  const nextPart = fit(nextHeading, next);
  const parts = [fit("## Summary", summary), nextPart, fit("## Notes", notes)].filter((p): p is string => p !== null);
  if (parts.length === 0) parts.push("No summary was recorded for the last session.\n");
  return `${header}\n\n${parts.join("\n")}\n${sources}\n`;
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

export function renderHot(state: HotState, memory: TopicMemory | null, today: string): string {
  return renderHotFrontmatter(state, today) + renderHotBody(memory);
}

import { renderFrontmatter } from "./frontmatter";
import { renderTopic } from "./ids";
import type { ConfirmedSession } from "./records";
import { recordedDate } from "./time";

/** One index line; the date is the day recorded in started_at (the learner's day, same on every device). */
export function renderIndexLine(session: ConfirmedSession): string {
  const when = `${recordedDate(session.startedAt)}, ${session.durationMinutes} min`;
  return `- [[${linkOf(session.path)}]] - Topic: ${renderTopic(session.topicId)} (${when})`;
}

/** The link an index line and hot.md give a session: its file name without ".md". */
export function linkOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}

/** index.md: every confirmed session, which the caller passes newest first. */
export function renderIndex(
  newestFirst: readonly ConfirmedSession[],
  today: string,
  lineOf: (session: ConfirmedSession) => string = renderIndexLine,
): string {
  return renderIndexOfLines(newestFirst.map(lineOf), today);
}

/** index.md from its lines, newest first (what renderIndex writes). */
export function renderIndexOfLines(lines: readonly string[], today: string): string {
  return renderIndexOfJoined(lines.join("\n"), lines.length, today);
}

/** index.md from its `count` lines joined by line breaks (renderIndexOfLines without the join). */
export function renderIndexOfJoined(joined: string, count: number, today: string): string {
  const front = renderFrontmatter([
    ["palee_schema", 1],
    ["type", "session_index"],
    ["updated_at", today],
  ]);
  const list = count > 0 ? `\n${joined}\n` : "";
  return `${front}# PALEE session index\n\nTotal sessions: ${count}\n${list}`;
}

/**
 * `list.map(lineOf).join("\n")` when `list` is `before` with records inserted (the same records otherwise, in
 * the same order) and `joined` is that text for `before`: the new lines spliced in, the rest sliced from
 * `joined`, so one end costs a copy of the text, not a line per session. Null when `list` is not such a list.
 */
export function joinedAfter(
  before: readonly ConfirmedSession[],
  joined: string,
  list: readonly ConfirmedSession[],
  lineOf: (session: ConfirmedSession) => string,
): string | null {
  // Pieces are concatenated, not joined: the long runs of old lines stay slices of `joined`, uncopied here.
  let text: string | null = null;
  const add = (piece: string): void => {
    text = text === null ? piece : `${text}\n${piece}`;
  };
  let j = 0;
  let from = 0; // where the lines of `before` not yet copied start in `joined`
  let first = 0; // the index in `before` of the first of those lines
  for (const session of list) {
    // The same record, or another record of the same file with the same line (a scan's record of a note that
    // the operation before had inserted itself).
    if (j < before.length && (session === before[j] || sameLine(session, before[j], lineOf))) {
      j++;
      continue;
    }
    // Only here the kept lines are measured: a new note, as the newest, usually goes first (nothing to measure).
    if (j > first) {
      let at = from;
      for (let k = first; k < j; k++) at += lineOf(before[k]).length + 1;
      add(joined.slice(from, at - 1));
      from = at;
      first = j;
    }
    add(lineOf(session));
  }
  if (j !== before.length) return null;
  if (j > first) add(from === 0 ? joined : joined.slice(from));
  return text ?? "";
}

function sameLine(a: ConfirmedSession, b: ConfirmedSession, lineOf: (session: ConfirmedSession) => string): boolean {
  return a.path === b.path && lineOf(a) === lineOf(b);
}

/** index.md after one session was inserted into it (operations/incremental-index.ts). */
export interface IndexState {
  /** index.md as read (the expected text of the optimistic write). */
  text: string;
  /** The lines after the change, newest first. */
  lines: string[];
  /** The links of `lines`, in the same order. */
  links: string[];
  /** The newest session, with its body (hot.md's body). */
  newest: ConfirmedSession | null;
}

/** index.md as read back: its lines (newest first) and the link each names. */
export interface IndexLines {
  lines: string[];
  links: string[];
}

const HEAD = /^---\npalee_schema: 1\ntype: session_index\nupdated_at: "(\d{4}-\d{2}-\d{2})"\n---\n/;

/**
 * The lines of an index.md exactly as renderIndexOfLines writes it (any date), or null for anything else: a
 * missing, damaged or hand-edited file whose shape differs, a wrong total, a stray line. What each line says
 * about its session is not checked here (operations/incremental-index.ts compares the lines it needs).
 */
export function parseIndex(text: string | null): IndexLines | null {
  const date = text === null ? undefined : HEAD.exec(text)?.[1];
  if (text === null || date === undefined) return null;
  // What renderIndexOfLines writes before the total, then the total, then the lines: checked piece by piece,
  // without rendering the whole text again (index.md is 2.7 MB at 30 000 sessions).
  const head = renderIndexOfLines([], date).slice(0, -2); // without the total "0" and its line break
  const total = /^(0|[1-9]\d*)\n/.exec(text.slice(head.length, head.length + 12));
  if (!text.startsWith(head) || !total) return null;
  const rest = text.slice(head.length + total[0].length);
  const count = Number(total[1]);
  if (count === 0) return rest === "" ? { lines: [], links: [] } : null;
  if (!rest.startsWith("\n") || !rest.endsWith("\n")) return null;
  const lines = rest.slice(1, -1).split("\n");
  if (lines.length !== count || !lines.every((line) => line.startsWith("- [["))) return null;
  return { lines, links: lines.map((line) => line.slice(4, line.indexOf("]]"))) };
}

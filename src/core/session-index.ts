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
  const front = renderFrontmatter([
    ["palee_schema", 1],
    ["type", "session_index"],
    ["updated_at", today],
  ]);
  const list = lines.length ? `\n${lines.join("\n")}\n` : "";
  return `${front}# PALEE session index\n\nTotal sessions: ${lines.length}\n${list}`;
}

/** index.md as read back: its lines (newest first) and the link each names. */
export interface IndexLines {
  lines: string[];
  links: string[];
}

const LINE = /^- \[\[(S-[^\]\n]+)\]\] - Topic: [^\n]+ \(\d{4}-\d{2}-\d{2}, \d+ min\)$/;
const HEAD = /^---\npalee_schema: 1\ntype: session_index\nupdated_at: ("\d{4}-\d{2}-\d{2}")\n---\n/;

/**
 * The lines of an index.md exactly as renderIndexOfLines writes it (any date), or null for anything else: a
 * missing, damaged or hand-edited file whose shape differs, a wrong total, a malformed line or a link listed
 * twice. What the lines say about each session is not checked here (see operations/incremental-index.ts).
 */
export function parseIndex(text: string | null): IndexLines | null {
  if (text === null) return null;
  const head = HEAD.exec(text);
  if (!head) return null;
  const total = /^# PALEE session index\n\nTotal sessions: (\d+)\n/.exec(text.slice(head[0].length));
  if (!total) return null;
  const rest = text.slice(head[0].length + total[0].length);
  const count = Number(total[1]);
  if (count === 0) return rest === "" ? { lines: [], links: [] } : null;
  if (!rest.startsWith("\n") || !rest.endsWith("\n")) return null;
  const lines = rest.slice(1, -1).split("\n");
  if (lines.length !== count) return null;
  const links: string[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const link = LINE.exec(line)?.[1];
    if (link === undefined || seen.has(link)) return null;
    seen.add(link);
    links.push(link);
  }
  return { lines, links };
}

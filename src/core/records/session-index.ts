import { renderFrontmatter } from "./frontmatter";
import { renderIndexLine } from "./index-line";
import type { ConfirmedSession } from "./records";

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

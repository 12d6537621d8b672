import { renderTopic } from "../topics/display";
import type { ConfirmedSession } from "./records";

/** The heading the daily-note line goes under unless the learner sets another (contract §5). */
export const DEFAULT_DAILY_HEADING = "## Study sessions";

/**
 * The heading as typed in settings, made a single Markdown heading line: blank means the default, text
 * without leading `#` becomes a level-2 heading, line breaks become spaces.
 */
export function normalizeHeading(raw: string): string {
  const text = raw.replace(/[\r\n\u2028\u2029]+/g, " ").trim();
  if (text === "" || /^#+$/.test(text)) return DEFAULT_DAILY_HEADING;
  return /^#{1,6} /.test(text) ? text : `## ${text.replace(/^#+\s*/, "")}`;
}

/** "14:02" from a recorded timestamp: the local time as it was written, like the rest of the notes. */
function recordedClock(timestamp: string): string {
  return /^\d{4}-\d{2}-\d{2}[T ](\d{2}:\d{2})/.exec(timestamp.trim())?.[1] ?? "??:??";
}

/** The note name of a confirmed session (its link target), from its path. */
export function sessionLinkTarget(session: Pick<ConfirmedSession, "path">): string {
  return session.path.slice(session.path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}

/**
 * `- 14:02–14:44 T-rust-ownership, 42 min [[S-…]]`; a hostile topic is escaped (renderTopic). `topicLink`: the
 * topic note as a link showing its name (topicNoteMarkdown), shown instead of the ID when the topic has a note.
 */
export function renderDailyNoteLine(
  session: Pick<ConfirmedSession, "path" | "topicId" | "startedAt" | "endedAt" | "durationMinutes">,
  topicLink: string | null = null,
): string {
  const link = sessionLinkTarget(session).replace(/[[\]|#^\r\n]/g, "");
  const span = `${recordedClock(session.startedAt)}–${recordedClock(session.endedAt)}`;
  const topic = topicLink ?? renderTopic(session.topicId);
  return `- ${span} ${topic}, ${session.durationMinutes} min [[${link}]]`;
}

function headingLevel(line: string): number {
  return /^(#{1,6})(?:\s|$)/.exec(line)?.[1].length ?? 0;
}

/**
 * The daily note's text with `line` added under `heading`, everything else kept byte for byte:
 * - heading present (outside code fences): the line goes after the last non-blank line of its section
 *   (up to the next heading of the same or a higher level);
 * - heading missing: the heading and the line are added at the end, after a blank line;
 * - `link` already in the note (a retried end, a session logged twice): the text is returned unchanged.
 */
export function insertUnderHeading(text: string, heading: string, line: string, link?: string): string {
  if (link !== undefined && text.includes(`[[${link}]]`)) return text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  const level = headingLevel(heading);
  let fence: string | null = null;
  let start = -1;
  let end = lines.length; // exclusive: first line after the section
  for (let i = 0; i < lines.length; i++) {
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(lines[i])?.[1];
    if (fenceMark) {
      if (fence === null) fence = fenceMark[0];
      else if (fenceMark[0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    if (start === -1) {
      if (lines[i].trimEnd() === heading) start = i;
    } else {
      const found = headingLevel(lines[i]);
      if (found > 0 && found <= level) {
        end = i;
        break;
      }
    }
  }
  if (start === -1) {
    const body = text.replace(/(\r?\n)+$/, "");
    return body === "" ? `${heading}${eol}${line}${eol}` : `${body}${eol}${eol}${heading}${eol}${line}${eol}`;
  }
  let last = end - 1;
  while (last > start && lines[last].trim() === "") last--;
  lines.splice(last + 1, 0, line);
  const joined = lines.join(eol);
  // A note that did not end with a line break gets one after the new last line only.
  return last + 1 === lines.length - 1 && !/\r?\n$/.test(text) ? `${joined}${eol}` : joined;
}

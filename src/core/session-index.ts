import { renderFrontmatter } from "./frontmatter";
import { renderTopic } from "./ids";
import type { ConfirmedSession } from "./records";
import { recordedDate } from "./time";

/** One index line; the date is the day recorded in started_at (the learner's day, same on every device). */
export function renderIndexLine(session: ConfirmedSession): string {
  const link = session.path.slice(session.path.lastIndexOf("/") + 1).replace(/\.md$/, "");
  const when = `${recordedDate(session.startedAt)}, ${session.durationMinutes} min`;
  return `- [[${link}]] - Topic: ${renderTopic(session.topicId)} (${when})`;
}

/** index.md: every confirmed session, which the caller passes newest first. */
export function renderIndex(
  newestFirst: readonly ConfirmedSession[],
  today: string,
  lineOf: (session: ConfirmedSession) => string = renderIndexLine,
): string {
  const front = renderFrontmatter([
    ["palee_schema", 1],
    ["type", "session_index"],
    ["updated_at", today],
  ]);
  const lines = newestFirst.map(lineOf);
  const list = lines.length ? `\n${lines.join("\n")}\n` : "";
  return `${front}# PALEE session index\n\nTotal sessions: ${newestFirst.length}\n${list}`;
}

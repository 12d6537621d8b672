/** Vaults for the learning-loop tests: confirmed session notes built from a day, an hour and a rating. */
import type { FieldValue } from "../../src/core/records/frontmatter";
import { confirmedText } from "./builders";
import type { Harness } from "./fakes";

export interface StudyOn {
  topic: string;
  /** Local start, "2026-08-14T10:00", written with `offset` ("+02:00"; "Z" for an original tool's note). */
  at: string;
  offset?: string;
  minutes?: number;
  rating?: FieldValue;
  next?: string;
  nextDone?: boolean;
  recall?: string;
  summary?: string;
}

let counter = 0;

/** The note's session ID from its start (UTC in the name, as the tool writes it) and a counter. */
function idOf(startedMs: number): string {
  const d = new Date(startedMs).toISOString().replace(/[-:]/g, "").slice(0, 15);
  counter += 1;
  return `S-${d}-${(counter % 0x10000).toString(16).padStart(4, "0")}`;
}

/** A confirmed note for `s`, as the tool writes it (or as the original tool did, with offset "Z"). */
export function studyNote(s: StudyOn): { path: string; text: string } {
  const offset = s.offset ?? "+00:00";
  const startedAt = `${s.at}:00${offset}`;
  const startedMs = Date.parse(startedAt);
  const minutes = s.minutes ?? 30;
  const endedMs = startedMs + minutes * 60_000;
  const endedAt = offset === "Z" ? new Date(endedMs).toISOString() : shift(endedMs, offset);
  const sessionId = idOf(startedMs);
  const fields: Record<string, FieldValue> = {
    session_id: sessionId,
    topic_id: s.topic,
    started_at: offset === "Z" ? new Date(startedMs).toISOString() : startedAt,
    ended_at: endedAt,
    duration_minutes: minutes,
  };
  if (offset === "Z") Object.assign(fields, { duration_minutes: undefined, outcome: undefined });
  if (s.rating !== undefined) fields.recall_rating = s.rating;
  if (s.nextDone) fields.next_done = true;
  let text = confirmedText(fields as { session_id: string }, { summary: s.summary, next: s.next });
  if (s.recall)
    text = text.replace(`# Session: ${sessionId}\n`, `# Session: ${sessionId}\n\n## Recall\n\n${s.recall}\n`);
  return { path: `palee/sessions/${sessionId}.md`, text };
}

function shift(ms: number, offset: string): string {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  if (!m) throw new Error(`offset ${offset}`);
  const minutes = (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return `${new Date(ms + minutes * 60_000).toISOString().slice(0, 19)}${offset}`;
}

/** Writes the notes into the harness's store; returns their paths. */
export function study(h: Harness, ...sessions: StudyOn[]): string[] {
  return sessions.map((s) => {
    const note = studyNote(s);
    h.store.files.set(note.path, note.text);
    return note.path;
  });
}

/** Good days (unrated) of `topic` at 10:00 local. */
export function goodDays(topic: string, days: readonly string[], offset = "+00:00"): StudyOn[] {
  return days.map((d) => ({ topic, at: `${d}T10:00`, offset }));
}

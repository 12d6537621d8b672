import { renderFrontmatter } from "./frontmatter";

export interface ConfirmedNoteInput {
  sessionId: string;
  topicId: string;
  startedAt: string;
  endedAt: string;
  durationMinutes: number;
  /** Pauses and time away inside the session; written only when > 0 (contract §2). */
  breakMinutes?: number;
  /** The break intervals inside the span, "<from>/<to>" (version 3); written only when there are any. */
  breaks?: readonly string[];
  outcome: "completed" | "interrupted" | "logged";
  absorbedDrafts: readonly string[];
  topicNote: string | null;
  /** Who opened the session (contract §2 `agent`, version 3): copied from the draft; written only when set. */
  agent?: string | null;
  summary: string | null;
  /** What the learner remembered (version 4 recall step): the `## Recall` section, when given. */
  recall?: string | null;
  /** The learner's recall rating 1–4 (version 4); written only when given. */
  recallRating?: number | null;
  /** The carried next action was done in this session (version 4); written only when true. */
  nextDone?: boolean;
  nextAction: string | null;
  notes: string | null;
}

/** recall_rating and next_done (contract §2, version 4), each written only when given. */
function recallEntries(input: { recallRating?: number | null; nextDone?: boolean }) {
  return [
    ...(input.recallRating ? [["recall_rating", input.recallRating] as const] : []),
    ...(input.nextDone ? [["next_done", true] as const] : []),
  ];
}

/** break_minutes is written only when there was a break: an unbroken session's note is as in version 1. */
function breakEntry(minutes: number | undefined): Array<readonly [string, number]> {
  return minutes !== undefined && minutes > 0 ? [["break_minutes", minutes]] : [];
}

/** topic_note and agent, last of either record's fields, each written only when set. */
function topicNoteAndAgent(input: {
  topicNote: string | null;
  agent?: string | null;
}): Array<readonly [string, string]> {
  return [
    ...(input.topicNote ? [["topic_note", input.topicNote] as const] : []),
    ...(input.agent ? [["agent", input.agent] as const] : []),
  ];
}

function section(heading: string, text: string | null): string | null {
  const trimmed = text?.trim();
  return trimmed ? `## ${heading}\n\n${trimmed}\n` : null;
}

/**
 * A summary or next action is prose: a line that would read as a heading is escaped ("\\# …" shows as
 * "# …"), so it cannot end its section early or pose as another one. Tags (#rust) are not headings.
 */
export function escapeHeadings(text: string | null): string | null {
  return text === null ? null : text.replace(/^([ \t]{0,3})(#{1,6})(?=[ \t]|$)/gm, "$1\\$2");
}

/** A confirmed session note: frontmatter, then Summary, Recall, Next action and Notes, empty ones omitted. */
export function renderConfirmedNote(input: ConfirmedNoteInput): string {
  const front = renderFrontmatter([
    ["palee_schema", 1],
    ["session_id", input.sessionId],
    ["topic_id", input.topicId],
    ["started_at", input.startedAt],
    ["ended_at", input.endedAt],
    ["duration_minutes", input.durationMinutes],
    ...breakEntry(input.breakMinutes),
    ...(input.breaks && input.breaks.length > 0 ? [["breaks", input.breaks] as const] : []),
    ["status", "completed"],
    ["outcome", input.outcome],
    ["absorbed_drafts", input.absorbedDrafts],
    ...topicNoteAndAgent(input),
    ...recallEntries(input),
  ]);
  const sections = [
    section("Summary", escapeHeadings(input.summary)),
    section("Recall", escapeHeadings(input.recall ?? null)),
    section("Next action", escapeHeadings(input.nextAction)),
    section("Notes", input.notes),
  ].filter((s): s is string => s !== null);
  return `${front}# Session: ${input.sessionId}\n${sections.map((s) => `\n${s}`).join("")}`;
}

export interface DraftInput {
  draftId: string;
  topicId: string;
  startedAt: string;
  lastCheckpointAt: string;
  device: string;
  topicNote: string | null;
  /** Who opened the session when it was not the learner by hand (contract §2 `agent`); written only when set. */
  agent?: string | null;
  notes: string;
  /** While paused: paused_at, else omitted. */
  pausedAt?: string | null;
  /** Finished pauses and time away so far; written only when > 0. */
  breakMinutes?: number;
}

/** A draft: the crash-safe record of an open session. Its body is the learner's notes. */
export function renderDraft(input: DraftInput): string {
  const front = renderFrontmatter([
    ["palee_schema", 1],
    ["session_id", input.draftId],
    ["topic_id", input.topicId],
    ["started_at", input.startedAt],
    ["ended_at", null],
    ["status", "draft"],
    ["last_checkpoint_at", input.lastCheckpointAt],
    ["device", input.device],
    ...(input.pausedAt ? [["paused_at", input.pausedAt] as const] : []),
    ...breakEntry(input.breakMinutes),
    ...topicNoteAndAgent(input),
  ]);
  const notes = input.notes.trim();
  return notes ? `${front}${notes}\n` : front;
}

/**
 * Appends checkpoint notes to a draft's text, keeping every byte the learner wrote; a paragraph break
 * separates them from an existing body.
 */
export function appendNotes(text: string, notes: string, bodyIsEmpty: boolean): string {
  const addition = notes.trim();
  if (!addition) return text;
  const separator =
    bodyIsEmpty || text.endsWith("\n\n") ? (text.endsWith("\n") ? "" : "\n") : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${separator}${addition}\n`;
}

const SECTIONS = ["## summary", "## recall", "## next action", "## notes"];

const isLine = (line: string, heading: string): boolean => line.trim().toLowerCase() === heading;

/**
 * The text of a "## <heading>" section of a confirmed note body, or null when it is absent or empty.
 * Summary and Next action end at the next of the note's own section headings and are looked for only before
 * "## Notes" (the learner's notes may hold any heading); Notes, the last section, runs to the end.
 */
export function extractSection(body: string, heading: string): string | null {
  const lines = body.split(/\r?\n/);
  const key = `## ${heading.toLowerCase()}`;
  const notesAt = lines.findIndex((l) => isLine(l, "## notes"));
  let section: string[];
  if (key === "## notes") {
    if (notesAt === -1) return null;
    section = lines.slice(notesAt + 1);
  } else {
    const head = notesAt === -1 ? lines : lines.slice(0, notesAt);
    const start = head.findIndex((l) => isLine(l, key));
    if (start === -1) return null;
    const rest = head.slice(start + 1);
    const end = rest.findIndex((l) => SECTIONS.some((h) => isLine(l, h)));
    section = end === -1 ? rest : rest.slice(0, end);
  }
  const text = section.join("\n").trim();
  return text === "" ? null : text;
}

/**
 * The warning for an end that found its session already saved (a retry after a crash or a conflict): names
 * the summary or next action given now that the saved note's `body` does not hold, or null when nothing was
 * lost (the same end run again).
 */
export function unrecordedWarning(
  path: string,
  body: string,
  given: { summary?: string | null; nextAction?: string | null },
): string | null {
  const texts: ReadonlyArray<readonly [name: string, heading: string, text: string | null | undefined]> = [
    ["summary", "Summary", given.summary],
    ["next action", "Next action", given.nextAction],
  ];
  const lost = texts.flatMap(([name, heading, text]) => {
    // As renderConfirmedNote writes it (headings escaped, trimmed); extractSection reads lines with "\n".
    const wanted = escapeHeadings(text?.replace(/\r\n?/g, "\n").trim() || null);
    return wanted !== null && wanted !== extractSection(body, heading) ? [name] : [];
  });
  if (lost.length === 0) return null;
  const [verb, pronoun] = lost.length === 1 ? ["was", "it"] : ["were", "them"];
  return `this end's ${lost.join(" and ")} ${verb} not recorded: add ${pronoun} to ${path} by hand`;
}

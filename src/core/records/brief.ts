/**
 * The tutor brief (contract §4b context): one topic's continuity in Markdown, within an exact word budget. Pure:
 * the operation (operations/brief.ts) gathers the sessions and the open session, this module only renders.
 * A word is what hot.md's 250-word rule counts (hot-memory.ts countWords: a run of non-space characters).
 */
import { countWords, topicNoteLink, truncateWords } from "./hot-memory";
import { inlineMarkdownText } from "./ids";
import { renderTopic } from "../topics/display";
import type { ConfirmedSession } from "./records";
import { extractSection } from "./session-note";
import { formatDuration, recordedDate } from "../time/index";

/** The allowed --words range of the CLI (contract §5); the pure renderer takes any budget ≥ 0. */
export const BRIEF_WORDS_DEFAULT = 400;
export const BRIEF_WORDS_MIN = 50;
export const BRIEF_WORDS_MAX = 5000;

export interface BriefTotals {
  sessions: number;
  minutes: number;
  /** Local days (YYYY-MM-DD) of the first and the last session; null without sessions. */
  first: string | null;
  last: string | null;
}

/** One session of the topic as the brief shows it: its Summary and Next action as the note has them. */
export interface BriefSession {
  session: ConfirmedSession;
  summary: string | null;
  nextAction: string | null;
}

export interface BriefOpen {
  startedAt: string;
  elapsedSeconds: number;
  /** The draft's notes (its body), or null when it has none. */
  notes: string | null;
}

export interface BriefNextAction {
  text: string;
  /** The day of the session it comes from. */
  day: string;
  sessionId: string;
  /** True when it comes from an older session than the newest one (carried forward). */
  carried: boolean;
}

export interface BriefInput {
  topicId: string;
  topicNote: string | null;
  totals: BriefTotals;
  open: BriefOpen | null;
  nextAction: BriefNextAction | null;
  /** The topic's sessions newest first (at least those that can fit; more are ignored). */
  sessions: readonly BriefSession[];
  words: number;
  /** Version 4 (contract §4c Brief): the review line, the week line, the newest recall; null: none. */
  review?: string | null;
  week?: string | null;
  recall?: string | null;
}

export interface Brief {
  text: string;
  /** How many of `sessions` the text shows (the last of them possibly cut short). */
  shown: number;
}

/** Totals of one topic's sessions (any order). */
export function briefTotals(sessions: readonly ConfirmedSession[]): BriefTotals {
  const days = sessions.map((s) => recordedDate(s.startedAt)).sort();
  return {
    sessions: sessions.length,
    minutes: sessions.reduce((sum, s) => sum + s.durationMinutes, 0),
    first: days[0] ?? null,
    last: days[days.length - 1] ?? null,
  };
}

/** A section of a note as the learner wrote it: the headings the note escaped ("\# …") given back. */
export function plainSection(body: string, heading: string): string | null {
  const section = extractSection(body, heading);
  return section === null ? null : section.replace(/^([ \t]{0,3})\\(#{1,6})(?=[ \t]|$)/gm, "$1$2").trim() || null;
}

/**
 * The topic's next action: the newest non-empty Next action among its sessions (newest first), carried forward
 * until a session marked it done.
 */
export function carriedNextAction(sessions: readonly BriefSession[]): BriefNextAction | null {
  // A session that marked the carried one done (next_done, contract §4c) stops the carrying, unless it gave a new one.
  const index = sessions.findIndex((s) => s.nextAction !== null || s.session.nextDone === true);
  if (index === -1 || sessions[index].nextAction === null) return null;
  const { session, nextAction } = sessions[index];
  return {
    text: nextAction,
    day: recordedDate(session.startedAt),
    sessionId: session.sessionId,
    carried: index > 0,
  };
}

/**
 * A topic note as the brief names it: the link hot.md gives it (topicNoteLink), else its text made safe, so it
 * cannot break the Markdown around it.
 */
export function renderTopicNote(topicNote: string): string {
  return topicNoteLink(topicNote) ?? inlineMarkdownText(topicNote);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function totalsLine(topic: string, t: BriefTotals): string {
  if (t.sessions === 0) return `No sessions on ${topic} yet.`;
  const days = t.first === t.last ? `on ${t.first}` : `from ${t.first} to ${t.last}`;
  return `${plural(t.sessions, "session")}, ${formatDuration(t.minutes)} studied, ${days}.`;
}

function openBlock(open: BriefOpen): string {
  const head = `## Open session\n\nStarted ${open.startedAt}, ${formatDuration(open.elapsedSeconds / 60)} so far.`;
  return open.notes === null ? head : `${head}\n\n${open.notes}`;
}

function nextBlock(next: BriefNextAction): string {
  return `## Next action${next.carried ? ` (from ${next.day})` : ""}\n\n${next.text}`;
}

function sessionBlock(s: BriefSession): string {
  const head = `### ${recordedDate(s.session.startedAt)}, ${formatDuration(s.session.durationMinutes)}`;
  // No summary: the session's notes say what was done (issue 35 §4), before "No summary recorded".
  const notes = s.summary === null ? extractSection(s.session.body, "Notes") : null;
  return `${head}\n\n${s.summary ?? (notes === null ? "No summary recorded." : `Notes:\n\n${notes}`)}`;
}

/**
 * The brief. Blocks in the order shown: the topic, its totals, the review and week lines, the open session, the
 * next action, the newest recall, then the sessions newest first. The words go first to the topic, the totals
 * and the next action (what the tutor needs most), then to the review line, the week line and the recall, then
 * to the open session, then to the sessions; a block that does not fit is cut at a word boundary
 * with "…" (never down to its heading alone), and nothing follows a cut session. The text never exceeds `words` words.
 */
export function renderBrief(input: BriefInput): Brief {
  let budget = Math.max(0, Math.floor(input.words));
  // A block with a heading is left out when no word of its content would fit after the heading.
  const take = (block: string | null, headed = true): string | null => {
    if (block === null || budget <= (headed ? countWords(block.split("\n")[0]) : 0)) return null;
    const kept = truncateWords(block, budget);
    budget -= countWords(kept);
    return kept;
  };
  const topic = renderTopic(input.topicId);
  const note = input.topicNote === null ? "" : ` (topic note ${renderTopicNote(input.topicNote)})`;
  const title = take(`# Tutor brief: ${topic}${note}`, false);
  const totals = take(totalsLine(topic, input.totals), false);
  const next = take(input.nextAction && nextBlock(input.nextAction));
  // Version 4's priority after the next action: the review line, the week line, the recall (contract §4c).
  const review = take(input.review ?? null, false);
  const week = take(input.week ?? null, false);
  const recall = take(input.recall ?? null, false);
  const open = take(input.open && openBlock(input.open));
  const sessions: string[] = [];
  const heading = "## Sessions";
  if (input.sessions.length > 0 && budget > countWords(heading)) {
    budget -= countWords(heading);
    sessions.push(heading);
    for (const s of input.sessions) {
      const block = sessionBlock(s);
      const kept = take(block);
      if (kept === null) break;
      sessions.push(kept);
      if (kept !== block) break;
    }
  }
  const text = [title, totals, review, week, open, next, recall, ...sessions]
    .filter((b): b is string => b !== null)
    .join("\n\n");
  return { text: text === "" ? "" : `${text}\n`, shown: Math.max(0, sessions.length - 1) };
}

/** What the brief says when there is no topic at all (no active topic, no session). */
export const NO_TOPIC_BRIEF = "No sessions yet, and no active topic: nothing to brief. Start a session with --topic.";

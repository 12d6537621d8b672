/**
 * The tools of `palee mcp` (contract §5): each names the CLI action it runs and turns its arguments (the CLI's
 * options in snake case) into that action's option values. No rule lives here: the action decides and refuses.
 */
import * as z from "zod";
import { BRIEF_WORDS_MAX, BRIEF_WORDS_MIN } from "../../core/records/brief";
import { UsageError } from "../../core/errors";
import type { Values } from "../options";
import { STDIN_TEXT_MAX } from "../stdin-text";

/** Bounds on what a client may send, so a huge argument is refused before any action reads it. */
const TEXT_MAX = STDIN_TEXT_MAX;
const SHORT_MAX = 200;

const topic = z
  .string()
  .max(SHORT_MAX)
  .describe("a topic ID (T-…) or a topic note's name or path; default: the active topic")
  .optional();
/** Who acts (contract §5 version 4): as the CLI's --agent; without it the tool acts for the learner. */
const agent = z
  .string()
  .max(SHORT_MAX)
  .describe(
    "who acts, e.g. claude-code:<conversation id>: start records it; the other tools act only on a session " +
      "this agent opened (else not_this_agent). Without it the tool acts for the learner",
  )
  .optional();
const countAway = z.boolean().describe("count the time away recorded in the open session as study").optional();
const yes = (v: unknown): true | undefined => (v === true ? true : undefined);
const text = (what: string) => z.string().max(TEXT_MAX).describe(what).optional();
const time = (what: string) => z.string().max(64).describe(what).optional();
const day = (what: string) => z.string().max(32).describe(`${what} (YYYY-MM-DD, local day, inclusive)`).optional();

export type ToolArgs = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  title: string;
  description: string;
  /** The `palee session` action it runs (src/cli/commands/index.ts). */
  action: string;
  /** Whether it only reads (the action is read-only: no lock, nothing written). */
  readOnly: boolean;
  input: z.ZodObject;
  values: (args: ToolArgs) => Values;
  /** What the tool makes of the action's JSON document; default: the document as it is. */
  result?: (doc: Record<string, unknown>, args: ToolArgs) => Record<string, unknown>;
}

/** How many confirmed sessions `list` shows without --all (src/core/operations/list.ts). */
const LIST_NEWEST = 10;

/** list_sessions `limit`: the newest `limit` of what list printed (with --all when it needs more than ten). */
function limited(doc: Record<string, unknown>, args: ToolArgs): Record<string, unknown> {
  const { limit } = args;
  if (typeof limit !== "number" || !Array.isArray(doc.confirmed)) return doc;
  return { ...doc, confirmed: doc.confirmed.slice(0, limit) };
}

/**
 * end_session's answer names whose session it ended (contract §5 version 4): `ended_session_of` is the agent
 * that opened it, or "learner"; without `agent` the tool acts for the learner and may end anyone's session.
 */
function whoseSession(doc: Record<string, unknown>): Record<string, unknown> {
  const session = doc.session as Record<string, unknown> | undefined;
  if (doc.status !== "ended" || typeof session !== "object" || session === null) return doc;
  const opener = typeof session.agent === "string" ? session.agent : null;
  const whose = opener === null ? "the learner's own session" : `the session opened by ${opener}`;
  return { ...doc, ended_session_of: opener ?? "learner", message: `Ended ${whose} (${String(session.session_id)}).` };
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): string | undefined => (typeof v === "number" ? String(v) : undefined);

/**
 * `-` stands for standard input on the command line; a tool has none, so a text of just `-` is refused rather
 * than read as empty.
 */
function literal(v: unknown, name: string): string | undefined {
  const s = str(v);
  if (s === "-") throw new UsageError(`${name} "-" reads standard input on the command line; pass the text itself`);
  return s;
}

const strict = <S extends z.ZodRawShape>(shape: S) => z.object(shape).strict();

const asOf = z
  .string()
  .max(32)
  .describe("answer as of this local day, YYYY-MM-DD (default today, never later)")
  .optional();
/** A goal's number: any number here, so the action itself refuses -5 or 2.5 with its code (invalid_goal). */
const goalNumber = (what: string) => z.number().describe(what).optional();

/** set_goal's arguments as the options of `palee session goal`. */
function goalValues(a: ToolArgs): Values {
  const review = typeof a.review === "boolean" ? (a.review ? "on" : "off") : str(a.review);
  return {
    topic: str(a.topic),
    "as-of": str(a.as_of),
    "minutes-per-week": num(a.minutes_per_week),
    "sessions-per-week": num(a.sessions_per_week),
    clear: a.clear === true ? true : undefined,
    review,
    "rest-days": Array.isArray(a.rest_days) ? (a.rest_days.length === 0 ? "none" : a.rest_days.join(",")) : undefined,
    "freezes-per-month": num(a.freezes_per_month),
    "min-minutes": num(a.min_minutes),
    pause: str(a.pause),
    unpause: str(a.unpause),
  };
}
/** The recall step (contract §4c): what is remembered, and a rating the action checks (invalid_rating). */
const recall = text("what the learner remembers, without looking (Markdown)");
const rating = z
  .union([z.number().int(), z.string().max(16)])
  .describe("how well it was recalled: 1-4 or again, hard, good, easy")
  .optional();
const ratingValue = (v: unknown): string | undefined => str(v) ?? num(v);

export const TOOLS: readonly ToolSpec[] = [
  {
    name: "status",
    title: "Session status",
    description:
      "Whether a study session is open: topic, device, time studied, last checkpoint (palee session status).",
    action: "status",
    readOnly: true,
    input: strict({}),
    values: () => ({}),
  },
  {
    name: "context",
    title: "Tutor brief",
    description:
      "The tutor brief of a topic: totals, the next action, the recent sessions and a Markdown text " +
      "(palee session context). Call it before tutoring.",
    action: "context",
    readOnly: true,
    input: strict({
      topic,
      words: z.number().int().min(BRIEF_WORDS_MIN).max(BRIEF_WORDS_MAX).describe("the brief's length").optional(),
      as_of: asOf,
    }),
    values: (a) => ({ topic: str(a.topic), words: num(a.words), "as-of": str(a.as_of) }),
  },
  {
    name: "study_next",
    title: "What to study next",
    description:
      "The review queue: topics due for review first, then behind their weekly goal, with a next action, the " +
      "rest; each with its reasons (palee session next). With `topic`, that topic's entry and review days.",
    action: "next",
    readOnly: true,
    input: strict({
      limit: z.number().int().min(1).max(10_000).describe("at most this many entries (default 10)").optional(),
      all: z.boolean().describe("every entry").optional(),
      topic: z.string().max(SHORT_MAX).describe("one topic's entry: an ID or a topic note's name").optional(),
      as_of: asOf,
    }),
    values: (a) => ({
      limit: num(a.limit),
      all: a.all === true ? true : undefined,
      topic: str(a.topic),
      "as-of": str(a.as_of),
    }),
  },
  {
    name: "list_sessions",
    title: "List sessions",
    description: "The confirmed sessions, newest first, and the drafts (palee session list).",
    action: "list",
    readOnly: true,
    input: strict({
      topic,
      all: z.boolean().describe("every confirmed session, not only the newest").optional(),
      limit: z.number().int().min(1).max(100_000).describe("at most this many confirmed sessions").optional(),
    }),
    values: (a) => ({
      topic: str(a.topic),
      all: a.all === true || (typeof a.limit === "number" && a.limit > LIST_NEWEST) ? true : undefined,
    }),
    result: limited,
  },
  {
    name: "show_session",
    title: "Show a session",
    description: "One confirmed session or draft, whole: fields, summary, next action, notes (palee session show).",
    action: "show",
    readOnly: true,
    input: strict({ id: z.string().max(SHORT_MAX).describe("S-… or DRAFT-S-…") }),
    values: (a) => ({ id: str(a.id) }),
  },
  {
    name: "stats",
    title: "Study statistics",
    description: "Totals, today, this and last week, the streak, minutes per day and per topic (palee session stats).",
    action: "stats",
    readOnly: true,
    input: strict({ since: day("from"), until: day("to"), as_of: asOf }),
    values: (a) => ({ since: str(a.since), until: str(a.until), "as-of": str(a.as_of) }),
  },
  {
    name: "start_session",
    title: "Start a session",
    description:
      "Starts a study session on a topic and returns its working memory (palee session start). Refused when a " +
      "session is already open or drafts are pending.",
    action: "start",
    readOnly: false,
    input: strict({ topic, agent }),
    values: (a) => ({ topic: str(a.topic), agent: str(a.agent) }),
  },
  {
    name: "checkpoint",
    title: "Save a checkpoint",
    description: "Checkpoints the open session, appending notes to its draft (palee session draft).",
    action: "draft",
    readOnly: false,
    input: strict({ topic, note: text("notes to append (Markdown)"), agent, count_away: countAway }),
    values: (a) => ({ topic: str(a.topic), note: str(a.note), agent: str(a.agent), "count-away": yes(a.count_away) }),
  },
  {
    name: "pause",
    title: "Pause the session",
    description: "Pauses the open session; the time until continue is a break, not counted (palee session pause).",
    action: "pause",
    readOnly: false,
    input: strict({ topic, agent }),
    values: (a) => ({ topic: str(a.topic), agent: str(a.agent) }),
  },
  {
    name: "continue_session",
    title: "Continue the session",
    description: "Goes on with a paused session (palee session continue).",
    action: "continue",
    readOnly: false,
    input: strict({ topic, agent }),
    values: (a) => ({ topic: str(a.topic), agent: str(a.agent) }),
  },
  {
    name: "end_session",
    title: "End the session",
    description:
      "Ends the open session and saves it as a session note (palee session end). After a long silence it " +
      "refuses (long_silence) until `at` says when it ended: now, last, HH:MM or ISO 8601 (not now when its " +
      "draft is gone: nothing shows it alive after its start).",
    action: "end",
    readOnly: false,
    input: strict({
      topic,
      summary: text("what was learned (Markdown)"),
      next_action: text("the next step"),
      note: text("a last note, merged into the session's Notes"),
      at: time("when it ended: now, last, HH:MM or ISO 8601"),
      outcome: z.enum(["completed", "interrupted"]).optional(),
      recall,
      rating,
      done: z.boolean().describe("the next action carried from an earlier session was done").optional(),
      agent,
      count_away: countAway,
    }),
    values: (a) => ({
      topic: str(a.topic),
      summary: literal(a.summary, "summary"),
      next: literal(a.next_action, "next_action"),
      note: str(a.note),
      at: str(a.at),
      outcome: str(a.outcome),
      recall: literal(a.recall, "recall"),
      rating: ratingValue(a.rating),
      done: a.done === true ? true : undefined,
      agent: str(a.agent),
      "count-away": yes(a.count_away),
    }),
    result: whoseSession,
  },
  {
    name: "log_session",
    title: "Log a past session",
    description: "Records a past session that was not timed (palee session log): from and to, or minutes.",
    action: "log",
    readOnly: false,
    input: strict({
      topic,
      from: time("when it began: HH:MM or ISO 8601"),
      to: time("when it ended: HH:MM or ISO 8601 (default now)"),
      minutes: z.number().int().min(1).max(1440).describe("how long, instead of from").optional(),
      summary: text("what was learned (Markdown)"),
      next_action: text("the next step"),
      recall,
      rating,
      agent,
    }),
    values: (a) => ({
      topic: str(a.topic),
      agent: str(a.agent),
      from: str(a.from),
      to: str(a.to),
      minutes: num(a.minutes),
      summary: str(a.summary),
      next: str(a.next_action),
      recall: literal(a.recall, "recall"),
      rating: ratingValue(a.rating),
    }),
  },
  {
    name: "goals",
    title: "Weekly goals",
    description: "This week against the weekly goals, overall and per topic, and the week streak (palee session goal).",
    action: "goal",
    readOnly: true,
    input: strict({ topic, as_of: asOf }),
    values: (a) => ({ topic: str(a.topic), "as-of": str(a.as_of) }),
  },
  {
    name: "set_goal",
    title: "Set a weekly goal",
    description:
      "Sets the learner's weekly goal (overall, or a topic's with topic) from this week on, or the forgiving " +
      "rules: rest days, freezes per month, minimum minutes, pauses (palee session goal with a setting option).",
    action: "goal",
    readOnly: false,
    input: strict({
      topic,
      minutes_per_week: goalNumber("the weekly target in minutes, 1 to 10080"),
      sessions_per_week: goalNumber("the weekly target in sessions, 1 to 100"),
      clear: z.boolean().describe("remove the targets of the goal named").optional(),
      review: z
        .union([z.boolean(), z.enum(["on", "off"])])
        .describe("with topic: keep it in the review queue")
        .optional(),
      rest_days: z
        .array(z.string().max(16))
        .max(7)
        .describe("weekdays that never break the day chain: mon … sun ([] for none)")
        .optional(),
      freezes_per_month: goalNumber("missed days forgiven each month, 0 to 10"),
      min_minutes: goalNumber("the minutes of a study day and a counted session, 1 to 240"),
      pause: z.string().max(32).describe("a pause, YYYY-MM-DD/YYYY-MM-DD (inclusive)").optional(),
      unpause: z.string().max(32).describe("remove the pause starting on this day, YYYY-MM-DD").optional(),
      as_of: asOf,
    }),
    values: goalValues,
  },
  {
    name: "year",
    title: "A year of study",
    description:
      "Minutes per day over the 53 weeks to as_of, weeks met, the week streak and the forgiving day chain " +
      "(palee session year).",
    action: "year",
    readOnly: true,
    input: strict({ as_of: asOf }),
    values: (a) => ({ "as-of": str(a.as_of) }),
  },
];

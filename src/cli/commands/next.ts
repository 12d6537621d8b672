/**
 * `palee session next` (contract §4c "Queue", §5 version 4): what to study next. Read-only; the queue is the
 * core's (operations/next.ts, which reads plan.md for the goals and `review: false`); this file prints it.
 */
import { UsageError } from "../../core/errors";
import { nextJson, queueEntryJson } from "../../core/formats/review";
import type { NextResult } from "../../core/operations/next";
import type { QueueEntry } from "../../core/review/queue";
import { ratingWord } from "../../core/review/rating";
import { dayText } from "../../core/time";
import type { Values } from "../options";
import type { Outcome } from "../output";
import { printable } from "../text";
import { topicNotesOf, topicOption } from "../topic";
import type { Command, CommandContext } from "./command";

const LIMIT_DEFAULT = 10;

/** --limit: a whole number from 1 to 10 000, else one clear refusal (exit 2). */
function parseLimit(value: string | undefined, all: boolean): number | null {
  if (all) {
    if (value !== undefined) throw new UsageError("--limit and --all cannot be given together");
    return null;
  }
  if (value === undefined) return LIMIT_DEFAULT;
  const n = /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 10_000) {
    throw new UsageError(`--limit must be a whole number from 1 to 10000 (got ${JSON.stringify(value.slice(0, 40))})`);
  }
  return n;
}

/** How the text names a topic: its note's name with the ID, or the ID alone. */
function named(r: NextResult, topicId: string): string {
  const note = r.notes.get(topicId);
  return note ? `${printable(note.name)} (${printable(topicId)})` : printable(topicId);
}

function reasonsText(e: QueueEntry): string {
  return e.reasons.map((x) => x.text).join("; ");
}

function entryLine(r: NextResult, e: QueueEntry): string {
  const due = e.schedule.due === null ? "no review yet" : `due ${dayText(e.schedule.due)}`;
  const why = e.reasons.length > 0 ? ` — ${printable(reasonsText(e))}` : "";
  return `  ${e.group.padEnd(9)} ${named(r, e.topicId)}, ${due}${why}`;
}

/** The first line: the first entry as a sentence, or, with nothing due, the soonest topic (contract §5). */
function headline(r: NextResult): string[] {
  const first = r.queue[0];
  if (first === undefined) return ["Nothing to review yet: end a session on a topic to start its schedule."];
  const start = `palee session start --topic ${printable(first.topicId)}`;
  if (first.group === "due" || first.group === "goal" || first.group === "continue") {
    // One full stop: a reason that ends a sentence (a next action often does) keeps its own.
    const why = printable(reasonsText(first)).replace(/[.!?]$/, "");
    return [`Study next: ${named(r, first.topicId)} — ${why}.`, `Start it: ${start}`];
  }
  const dated = r.queue.filter((e) => e.schedule.due !== null);
  const soonest = dated.reduce<QueueEntry | null>(
    (a, e) => (a === null || (e.schedule.due as number) < (a.schedule.due as number) ? e : a),
    null,
  );
  const which = soonest ?? first;
  const when = which.schedule.due === null ? "" : ` on ${dayText(which.schedule.due)}`;
  return [
    `Nothing due; next: ${named(r, which.topicId)}${when}.`,
    `Start it: palee session start --topic ${printable(which.topicId)}`,
  ];
}

function topicText(r: NextResult, e: QueueEntry): string[] {
  const s = e.schedule;
  const lines = [`${named(r, e.topicId)}: ${e.group}`, entryLine(r, e)];
  if (s.history.length > 0) lines.push("Review days:");
  for (const h of s.history) {
    const rating = h.rating === null ? "unrated" : `rated ${ratingWord(h.rating)} (${h.rating})`;
    lines.push(`  ${dayText(h.day)}  ${rating}, step ${h.step}, gap ${h.gapDays} d, due ${dayText(h.due)}`);
  }
  return lines;
}

async function runNext(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { out } = ctx;
  const limit = parseLimit(values.limit, values.all === true);
  const topic = await topicOption(ctx, values.topic, "acts on the open session");
  const topicNotes = topicNotesOf(ctx).notes;
  const r = await ctx.core.next({ asOf: values["as-of"] ?? null, topicNotes, topic }); // the core reads plan.md
  for (const w of r.warnings) out.warn(w);
  if (r.entry !== null) {
    const note = r.notes.get(r.entry.topicId) ?? null;
    if (out.json) out.doc({ ...queueEntryJson(r.entry, note, r.asOf, true), warnings: r.warnings });
    else out.text(topicText(r, r.entry).join("\n"));
    return 0;
  }
  if (out.json) {
    out.doc(nextJson(r, limit));
    return 0;
  }
  const shown = limit === null ? r.queue : r.queue.slice(0, limit);
  const lines = [...headline(r), ...(shown.length > 0 ? ["", ...shown.map((e) => entryLine(r, e))] : [])];
  if (shown.length < r.queue.length)
    lines.push(`  … and ${r.queue.length - shown.length} more (--all lists every one)`);
  if (r.excluded.length > 0) lines.push(`Review off: ${r.excluded.map(printable).join(", ")}`);
  if (r.open) lines.push(`Open session: ${printable(r.open.topicId)} since ${r.open.startedAt}`);
  out.text(lines.join("\n"));
  return 0;
}

export const next: Command = {
  name: "next",
  summary: "Says what to study next: topics due for review first, with the reasons (contract §4c).",
  options: {
    limit: "how many entries (default 10)",
    all: "every entry",
    topic: "one topic's entry and its review days",
    "as-of": "the day to judge as of, YYYY-MM-DD (default today; never after today)",
  },
  example: "palee session next --limit 5",
  run: runNext,
};

import { BRIEF_WORDS_DEFAULT, BRIEF_WORDS_MAX, BRIEF_WORDS_MIN } from "../../core/records/brief";
import { UsageError } from "../../core/errors";
import { detailedSessionJson, openJson } from "../../core/formats/json";
import { queueEntryJson, topicWeekJson } from "../../core/formats/review";
import { dayText } from "../../core/time";
import type { Values } from "../options";
import { topicNotesOf, topicOption } from "../topic";
import type { Outcome } from "../output";
import type { Command, CommandContext } from "./command";
import { printable } from "../text";

/** --words: a whole number within the allowed range (contract §5), else one clear refusal (exit 2). */
export function parseWords(value: string | undefined): number {
  if (value === undefined) return BRIEF_WORDS_DEFAULT;
  const n = /^\s*\d{1,6}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < BRIEF_WORDS_MIN || n > BRIEF_WORDS_MAX) {
    const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    throw new UsageError(`--words must be a whole number from ${BRIEF_WORDS_MIN} to ${BRIEF_WORDS_MAX} (got ${shown})`);
  }
  return n;
}

async function runContext(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { out } = ctx;
  const words = parseWords(values.words);
  // A topic note's name, alias or path works too (contract §4 "finding a topic by name").
  const topic = await topicOption(ctx, values.topic, "reads");
  const r = await ctx.core.brief({ topic, words, asOf: values["as-of"] ?? null });
  for (const w of r.warnings) out.warn(printable(w));
  if (out.json) {
    const note = r.review && (topicNotesOf(ctx).notes.find((n) => n.topicId === r.topicId) ?? null);
    out.doc({
      topic_id: r.topicId,
      topic_note: r.topicNote,
      totals: r.totals,
      open: r.open ? openJson(r.open) : null,
      next_action: r.nextAction?.text ?? null,
      sessions: r.sessions.map(detailedSessionJson),
      review: r.review && queueEntryJson(r.review, note ?? null, r.asOf),
      week: r.week && topicWeekJson(r.week, r.asOf),
      recall: r.recall && { date: dayText(r.recall.day), text: r.recall.text, rating: r.recall.rating },
      text: r.text,
      warnings: r.warnings,
    });
    return 0;
  }
  ctx.io.stdout(r.text);
  return 0;
}

export const context: Command = {
  name: "context",
  summary: "Prints the tutor brief of a topic (default: the active one) in Markdown, within --words words.",
  options: {
    topic: "the topic to brief (default: the active topic, else the newest session's)",
    words: `the brief's length in words, ${BRIEF_WORDS_MIN} to ${BRIEF_WORDS_MAX} (default ${BRIEF_WORDS_DEFAULT})`,
    "as-of": "brief as of this day, YYYY-MM-DD (default today): later sessions are left out",
  },
  example: "palee session context --topic T-rust-ownership --words 300",
  run: runContext,
};

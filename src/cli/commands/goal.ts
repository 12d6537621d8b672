/**
 * `palee session goal` (contract §5): this week against the goals and the week streak; with a setting option it
 * writes plan.md under the vault lock (only the keys asked for). The options are checked in `prepare`, before the
 * lock, so a refusal writes nothing and waits for no one.
 */
import { TopicLookupError } from "../../core/errors";
import type { GoalOptionsText, GoalsReport } from "../../core/goals";
import { asksForChange, goalChangeOf, goalsJson, weekProgressText } from "../../core/goals";
import type { GoalsResult } from "../../core/sessions";
import { dayText } from "../../core/time";
import { skippedWarning } from "../../core/records/records";
import type { Values } from "../options";
import type { CliIo, Outcome } from "../output";
import { plural, printable } from "../text";
import { topicOption } from "../topic";
import type { Command, CommandContext, Prepared } from "./command";

function optionsText(values: Values): GoalOptionsText {
  return {
    minutesPerWeek: values["minutes-per-week"],
    sessionsPerWeek: values["sessions-per-week"],
    clear: values.clear,
    review: values.review,
    restDays: values["rest-days"],
    freezesPerMonth: values["freezes-per-month"],
    minMinutes: values["min-minutes"],
    pause: values.pause,
    unpause: values.unpause,
  };
}

/**
 * `--topic` as goals take it: an ID or a topic note's name, or a topic ID read from a session note that is not of
 * the ID pattern (an original tool's `git_rebase`, contract §2 plan.md).
 */
async function goalTopic(ctx: CommandContext, raw: string | undefined): Promise<string | null> {
  try {
    return await topicOption(ctx, raw, "acts on the open session");
  } catch (error) {
    if (!(error instanceof TopicLookupError) || error.kind !== "unknown_topic" || raw === undefined) throw error;
    const scan = await ctx.core.scan();
    if (scan.confirmed.some((s) => s.topicId === raw.trim())) return raw.trim();
    throw error;
  }
}

const STATUS_WORDS: Record<string, string> = {
  met: "met",
  in_progress: "in progress",
  paused: "paused",
  missed: "not met",
  before_start: "before your first session",
};

function goalText(report: GoalsReport, topic: string | null): string[] {
  const { week } = report;
  const lines = [`This week (${dayText(week.monday)} to ${dayText(week.monday + 6)}, as of ${dayText(report.asOf)})`];
  const overall = week.targetMinutes === null && week.targetSessions === null ? "no weekly goal" : "overall";
  lines.push(`  ${overall}: ${weekProgressText(week)} (${STATUS_WORDS[week.status]})`);
  for (const t of report.topics) {
    if (topic !== null && t.topicId !== topic) continue;
    lines.push(`  ${printable(t.topicId)}: ${weekProgressText(t)} (${STATUS_WORDS[t.status]})`);
  }
  const s = report.weekStreak;
  lines.push(`Week streak: ${plural(s.current, "week")} met in a row, longest ${s.longest}`);
  if (overall === "no weekly goal") lines.push("Set one: palee session goal --minutes-per-week 300");
  return lines;
}

async function answer(ctx: CommandContext, result: GoalsResult, set: boolean, topic: string | null): Promise<Outcome> {
  const { out } = ctx;
  for (const s of result.skipped) out.warn(skippedWarning(s));
  for (const w of result.warnings) out.warn(printable(w));
  if (out.json) {
    const doc = goalsJson(result.report, set ? "goal_set" : "goals", result.warnings);
    if (topic !== null) doc.topics = doc.topics.filter((t) => t.topic_id === topic);
    out.doc(doc);
    return 0;
  }
  if (set) out.text(`Saved in ${ctx.core.layout.folder}/plan.md.`);
  for (const line of goalText(result.report, topic)) out.text(line);
  return 0;
}

async function prepareGoal(values: Values, _io: CliIo): Promise<Prepared> {
  const options = optionsText(values);
  const asOf = values["as-of"] ?? null;
  if (!asksForChange(options)) {
    return {
      writes: false,
      run: async (ctx) => {
        const topic = await goalTopic(ctx, values.topic);
        return answer(ctx, await ctx.core.goals({ asOf }), false, topic);
      },
    };
  }
  // Checked before the lock: a refusal (invalid_goal, invalid_date, topic_required) writes nothing.
  goalChangeOf(options, values.topic === undefined ? null : "T-checked");
  return {
    run: async (ctx) => {
      const topic = await goalTopic(ctx, values.topic);
      const result = await ctx.core.setGoal(goalChangeOf(options, topic), { asOf });
      return answer(ctx, result, true, topic);
    },
  };
}

export const goal: Command = {
  name: "goal",
  summary:
    "Shows this week against your weekly goals and the week streak; with a setting option, sets the goal " +
    "(from this week on) or the forgiving rules in plan.md.",
  options: {
    topic: "the topic whose goal to show or set (default: the overall goal)",
    "minutes-per-week": "the weekly target in minutes, 1 to 10080",
    "sessions-per-week": "the weekly target in sessions, 1 to 100",
    clear: "remove the targets of the goal named (from this week on)",
    review: "with --topic: on keeps the topic in the review queue, off keeps it out",
    "rest-days": "weekdays that never break the day chain, e.g. sat,sun (none: no rest day)",
    "freezes-per-month": "missed days forgiven each month, 0 to 10 (default 2)",
    "min-minutes": "the minutes that make a study day and a counted session, 1 to 240 (default 5)",
    pause: "a holiday or illness, YYYY-MM-DD/YYYY-MM-DD (inclusive, at most 366 days)",
    unpause: "remove the pause that starts on this day",
    "as-of": "answer as of this day, YYYY-MM-DD (a write still uses today's week)",
  },
  example: "palee session goal --minutes-per-week 300",
  run: (ctx, values) => prepareGoal(values, ctx.io).then((p) => p.run(ctx)),
  prepare: prepareGoal,
};

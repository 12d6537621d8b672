/** `palee session stats` (contract §4a, §5): the CLI face of src/core/insight/stats. */
import { skippedJson } from "../../core/formats/json";
import type { DayTotal, RangeAnswers, SessionStats, Totals } from "../../core/insight/stats";
import { computeStats, daySeries, periodsInRange, statsMemo } from "../../core/insight/stats";
import { statsWithOlder } from "../../core/insight/with-older";
import { formatDuration } from "../../core/time";
import type { Skipped } from "../../core/records/records";
import { skippedWarning } from "../../core/records/records";
import type { DayRange } from "../day-range";
import { dayRangeOf } from "../day-range";
import type { Values } from "../options";
import type { Outcome } from "../output";
import { jsonText, plural, printable } from "../text";
import { keepYoungGenerationSmall } from "../young-generation";
import type { Command, CommandContext } from "./command";
import type { GoalsResult } from "../../core/sessions";
import { goalLine, weekJson } from "../../core/goals";
import { DAY_MS, MINUTE_MS, dayOf } from "../../core/time";
import type { OffsetAt } from "../../core/time";

const totalsJson = (t: { minutes: number; sessions: number }) => ({ minutes: t.minutes, sessions: t.sessions });

/** Days a range's chart shows at most (the last ones up to today); without a range, the last 14 days. */
const CHART_DAYS = 14;

/** With --since/--until, a period outside the range is null, never 0 (core periodsInRange). */
function statsJson(
  stats: SessionStats,
  range: DayRange,
  shows: RangeAnswers,
  skipped: readonly Skipped[],
  goals: GoalsResult,
) {
  const { report, chain } = goals;
  return {
    since: range.since,
    until: range.until,
    total_minutes: stats.total.minutes,
    total_sessions: stats.total.sessions,
    today: shows.today ? { date: stats.today.date, ...totalsJson(stats.today) } : null,
    this_week: shows.thisWeek
      ? { week: stats.thisWeek.week, start: stats.thisWeek.start, ...totalsJson(stats.thisWeek) }
      : null,
    last_week: shows.lastWeek
      ? { week: stats.lastWeek.week, start: stats.lastWeek.start, ...totalsJson(stats.lastWeek) }
      : null,
    streak: { current: shows.currentStreak ? stats.streak.current : null, longest: stats.streak.longest },
    by_day: stats.byDay.map((d) => ({ date: d.date, ...totalsJson(d) })),
    by_week: stats.byWeek.map((w) => ({ week: w.week, start: w.start, ...totalsJson(w) })),
    by_topic: stats.byTopic.map((t) => ({ topic_id: t.topicId, ...totalsJson(t), first: t.first, last: t.last })),
    flagged: stats.flagged.map((f) => ({
      session_id: f.sessionId,
      path: f.path,
      problem: f.problem,
      counted: f.counted,
      counted_minutes: f.countedMinutes,
    })),
    skipped: skipped.map(skippedJson),
    // Version 4 (contract §5): this week against the goal, the week streak and the forgiving day chain.
    week: weekJson(report.week),
    week_streak: { current: report.weekStreak.current, longest: report.weekStreak.longest },
    day_chain: { current: chain.current, longest: chain.longest, freezes_left: chain.freezesLeft },
    warnings: goals.warnings,
  };
}

/** One line per row, columns padded to their widest cell; text cells left, numbers right. */
function table(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  numeric: readonly boolean[],
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** "1 h 5 min (3 sessions, 2026-W49)": a period's totals and its name. */
function periodText(totals: Totals, name: string): string {
  return `${formatDuration(totals.minutes)} (${plural(totals.sessions, "session")}, ${name})`;
}

function statsText(stats: SessionStats, range: DayRange, shows: RangeAnswers): string[] {
  const ranged = Boolean(range.since || range.until);
  const over = ranged ? `${range.since ?? "the first session"} to ${range.until ?? "today"}` : "all sessions";
  const lines = [
    `Study statistics (${over})`,
    `  Total       ${formatDuration(stats.total.minutes)} in ${plural(stats.total.sessions, "session")}`,
  ];
  // Over a range, a period reaching outside it is left out: its sessions there would read as missing.
  if (shows.today) lines.push(`  Today       ${periodText(stats.today, stats.today.date)}`);
  if (shows.thisWeek) lines.push(`  This week   ${periodText(stats.thisWeek, stats.thisWeek.week)}`);
  if (shows.lastWeek) lines.push(`  Last week   ${periodText(stats.lastWeek, stats.lastWeek.week)}`);
  const longest = `longest ${plural(stats.streak.longest, "day")}${ranged ? " in the range" : ""}`;
  const current = shows.currentStreak ? `${plural(stats.streak.current, "day")} now, ` : "";
  lines.push(`  Streak      ${current}${longest}`);
  if (stats.byTopic.length > 0) {
    lines.push("", "By topic");
    const rows = stats.byTopic.map((t) => [
      printable(t.topicId),
      String(t.minutes),
      String(t.sessions),
      t.first,
      t.last,
    ]);
    const header = ["Topic", "Minutes", "Sessions", "First", "Last"];
    lines.push(...table(header, rows, [false, true, true, false, false]).map((l) => `  ${l}`));
  }
  const days: DayTotal[] = daySeries(stats, shows.days.last, shows.days.count);
  if (days.length === 0) return [...lines, "", "No day of the range has come yet."];
  const first = days[0].date;
  const last = days[days.length - 1].date;
  lines.push("", ranged ? `Days ${first} to ${last}` : `Last ${days.length} days (to ${last})`);
  const most = Math.max(1, ...days.map((d) => d.minutes));
  lines.push(
    ...table(
      ["Day", "Minutes", ""],
      days.map((d) => [d.date, String(d.minutes), "#".repeat(Math.round((d.minutes / most) * 30))]),
      [false, true, false],
    ).map((l) => `  ${l}`),
  );
  return lines;
}

/**
 * --as-of (contract §4c): stats as they stood at the end of that local day: "now" moves there (today, the
 * weeks, the streak) and sessions that start after it are not counted (an --until after it is cut to it).
 */
function asOfRange(range: DayRange, asOf: string | undefined, now: number, offsetAt: OffsetAt) {
  const day = asOf === undefined ? null : dayOf(asOf);
  if (day === null) return { range, now };
  const end = (day + 1) * DAY_MS - 1;
  const until = range.until === null || range.until > asOf!.trim() ? asOf!.trim() : range.until;
  return { range: { ...range, until }, now: Math.min(now, end - offsetAt(end) * MINUTE_MS) };
}

async function runStats(ctx: CommandContext, values: Values): Promise<Outcome> {
  const { io, out } = ctx;
  const asked = dayRangeOf(values);
  const { range, now } = asOfRange(asked, values["as-of"], ctx.clock.now(), ctx.offsetAt);
  // Without the older notes the device's totals fold, when it has them (core/insight/with-older.ts).
  let { scan, older } = await ctx.core.scanWithOlder(keepYoungGenerationSmall); // before a full scan
  const memo = statsMemo();
  const options = { now, offsetAt: ctx.offsetAt, ...range, memo };
  let stats = older && statsWithOlder(scan.confirmed, older.totals, options);
  if (!stats && older) {
    keepYoungGenerationSmall(); // the totals cannot answer: a full scan (young-generation.ts)
    [scan, older] = [await ctx.core.scan(), null];
  }
  stats ??= computeStats(scan.confirmed, options);
  // The same scan and each session's day and minutes as stats counted them; a bad --as-of is refused here
  // (invalid_date), before anything is printed.
  const goals = await ctx.core.goals({ asOf: values["as-of"] ?? null, scan, older, memo });
  const shows = periodsInRange(stats, asked, CHART_DAYS);
  for (const s of scan.skipped) out.warn(skippedWarning(s));
  for (const f of stats.flagged) out.warn(`${f.path}: ${printable(f.problem)}`);
  for (const w of goals.warnings) out.warn(printable(w));
  if (out.json) io.stdout(jsonText(statsJson(stats, asked, shows, scan.skipped, goals)));
  else {
    const lines = statsText(stats, asked, shows);
    // The goal line is about this week: left out, like This week, over a range that does not hold it.
    const goal = `  ${goalLine(goals.report.week, goals.report.weekStreak)}`;
    if (shows.thisWeek) lines.splice(lines.findIndex((l) => l.startsWith("  Streak")) + 1, 0, goal);
    io.stdout(`${lines.join("\n")}\n`);
  }
  return 0;
}

export const stats: Command = {
  name: "stats",
  summary: "Prints study statistics: totals, this and last week, streaks, minutes by topic and by day.",
  options: {
    since: "first local day, YYYY-MM-DD (inclusive)",
    until: "last local day, YYYY-MM-DD (inclusive)",
    "as-of": "stats as they stood at the end of this day, YYYY-MM-DD (not after today)",
  },
  example: "palee session stats --since 2026-11-01",
  run: runStats,
};

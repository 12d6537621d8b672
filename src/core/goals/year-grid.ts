/**
 * The year as text (contract §5 `year`): 7 rows, Monday to Sunday, one character per day, newest week on the
 * right; month labels above, week marks below (✓ met, · in progress). Levels 0–4 are " ░▒▓█"; a rest, paused or
 * frozen day with no minutes shows its mark (- = *); future days and days before the first session are blank.
 * A missed day looks like any empty day.
 */
import { DAY_MS, dayText } from "../time";
import { WEEKDAYS } from "./plan-values";
import type { YearDay, YearView } from "./year";

const LEVELS = [" ", "░", "▒", "▓", "█"] as const;
const MARKS: Partial<Record<YearDay["state"], string>> = { rest: "-", paused: "=", frozen: "*" };
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const LABEL = "    ";

export function dayCell(day: YearDay): string {
  if (day.state === "future" || day.state === "before_start") return " ";
  if (day.minutes === 0 && MARKS[day.state]) return MARKS[day.state] as string;
  return LEVELS[day.level];
}

/** Month names above the week in which each month's first day falls, where they fit. */
function monthLine(view: YearView): string {
  const cells = Array<string>(view.weeks.length).fill(" ");
  let free = 0;
  view.weeks.forEach((week, column) => {
    for (let day = week.monday; day < week.monday + 7; day++) {
      const date = new Date(day * DAY_MS);
      const name = MONTHS[date.getUTCMonth()];
      // A name that would not fit whole (the last weeks) is left out rather than cut.
      if (date.getUTCDate() !== 1 || column < free || column + name.length > cells.length) continue;
      for (let i = 0; i < name.length; i++) cells[column + i] = name[i];
      free = column + name.length + 1;
    }
  });
  return (LABEL + cells.join("")).trimEnd();
}

export function yearGrid(view: YearView): string[] {
  const rows = WEEKDAYS.map((name, row) => {
    const cells = view.weeks.map((_, column) => dayCell(view.days[column * 7 + row]));
    return `${name[0].toUpperCase()}${name.slice(1)} ${cells.join("")}`;
  });
  const marks = view.weeks.map((w) => (w.status === "met" ? "✓" : w.status === "in_progress" ? "·" : " "));
  return [monthLine(view), ...rows, (LABEL + marks.join("")).trimEnd()];
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The year's summary under the grid. */
export function yearSummary(view: YearView): string[] {
  const chain = view.chain;
  return [
    `${dayText(view.from)} to ${dayText(view.to)}, as of ${dayText(view.asOf)}`,
    `Studied ${view.studyDays.last30} of the last 30 days, ${view.studyDays.last365} of the last 365.`,
    `Weeks met: ${view.weeksMet} of ${view.weeksJudged}; week streak ${view.weekStreak.current}, ` +
      `longest ${view.weekStreak.longest}.`,
    `Day chain: ${plural(chain.current, "day")}, longest ${chain.longest}; ` +
      `${plural(chain.freezesLeft, "freeze")} left this month.`,
    `Daily target ${view.dailyTarget} min: ░ under half, ▒ under it, ▓ up to twice it, █ more; ` +
      "- rest, = paused, * frozen.",
  ];
}

/**
 * Goals in words, for every face (the CLI's `goal` and `stats`, the brief's week line, the plugin's "This week"):
 * "40 of 120 min, 1 of 3 sessions". Nothing here calls a week or a day missed (contract §4c).
 */
import type { Week, WeekStreak } from "./weeks";

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A week's progress: each target as "N of T", else what was done. */
export function weekProgressText(week: Week): string {
  const parts: string[] = [];
  if (week.targetMinutes !== null) parts.push(`${week.minutes} of ${week.targetMinutes} min`);
  if (week.targetSessions !== null) parts.push(`${week.sessions} of ${plural(week.targetSessions, "session")}`);
  if (parts.length === 0) parts.push(`${week.minutes} min`, plural(week.sessions, "session"));
  const text = parts.join(", ");
  if (week.status === "paused") return `${text} (paused)`;
  return week.status === "met" && (week.targetMinutes !== null || week.targetSessions !== null)
    ? `${text} (goal met)`
    : text;
}

/** "4 weeks met in a row" (or "no week met yet in a row", said gently). */
export function weekStreakText(streak: WeekStreak): string {
  if (streak.current === 0) {
    return streak.longest > 0 ? `longest run ${plural(streak.longest, "week")} met` : "no week met in a row yet";
  }
  return `${plural(streak.current, "week")} met in a row`;
}

/** The goal line of `stats` (contract §5): "This week: 120 of 300 min, 2 of 5 sessions; 4 weeks met in a row". */
export function goalLine(week: Week, streak: WeekStreak): string {
  return `This week: ${weekProgressText(week)}; ${weekStreakText(streak)}`;
}

/** Builders for the goals tests: sessions as the scan gives them, and plans as plan.md reads them. */
import type { InsightSession } from "../../../src/core/insight/stats";
import type { Plan } from "../../../src/core/goals";
import { readPlan, studyLog } from "../../../src/core/goals";
import { renderFrontmatter } from "../../../src/core/records/frontmatter";
import { dayOf, parseTimestamp } from "../../../src/core/time";
import type { OffsetAt } from "../../../src/core/time";
import { dump } from "js-yaml";

let counter = 0;

/** A session that started at `startedAt` (ISO with its offset) and lasted `minutes`. */
export function session(startedAt: string, minutes: number, topicId = "T-a"): InsightSession {
  const startedMs = parseTimestamp(startedAt) as number;
  const id = `S-${String(++counter).padStart(6, "0")}`;
  return {
    sessionId: id,
    path: `palee/sessions/${id}.md`,
    topicId,
    startedAt,
    startedMs,
    endedAt: new Date(startedMs + minutes * 60_000).toISOString(),
    durationMinutes: minutes,
    outcome: "completed",
    topicNote: null,
  };
}

/** A session at 10:00 UTC on a day. */
export const on = (date: string, minutes: number, topicId = "T-a"): InsightSession =>
  session(`${date}T10:00:00+00:00`, minutes, topicId);

/** plan.md's text with these frontmatter keys (palee_schema and type first). */
export function planText(fields: Record<string, unknown>, body = "PALEE study plan.\n"): string {
  return `---\n${dump({ palee_schema: 1, type: "study_plan", ...fields })}---\n${body}`;
}

export function plan(fields: Record<string, unknown> = {}): Plan {
  const read = readPlan(planText(fields), "palee/plan.md");
  expect(read.warnings).toEqual([]);
  return read.plan;
}

export const utc: OffsetAt = () => 0;
/** Long after every example: sessions are judged as past. */
export const NOW = Date.parse("2027-06-01T00:00:00Z");

export function logOf(sessions: InsightSession[], asOf: string, p: Plan, offsetAt: OffsetAt = utc) {
  return studyLog(sessions, { asOf: dayOf(asOf) as number, now: NOW, offsetAt, minMinutes: p.minMinutes });
}

/** Every day from `from` to `to` (inclusive) as YYYY-MM-DD. */
export function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = dayOf(from) as number; d <= (dayOf(to) as number); d++) {
    days.push(new Date(d * 86_400_000).toISOString().slice(0, 10));
  }
  return days;
}

export { renderFrontmatter };

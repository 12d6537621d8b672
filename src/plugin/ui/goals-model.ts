/**
 * What the history view's "This week" and "Year" show, as data (contract §5 version 4): the core's goals over
 * the confirmed sessions and plan.md, as of today. The open session is not counted: its minutes this week are
 * carried beside, to be drawn apart. No DOM, no file access.
 */
import type { GoalsReport, StudyLogMemo, YearView } from "../../core/goals";
import { goalsReport, readPlan, studyLog, yearView } from "../../core/goals";
import type { InsightSession, StatsMemo } from "../../core/insight/stats";
import type { OffsetAt } from "../../core/time";
import { localDay, mondayOf } from "../../core/time";

export interface GoalsModel {
  report: GoalsReport;
  year: YearView;
  /** The open session's minutes so far when it started this week (drawn apart, not counted), else 0. */
  openMinutes: number;
  openTopicId: string | null;
  /** plan.md's warnings, each naming it. */
  warnings: string[];
}

export interface GoalsInput {
  confirmed: readonly InsightSession[];
  /** plan.md's text, null when it does not exist. */
  planText: string | null;
  planPath: string;
  now: number;
  offsetAt: OffsetAt;
  open: { topicId: string; startedMs: number; studiedMinutes: number } | null;
  /** The view's stats memo, already filled by computeStats: each session's day and minutes are not worked again. */
  memo?: StatsMemo;
  /** The view's last study log, taken forward by the notes added since (study-log.ts). */
  logMemo?: StudyLogMemo;
}

export function goalsModel(input: GoalsInput): GoalsModel {
  const { now, offsetAt } = input;
  const read = readPlan(input.planText, input.planPath);
  const asOf = localDay(now, offsetAt);
  const log = studyLog(input.confirmed, {
    asOf,
    now,
    offsetAt,
    minMinutes: read.plan.minMinutes,
    memo: input.memo,
    keep: input.logMemo,
  });
  const open = input.open;
  const thisWeek = open !== null && localDay(open.startedMs, offsetAt) >= mondayOf(asOf);
  return {
    report: goalsReport(read.plan, log),
    year: yearView(read.plan, log),
    openMinutes: thisWeek ? Math.max(0, Math.floor(open.studiedMinutes)) : 0,
    openTopicId: open?.topicId ?? null,
    warnings: read.warnings,
  };
}

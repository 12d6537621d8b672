/**
 * What the study history view shows, as data (contract §5): `historyModel` turns the confirmed sessions and the
 * open session into it; history-view.ts and history-sections.ts draw it. No DOM, no file access.
 */
import type {
  DayTotal,
  FlaggedSession,
  InsightSession,
  SessionStats,
  StatsMemo,
  WeekTotal,
} from "../../core/insight/stats";
import { computeStats, countedMinutes, daySeries, weekSeries } from "../../core/insight/stats";
import type { Skipped } from "../../core/records/records";
import type { OffsetAt } from "../../core/time";
import type { OpenState } from "../session-controller";
import type { StudyLogMemo } from "../../core/goals";
import { studiedMs } from "../../core/honest-time";
import type { GoalsModel } from "./goals-model";
import { goalsModel } from "./goals-model";
import type { NextUpEntry } from "./next-up";
import { NEXT_UP_COUNT } from "./next-up";

const RECENT_COUNT = 10;
const DAY_BARS = 14;
const WEEK_BARS = 12;

export interface RecentSession {
  path: string;
  sessionId: string;
  topicId: string;
  /** "2026-12-01 14:02", the recorded local time. */
  when: string;
  minutes: number;
  flagged: boolean;
}

export interface OpenSessionModel {
  topicId: string;
  startedMs: number;
  /** The timer shows the time studied: breaks excluded, frozen at the pause. */
  pausedMs: number | null;
  breakMinutes: number;
  device: string | null;
  /** Whether this device runs it (only then can it be paused, continued or ended here). */
  endable: boolean;
  interrupted: boolean;
}

export interface HistoryModel {
  stats: SessionStats;
  days: DayTotal[];
  weeks: WeekTotal[];
  recent: RecentSession[];
  /** Notes to look at: skipped files and sessions whose values were clamped or left out. */
  problems: Array<{ path: string; text: string }>;
  open: OpenSessionModel | null;
  showSeconds: boolean;
  /** "This week" and "Year" (version 4); null when the source gives no plan (a script drawing charts only). */
  goals: GoalsModel | null;
  /** "Next up": the queue's first entries (null: not known, e.g. it could not be read). */
  nextUp: NextUpEntry[] | null;
}

export interface HistoryInput {
  /** Newest first, as scans give them. */
  confirmed: readonly InsightSession[];
  skipped: readonly Skipped[];
  now: number;
  offsetAt: OffsetAt;
  open: OpenState | null;
  showSeconds: boolean;
  /** Kept by the view between loads: each session is counted once, not on every refresh (stats.ts). */
  memo?: StatsMemo;
  /** Kept by the view between loads: the study log of "This week" and "Year" (study-log.ts). */
  logMemo?: StudyLogMemo;
  /** plan.md (its text, null when missing): with it, the model has the goals and the year. */
  plan?: { text: string | null; path: string };
  /** The review queue's entries (contract §4c), first first. */
  nextUp?: readonly NextUpEntry[] | null;
}

/** "2026-12-01T14:02:00+01:00" → "2026-12-01 14:02": the learner's wall clock as recorded. */
const recordedWhen = (timestamp: string): string => `${timestamp.slice(0, 10)} ${timestamp.slice(11, 16)}`.trim();

export function historyModel(input: HistoryInput): HistoryModel {
  const { confirmed, now, offsetAt } = input;
  const stats = computeStats(confirmed, { now, offsetAt, memo: input.memo });
  const flaggedIds = new Set(stats.flagged.map((f: FlaggedSession) => f.sessionId));
  const recent = confirmed.slice(0, RECENT_COUNT).map((s) => ({
    path: s.path,
    sessionId: s.sessionId,
    topicId: s.topicId,
    when: recordedWhen(s.startedAt),
    minutes: countedMinutes(s, now, offsetAt).minutes,
    flagged: flaggedIds.has(s.sessionId),
  }));
  return {
    stats,
    days: daySeries(stats, stats.today.date, DAY_BARS),
    weeks: weekSeries(stats, stats.today.date, WEEK_BARS),
    recent,
    problems: [
      ...input.skipped.map((s) => ({ path: s.path, text: s.reason })),
      ...stats.flagged.map((f) => ({ path: f.path, text: f.problem })),
    ],
    open: openSessionModel(input.open),
    showSeconds: input.showSeconds,
    goals: input.plan ? goalsOf(input, input.plan) : null,
    nextUp: input.nextUp ? input.nextUp.slice(0, NEXT_UP_COUNT) : null,
  };
}

function goalsOf(input: HistoryInput, plan: { text: string | null; path: string }): GoalsModel {
  const model = openSessionModel(input.open);
  const open = model && {
    topicId: model.topicId,
    startedMs: model.startedMs,
    studiedMinutes: studiedMs(model, input.now) / 60_000,
  };
  const { confirmed, now, offsetAt } = input;
  const { memo, logMemo } = input;
  return goalsModel({ confirmed, planText: plan.text, planPath: plan.path, now, offsetAt, open, memo, logMemo });
}

/** The open session as the view shows it (from memory: no file access). */
export function openSessionModel(open: OpenState | null): OpenSessionModel | null {
  return open
    ? {
        topicId: open.session.topicId,
        startedMs: open.startedMs,
        pausedMs: open.pausedMs,
        breakMinutes: open.session.breakMinutes,
        device: open.session.device,
        endable: open.mine && open.running,
        interrupted: !open.running,
      }
    : null;
}

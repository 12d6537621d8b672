/**
 * The goal reads and the goal write over the vault (contract §4c, §5 `goal`, `year`): plan.md read with its
 * warnings, the sessions from the scan, the pure rules of core/goals. Reads never write (plan.md included); a
 * write changes only the keys asked for, retried once from a fresh read when plan.md changed underneath it.
 */
import { ConflictError, PaleeError } from "../errors";
import type { DayChain, GoalChange, GoalsReport, Plan, PlanRead, StudyLog, StudyLogMemo, YearView } from "../goals";
import {
  dayChain,
  goalsReport,
  hasTargets,
  topicWeekProgress,
  newPlanText,
  planUpdates,
  readPlan,
  studyLog,
  updatePlanText,
  yearView,
} from "../goals";
import { TOPIC_ID_PATTERN } from "../topics/ids";
import { asOfDay, localDay } from "../time";
import type { Scan } from "../scan";
import type { StatsMemo } from "../insight/stats";
import type { PlanView } from "../review/goal-progress";
import type { SessionContext } from "./context";
import type { Covered } from "../device-memory/older-totals";

/** plan.md's path in a session folder. */
export const planPath = (folder: string): string => `${folder}/plan.md`;

export interface GoalReadOptions {
  /** YYYY-MM-DD; default today. A day after today is refused invalid_date. */
  asOf?: string | null;
  /** A scan the caller already made (stats): not made again. */
  scan?: Scan;
  /** What stats already worked out per session with this context's offsets (study-log.ts). */
  memo?: StatsMemo;
  /** The caller's last study log, taken forward by the notes added since (study-log.ts StudyLogMemo). */
  keep?: StudyLogMemo;
  /** With `scan`: the device's totals of the older notes that scan leaves out (scanWithOlder). */
  older?: Covered | null;
}

/**
 * The scan stats, goal and year read: without the older notes the device's totals fold, and those totals
 * (scan/beside-totals.ts); else the full scan, `older` null.
 */
export async function scanWithOlder(
  ctx: SessionContext,
  beforeFull?: () => void,
): Promise<{ scan: Scan; older: Covered | null }> {
  const beside = ctx.olderTotals ? await ctx.olderTotals.scan(ctx) : null;
  if (beside) return { scan: beside.scan, older: beside.covered };
  beforeFull?.();
  return { scan: await ctx.scan(), older: null };
}

export interface PlanAndLog {
  read: PlanRead;
  log: StudyLog;
  scan: Scan;
  /** plan.md's warnings, then the sessions' (a damaged field), each naming its file. */
  warnings: string[];
}

/** Topic IDs read from session notes that are not of the ID pattern (an original tool's `git_rebase`). */
function legacyTopics(scan: Scan, older: Covered | null = null): Set<string> {
  const found = new Set<string>();
  for (const s of scan.confirmed) if (!TOPIC_ID_PATTERN.test(s.topicId)) found.add(s.topicId);
  for (const topicId of older?.totals.facts.keys() ?? []) if (!TOPIC_ID_PATTERN.test(topicId)) found.add(topicId);
  return found;
}

/** A sync tool's copy of plan.md ("plan 2.md", "plan (conflict 2026-08-14).md", "plan.sync-conflict-….md"). */
const PLAN_COPY = /^plan(?: \d+| ?\(.*\)|\.sync-conflict-.*| conflict.*)\.md$/i;

/** Copies of plan.md left by a sync conflict, each named: only plan.md is read, the copy may hold a change. */
async function planCopies(ctx: SessionContext): Promise<string[]> {
  const names = await ctx.ports.store.list(ctx.layout.folder);
  return names
    .filter((name) => PLAN_COPY.test(name))
    .sort()
    .map((name) => `${ctx.layout.folder}/${name}: a copy of plan.md left by a sync conflict; only plan.md is read`);
}

/** plan.md and the sessions as of a day. Never writes. */
export async function readPlanAndLog(ctx: SessionContext, options: GoalReadOptions): Promise<PlanAndLog> {
  const now = ctx.ports.clock.now();
  const asOf = asOfDay(options.asOf, now, ctx.offsetAt);
  const path = planPath(ctx.layout.folder);
  const text = await ctx.ports.store.read(path);
  const given = options.scan ? { scan: options.scan, older: options.older ?? null } : await scanWithOlder(ctx);
  let { scan, older } = given;
  const read = readPlan(text, path, legacyTopics(scan, older));
  const { minMinutes } = read.plan;
  const { memo, keep } = options;
  const logOptions = { asOf, now, offsetAt: ctx.offsetAt, minMinutes, memo, keep };
  let log = older && ctx.olderTotals ? ctx.olderTotals.studyLog(scan.confirmed, older.totals, logOptions) : null;
  if (!log && older) [scan, older] = [await ctx.scan(), null]; // the totals cannot answer: every note
  log ??= studyLog(scan.confirmed, logOptions);
  return { read, log, scan, warnings: [...read.warnings, ...(await planCopies(ctx))] };
}

export interface GoalsResult {
  report: GoalsReport;
  /** The forgiving day chain to as-of (stats shows it beside the week streak). */
  chain: DayChain;
  warnings: string[];
  skipped: Scan["skipped"];
}

export async function goals(ctx: SessionContext, options: GoalReadOptions = {}): Promise<GoalsResult> {
  const { read, log, scan, warnings } = await readPlanAndLog(ctx, options);
  return { report: goalsReport(read.plan, log), chain: dayChain(read.plan, log), warnings, skipped: scan.skipped };
}

export interface YearResult {
  view: YearView;
  warnings: string[];
  skipped: Scan["skipped"];
}

export async function year(ctx: SessionContext, options: GoalReadOptions = {}): Promise<YearResult> {
  const { read, log, scan, warnings } = await readPlanAndLog(ctx, options);
  return { view: yearView(read.plan, log), warnings, skipped: scan.skipped };
}

/** Refused: plan.md exists but cannot be read, so it is never overwritten (contract §4c). */
export class PlanUnreadableError extends PaleeError {
  constructor(path: string, why: string) {
    super("plan_unreadable", 2, `${path} cannot be read (${why}); fix or remove it first: it was not changed`);
    this.name = "PlanUnreadableError";
  }
}

/** Writes the change into plan.md (creating it when missing), then answers as `goals` does. */
export async function setGoal(
  ctx: SessionContext,
  change: GoalChange,
  options: GoalReadOptions = {},
): Promise<GoalsResult> {
  const path = planPath(ctx.layout.folder);
  const today = localDay(ctx.ports.clock.now(), ctx.offsetAt);
  asOfDay(options.asOf, ctx.ports.clock.now(), ctx.offsetAt); // refused before anything is written
  const scan = await ctx.scan();
  for (let attempt = 1; ; attempt++) {
    const text = await ctx.ports.store.read(path);
    const read = readPlan(text, path, legacyTopics(scan));
    if (!read.writable) throw new PlanUnreadableError(path, read.problem ?? read.state);
    const updates = planUpdates(read.fields, read.plan, change, today);
    const next = text === null ? newPlanText(updates) : updatePlanText(text, updates);
    try {
      await ctx.ports.store.replace(path, text, next);
      break;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      if (attempt >= 2) throw new ConflictError(path, `${path} changed twice while it was being written; try again`);
    }
  }
  return goals(ctx, options);
}

/**
 * The plan's part the review queue and the brief need (contract §4c "Queue"): the topics whose review is off,
 * and each topic goal's week so far. With `topicId` (the brief), the sessions are scanned only when plan.md
 * gives that topic a goal. Never writes; plan.md's warnings come back beside it.
 */
export async function planViewOf(
  ctx: SessionContext,
  options: GoalReadOptions & { topicId?: string },
): Promise<{ plan: PlanView; warnings: string[] }> {
  const path = planPath(ctx.layout.folder);
  const quick = readPlan(await ctx.ports.store.read(path), path);
  const only = options.topicId;
  const legacy = only !== undefined && !TOPIC_ID_PATTERN.test(only);
  const wanted = quick.plan.topics.some((t) => hasTargets(t) && (only === undefined || t.topicId === only));
  if (!wanted && !legacy)
    return { plan: { reviewOff: reviewOff(quick.plan), goals: new Map() }, warnings: quick.warnings };
  const { read, log, warnings } = await readPlanAndLog(ctx, options);
  const goals = new Map(topicWeekProgress(read.plan, log).map((p) => [p.topicId, p]));
  return { plan: { reviewOff: reviewOff(read.plan), goals }, warnings };
}

const reviewOff = (plan: Plan): Set<string> => new Set(plan.topics.filter((t) => !t.review).map((t) => t.topicId));

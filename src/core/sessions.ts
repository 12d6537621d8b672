import type { BriefSession } from "./records/brief";
import { validateAgentId } from "./records/ids";
import type { Layout } from "./records/layout";
import { endAsAgent } from "./operations/agent-end";
import type { CheckpointOptions, CheckpointResult } from "./operations/checkpoint";
import { checkpoint } from "./operations/checkpoint";
import type { SessionContext, SessionsOptions } from "./operations/context";
import { createSessionContext } from "./operations/context";
import type { CountAllAwayResult, CountAwayBackOptions, CountAwayBackResult } from "./operations/away";
import { countAllAway, countAwayBack } from "./operations/away";
import type { AgentEndOptions, EndAnswer, EndResult } from "./operations/end";
import type { ExportOptions, ExportResult, ExportRowWriter } from "./operations/export";
import { exportEachRow, exportSessions } from "./operations/export";
import { end, endOrDiscard } from "./operations/end";
import type { LogOptions, LogResult } from "./operations/log";
import { log } from "./operations/log";
import type { ListResult, RecentList, StatusResult } from "./operations/list";
import { list, status } from "./operations/list";
import type { VaultOpenResult } from "./operations/triage-on-open";
import { triageOnOpen, savedTwice } from "./operations/triage-on-open";
import type { ContinueResult, PauseOptions, PauseResult } from "./operations/pause";
import { continueSession, pause } from "./operations/pause";
import type { ContextOptions, ContextResult, ShowResult } from "./operations/brief";
import { context as briefContext, carriedNextActionOf, latest, sessionDetails, show } from "./operations/brief";
import type { BriefNextAction } from "./records/brief";
import type { NextOptions, NextResult } from "./operations/next";
import { next } from "./operations/next";
import type { HotRead } from "./operations/reading";
import { readDraft, readHot } from "./operations/reading";
import type { RebuildResult } from "./operations/rebuild";
import { rebuild } from "./operations/rebuild";
import type { RecoverAction, RecoverResult } from "./operations/recover";
import { recover } from "./operations/recover";
import type { SaveShown } from "./operations/save-preview";
import { savePreviewOf } from "./operations/save-preview";
import type { AgentStartOptions, StartResult } from "./operations/start";
import { start } from "./operations/start";
import type { GoalReadOptions, GoalsResult, YearResult } from "./operations/goals";
import { goals, scanWithOlder, setGoal, year } from "./operations/goals";
import type { GoalChange } from "./goals";
import type { CorePorts } from "./ports";
import type { ConfirmedSession, Draft, Skipped } from "./records/records";
import type { Scan } from "./scan";
import type { Covered } from "./device-memory/older-totals";

export type { AwayBreak } from "./honest-time";
export type { CountAwayBackOptions, CountAwayBackResult } from "./operations/away";
export type { CheckpointOptions, CheckpointResult, OpenRef } from "./operations/checkpoint";
export type { SessionsOptions } from "./operations/context";
export type { ContextOptions, ContextResult, ShowResult } from "./operations/brief";
export type { AgentEndOptions, DiscardedEnd, EndAnswer, EndOptions, EndResult } from "./operations/end";
export type { ExportOptions, ExportResult, ExportRowWriter } from "./operations/export";
export type { EndTime } from "./honest-time";
export { endTimeOf } from "./honest-time";
export type { ListResult, StatusResult } from "./operations/list";
export type { NextOptions, NextResult } from "./operations/next";
export type { LogOptions, LogResult } from "./operations/log";
export type { OpenSession } from "./operations/open-session";
export type { VaultOpenResult } from "./operations/triage-on-open";
export type { ContinueResult, PauseOptions, PauseResult } from "./operations/pause";
export type { RebuildResult } from "./operations/rebuild";
export type { RecoverAction, RecoverResult } from "./operations/recover";
export type { SaveShown } from "./operations/save-preview";
export type { AgentStartOptions, StartOptions, StartResult } from "./operations/start";
export type { GoalReadOptions, GoalsResult, YearResult } from "./operations/goals";

/**
 * After a start or an end that wrote (and scanned the session folder): temp files of the tool's own pattern
 * older than an hour, left by killed writes, go to the trash as rebuild sends them (contract §2), so they do
 * not wait for a rebuild. Only where the face passes the sweep (the CLI). A sweep that fails changes nothing.
 */
async function withTempSweep<T extends { warnings: string[] }>(ctx: SessionContext, result: T): Promise<T> {
  const swept = ctx.tempFiles ? await ctx.tempFiles(ctx.ports, ctx.layout).catch(() => []) : [];
  return swept.length === 0 ? result : { ...result, warnings: [...result.warnings, ...swept] };
}

/**
 * The session operations, as both faces (CLI, plugin) call them; neither holds session rules. Each operation
 * lives in its own module under operations/; this façade only runs the ones that write one at a time, so a
 * double click cannot end a session twice. Every write goes through the store port: session notes
 * create-only, derived views optimistic (docs/architecture.md).
 */
export class PaleeSessions {
  private readonly context: SessionContext;
  private readonly recentList?: RecentList;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    ports: CorePorts,
    readonly layout: Layout,
    /**
     * recentList: how list answers from a trusted index.md without reading every note (list-recent.ts).
     * Passed in by the CLI; the plugin lists from the metadata cache.
     */
    options: SessionsOptions & { recentList?: RecentList } = {},
  ) {
    this.context = createSessionContext(ports, layout, options);
    this.recentList = options.recentList;
  }

  /** Runs one writing operation at a time. */
  private exclusive<T>(operation: (ctx: SessionContext) => Promise<T>): Promise<T> {
    const run = (): Promise<T> => operation(this.context);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** With `agent`, the session is opened on that agent's behalf (contract §4b); the ID is checked first. */
  start(options: AgentStartOptions = {}): Promise<StartResult> {
    return this.exclusive(async (ctx) => {
      if (options.agent != null) validateAgentId(options.agent);
      const result = await start(ctx, options);
      return result.status === "started" ? withTempSweep(ctx, result) : result;
    });
  }

  checkpoint(options: CheckpointOptions = {}): Promise<CheckpointResult> {
    return this.exclusive((ctx) => checkpoint(ctx, options));
  }

  /** With `agent`, only a session that agent opened is ended (not_this_agent otherwise, nothing written). */
  end(options: AgentEndOptions = {}): Promise<EndResult> {
    return this.exclusive(async (ctx) => {
      const { agent } = options;
      // Without discarding, every answer is a saved session.
      const result = agent == null ? await end(ctx, options) : ((await endAsAgent(ctx, options, agent)) as EndResult);
      return withTempSweep(ctx, result);
    });
  }

  /** As end; an agent's session that recorded nothing is discarded, not saved (contract §5 version 4, agents). */
  endOrDiscard(options: AgentEndOptions = {}): Promise<EndAnswer> {
    return this.exclusive(async (ctx) => {
      const { agent } = options;
      const result = agent == null ? await endOrDiscard(ctx, options) : await endAsAgent(ctx, options, agent, true);
      return withTempSweep(ctx, result);
    });
  }

  /** `--count-away`: the open session's recorded time away counted as study (contract §5 version 4). */
  countAllAway(): Promise<CountAllAwayResult> {
    return this.exclusive((ctx) => countAllAway(ctx));
  }

  /** Records paused_at in the open session's draft (contract §4 honest time). */
  pause(options: PauseOptions = {}): Promise<PauseResult> {
    return this.exclusive((ctx) => pause(ctx, options));
  }

  /** Adds the pause to break_minutes, clears paused_at and checkpoints. */
  continueSession(options: PauseOptions = {}): Promise<ContinueResult> {
    return this.exclusive((ctx) => continueSession(ctx, options));
  }

  /** The learner chose to count a recorded time away after all: its interval leaves breaks. */
  countAwayBack(options: CountAwayBackOptions): Promise<CountAwayBackResult> {
    return this.exclusive((ctx) => countAwayBack(ctx, options));
  }

  /** Records a session that happened without the timer (outcome: logged). */
  log(options: LogOptions): Promise<LogResult> {
    return this.exclusive((ctx) => log(ctx, options));
  }

  recover(draftId: string, action: RecoverAction): Promise<RecoverResult> {
    return this.exclusive((ctx) => recover(ctx, draftId, action));
  }

  /** Start-up recovery (the plugin, when the vault opens). */
  triageOnOpen(): Promise<VaultOpenResult> {
    return this.exclusive((ctx) => triageOnOpen(ctx));
  }

  /** Regenerates hot.md and index.md from the session notes; writes nothing else. */
  rebuild(): Promise<RebuildResult> {
    return this.exclusive((ctx) => rebuild(ctx));
  }

  /** Writes a goal change into plan.md (contract §5 `goal` with a setting option), then reads as goals does. */
  setGoal(change: GoalChange, options: GoalReadOptions = {}): Promise<GoalsResult> {
    return this.exclusive((ctx) => setGoal(ctx, change, options));
  }

  // Reads are not queued: they never write.

  /** This week against the goals, and the week streak (contract §4c); plan.md is read, never written. */
  goals(options: GoalReadOptions = {}): Promise<GoalsResult> {
    return goals(this.context, options);
  }

  /** The year view (contract §4c). */
  year(options: GoalReadOptions = {}): Promise<YearResult> {
    return year(this.context, options);
  }

  list(options: { all?: boolean } = {}): Promise<ListResult> {
    return list(this.context, options, this.recentList);
  }

  /** Sessions saved twice, as warnings naming their notes (after triageOnOpen, once per vault open). */
  savedTwice(): Promise<string[]> {
    return savedTwice(this.context);
  }

  status(): Promise<StatusResult> {
    return status(this.context);
  }

  /** The tutor brief of one topic (contract §4b context). */
  brief(options: ContextOptions = {}): Promise<ContextResult> {
    return briefContext(this.context, options);
  }

  /** One confirmed session or draft, whole; no_such_session for an unknown or malformed ID. */
  show(id: string): Promise<ShowResult> {
    return show(this.context, id);
  }

  /** The newest confirmed session (of the topic), whole; null when there is none. */
  latest(topic?: string | null): Promise<ShowResult | null> {
    return latest(this.context, topic);
  }

  /** The Summary and Next action of each session, read from its note (list --json). */
  sessionDetails(sessions: readonly ConfirmedSession[]): Promise<BriefSession[]> {
    return sessionDetails(this.context, sessions);
  }

  /** What to study next: the review queue as of a day (contract §4c). Never writes. */
  next(options: NextOptions = {}): Promise<NextResult> {
    return next(this.context, options);
  }

  /** The topic's next action carried forward now, or null (none, or marked done). Never writes. */
  carriedNextAction(
    topicId: string,
    probe?: (session: ConfirmedSession) => boolean | undefined,
  ): Promise<BriefNextAction | null> {
    return carriedNextActionOf(this.context, topicId, probe);
  }

  readHot(): Promise<HotRead> {
    return readHot(this.context);
  }

  /** Scans one at a time: they share the scan cache. */
  scan(): Promise<Scan> {
    return this.context.scan();
  }

  /**
   * The scan without the older notes the device's totals fold, and those totals; else the full scan (stats),
   * `beforeFull` called first.
   */
  scanWithOlder(beforeFull?: () => void): Promise<{ scan: Scan; older: Covered | null }> {
    return scanWithOlder(this.context, beforeFull);
  }

  /** The export's rows (oldest first, with summaries) of the sessions within the days asked for. */
  exportRows(options: ExportOptions = {}): Promise<ExportResult> {
    return exportSessions(this.context, options);
  }

  /** The same rows handed to `write` one at a time (the CLI's export, in memory that does not grow). */
  exportEachRow(options: ExportOptions, write: ExportRowWriter): Promise<{ rows: number; skipped: Skipped[] }> {
    return exportEachRow(this.context, options, write);
  }

  /** What Save of the draft would record now, or null (no such draft). Never writes. */
  savePreview(draftId: string): Promise<SaveShown | null> {
    return savePreviewOf(this.context, draftId);
  }

  /** A draft as it is now, or null (missing or unreadable). Never writes. */
  readDraftNow(draftId: string): Promise<Draft | null> {
    return readDraft(this.context, draftId);
  }
}

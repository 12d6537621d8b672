import type { Layout } from "./layout";
import type { CheckpointOptions, CheckpointResult } from "./operations/checkpoint";
import { checkpoint } from "./operations/checkpoint";
import type { SessionContext, SessionsOptions } from "./operations/context";
import { createSessionContext } from "./operations/context";
import type { CountAwayBackOptions, CountAwayBackResult } from "./operations/away";
import { countAwayBack } from "./operations/away";
import type { EndAnswer, EndOptions, EndResult } from "./operations/end";
import type { ExportOptions, ExportResult } from "./operations/export";
import { exportSessions } from "./operations/export";
import { end, endOrDiscard } from "./operations/end";
import type { LogOptions, LogResult } from "./operations/log";
import { log } from "./operations/log";
import type { ListResult, RecentList, StatusResult } from "./operations/list";
import { list, status } from "./operations/list";
import type { VaultOpenResult } from "./operations/triage-on-open";
import { triageOnOpen, savedTwice } from "./operations/triage-on-open";
import type { ContinueResult, PauseOptions, PauseResult } from "./operations/pause";
import { continueSession, pause } from "./operations/pause";
import type { ContextOptions, ContextResult } from "./operations/brief";
import { context as briefContext } from "./operations/brief";
import type { HotRead } from "./operations/reading";
import { readDraft, readHot } from "./operations/reading";
import type { RebuildResult } from "./operations/rebuild";
import { rebuild } from "./operations/rebuild";
import type { RecoverAction, RecoverResult } from "./operations/recover";
import { recover } from "./operations/recover";
import type { StartOptions, StartResult } from "./operations/start";
import { start } from "./operations/start";
import type { CorePorts } from "./ports";
import type { Draft } from "./records";
import type { Scan } from "./scan";

export type { AwayBreak } from "./honest-time";
export type { CountAwayBackOptions, CountAwayBackResult } from "./operations/away";
export type { CheckpointOptions, CheckpointResult, OpenRef } from "./operations/checkpoint";
export type { SessionsOptions } from "./operations/context";
export type { ContextOptions, ContextResult, ShowResult } from "./operations/brief";
export type { AgentEndOptions, DiscardedEnd, EndAnswer, EndOptions, EndResult } from "./operations/end";
export type { ExportOptions, ExportResult } from "./operations/export";
export type { EndTime } from "./honest-time";
export { endTimeOf } from "./honest-time";
export type { ListResult, StatusResult } from "./operations/list";
export type { LogOptions, LogResult } from "./operations/log";
export type { OpenSession } from "./operations/open-session";
export type { VaultOpenResult } from "./operations/triage-on-open";
export type { ContinueResult, PauseOptions, PauseResult } from "./operations/pause";
export type { RebuildResult } from "./operations/rebuild";
export type { RecoverAction, RecoverResult } from "./operations/recover";
export type { AgentStartOptions, StartOptions, StartResult } from "./operations/start";

/**
 * The session operations, as both faces (CLI, plugin) call them; neither holds session rules. Each operation
 * lives in its own module under operations/; this façade only runs the ones that write one at a time, so a
 * double click cannot end a session twice. Every write goes through the store port: session notes
 * create-only, derived views optimistic (docs/architecture.md).
 */
export class PaleeSessions {
  /** For the CLI's subclass (sessions-with-records.ts). */
  protected readonly context: SessionContext;
  private readonly recentList?: RecentList;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    ports: CorePorts,
    readonly layout: Layout,
    /**
     * recentList: how list answers from a trusted index.md without reading every note (list-recent.ts).
     * Passed in by the CLI; main.js, which lists from the metadata cache, does not carry it.
     */
    options: SessionsOptions & { recentList?: RecentList } = {},
  ) {
    this.context = createSessionContext(ports, layout, options);
    this.recentList = options.recentList;
  }

  /** Runs one writing operation at a time (also the CLI's start and end, sessions-with-records.ts). */
  protected exclusive<T>(operation: (ctx: SessionContext) => Promise<T>): Promise<T> {
    const run = (): Promise<T> => operation(this.context);
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  start(options: StartOptions = {}): Promise<StartResult> {
    return this.exclusive((ctx) => start(ctx, options));
  }

  checkpoint(options: CheckpointOptions = {}): Promise<CheckpointResult> {
    return this.exclusive((ctx) => checkpoint(ctx, options));
  }

  end(options: EndOptions = {}): Promise<EndResult> {
    return this.exclusive((ctx) => end(ctx, options));
  }

  /** As end; an agent's session that recorded nothing is discarded, not saved (contract §5 version 4, agents). */
  endOrDiscard(options: EndOptions = {}): Promise<EndAnswer> {
    return this.exclusive((ctx) => endOrDiscard(ctx, options));
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

  // Reads are not queued: they never write.

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

  readHot(): Promise<HotRead> {
    return readHot(this.context);
  }

  /** Scans one at a time: they share the scan cache. */
  scan(): Promise<Scan> {
    return this.context.scan();
  }

  /** The export's rows (oldest first, with summaries) of the sessions within the days asked for. */
  exportRows(options: ExportOptions = {}): Promise<ExportResult> {
    return exportSessions(this.context, options);
  }

  /** A draft as it is now, or null (missing or unreadable). Never writes. */
  readDraftNow(draftId: string): Promise<Draft | null> {
    return readDraft(this.context, draftId);
  }
}

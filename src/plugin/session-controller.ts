import { ConflictError, UsageError } from "../core/errors";
import { layoutFor } from "../core/records/layout";
import type { Clock, RandomSource } from "../core/ports";
import type {
  CheckpointResult,
  EndAnswer,
  LogOptions,
  LogResult,
  EndTime,
  OpenSession,
  RebuildResult,
  RecoverAction,
  RecoverResult,
  StartOptions,
  StartResult,
  VaultOpenResult,
  ContextOptions,
  ContextResult,
  CountAwayBackResult,
  ExportResult,
  NextOptions,
  NextResult,
} from "../core/sessions";
import { PaleeSessions } from "../core/sessions";
import { absorbedBy, checkpointedWithin, isThisDevice } from "../core/recovery";
import type { Layout } from "../core/records/layout";
import type { ConfirmedSession, Draft, Skipped } from "../core/records/records";
import { MINUTE_MS, formatLocalDate, parseTimestamp } from "../core/time";
import type { OffsetAt } from "../core/time";
import type { ObsidianStore } from "./adapters/obsidian-store";
import { TickWatch } from "./tick-watch";
import type { PaleeSettings } from "./settings";

/** What the status bar and the commands need to know about the open session, without any file access. */
export interface OpenState {
  session: OpenSession;
  /** started_at as an instant: the timer is now − this, on every tick (wall clock, never counted ticks). */
  startedMs: number;
  lastCheckpointMs: number | null;
  /** paused_at as an instant while paused (the timer is frozen there), else null. */
  pausedMs: number | null;
  /** Whether this device runs it (automatic checkpoints and ending happen only here). */
  mine: boolean;
  /**
   * Whether it is running: on this device, started, resumed or continued by this app since it opened; on
   * another device, checkpointed within the grace period. An open session that is not running was
   * interrupted (the app closed or crashed): it is for the learner to recover, never checkpointed or ended
   * behind their back.
   */
  running: boolean;
}

/** What ending records: `endAt` is when the session ended (the plugin always says when). */
export interface EndRequest {
  summary: string | null;
  nextAction: string | null;
  endAt: EndTime;
  recall?: string | null; // the recall step (contract §4c), all optional
  rating?: number | null;
  done?: boolean;
}

export interface ControllerDeps {
  store: ObsidianStore;
  clock: Clock;
  random: RandomSource;
  settings: () => PaleeSettings;
  device: () => string;
}

/**
 * The plugin's hold on the core: one PaleeSessions for the current settings, the open session as last
 * read (for the status bar and checkCallbacks), and the automatic checkpoint rule. No modals, no notices:
 * errors propagate to the flows, which turn them into notices.
 */
export class SessionController {
  private sessions: PaleeSessions;
  private state: OpenState | null = null;
  /** Drafts of the sessions this app instance started, resumed or continued (see OpenState.running). */
  private readonly live = new Set<string>();
  private queue: Promise<unknown> = Promise.resolve();
  private refreshPending = false;
  private readonly listeners = new Set<() => void>();
  private grace = 0;
  /** This app's timer ticks, its own signs of life (time away is a gap between two of them). */
  readonly ticks = new TickWatch(() => this.grace);

  constructor(private readonly deps: ControllerDeps) {
    this.sessions = this.build();
  }

  get layout(): Layout {
    return this.sessions.layout;
  }

  /** The open session; for another device's, whether it still runs is judged now (it can go quiet). */
  get open(): OpenState | null {
    const state = this.state;
    if (!state || state.mine) return state;
    const running = state.lastCheckpointMs === null || this.recent(state.lastCheckpointMs);
    return running === state.running ? state : { ...state, running };
  }

  /** The recovery grace period in ms, computed once per configuration (see build). */
  get graceMs(): number {
    return this.grace;
  }

  get device(): string {
    return this.deps.device();
  }

  now(): number {
    return this.deps.clock.now();
  }

  /** The local UTC offset in minutes at an instant (for the honest-time rules and their texts). */
  readonly offsetAt: OffsetAt = (instant) => this.deps.clock.offsetMinutes(instant);

  /** Today as the learner's local calendar day (YYYY-MM-DD). */
  today(): string {
    const now = this.deps.clock.now();
    return formatLocalDate(now, this.deps.clock.offsetMinutes(now));
  }

  get random(): RandomSource {
    return this.deps.random;
  }

  /** Called after settings change: a new folder, grace period or device name takes effect for the next operation. */
  reconfigure(): void {
    this.sessions = this.build();
  }

  private build(): PaleeSessions {
    const settings = this.deps.settings();
    this.grace = settings.graceMinutes * MINUTE_MS;
    return new PaleeSessions(
      { store: this.deps.store, clock: this.deps.clock, random: this.deps.random, device: this.deps.device() },
      layoutFor(settings.sessionFolder),
      { graceMs: this.grace },
    );
  }

  /**
   * Every core call from the plugin runs one at a time, also across a reconfigure (which builds a new core
   * with its own queue) and including the reads that set the UI's state, so an older read never lands last.
   */
  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation, operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private recent(lastCheckpointMs: number | null): boolean {
    return checkpointedWithin(lastCheckpointMs, this.now(), this.grace);
  }

  private setOpen(session: OpenSession | null): void {
    const offsetAt = this.offsetAt;
    const startedMs = session ? parseTimestamp(session.startedAt, offsetAt) : null;
    if (session && startedMs !== null) {
      const lastCheckpointMs = parseTimestamp(session.lastCheckpointAt, offsetAt);
      const mine = isThisDevice(session.device, this.deps.device());
      // This device's session checkpointed within the grace period runs (as on vault open: e.g. started by
      // the CLI under this device's name); an older one was interrupted and waits for the learner.
      if (mine && this.recent(lastCheckpointMs)) this.live.add(session.draftId);
      // Another device's session whose draft has not synced here yet (no checkpoint known) is taken as
      // running there: it is reported, never offered for recovery on a guess.
      const running = mine
        ? this.live.has(session.draftId)
        : lastCheckpointMs === null || this.recent(lastCheckpointMs);
      const pausedMs = session.pausedAt ? parseTimestamp(session.pausedAt, offsetAt) : null;
      this.state = { session, startedMs, lastCheckpointMs, pausedMs, mine, running };
    } else {
      this.state = null;
    }
    for (const listener of this.listeners) listener();
  }

  /** Re-reads the open session (hot.md and its draft). */
  refresh(): Promise<OpenState | null> {
    return this.exclusive(() => this.refreshNow());
  }

  private async refreshNow(): Promise<OpenState | null> {
    const { open, hotState } = await this.sessions.status();
    const current = this.state;
    if (!open && hotState !== "ok" && current?.mine && this.live.has(current.session.draftId)) {
      // hot.md was damaged or removed under a session this app runs: while its draft is there, the session
      // keeps running (the next checkpoint finds the draft and repairs the pointer when it can), with its
      // last checkpoint as the draft records it; once the draft is gone (ended elsewhere), it is over.
      const path = `${this.layout.sessions}/${current.session.draftId}.md`;
      if ((await this.deps.store.read(path)) !== null) {
        const draft = await this.sessions.readDraftNow(current.session.draftId);
        // An unreadable draft (its properties being edited) keeps the state as it was.
        if (draft) this.setOpen({ ...current.session, lastCheckpointAt: draft.lastCheckpointAt });
        return this.state;
      }
    }
    this.setOpen(open);
    return this.state;
  }

  /**
   * Asked by vault events (sync, the user, another window): refreshes once, however many events arrive
   * while a refresh is pending.
   */
  requestRefresh(): void {
    if (this.refreshPending) return;
    this.refreshPending = true;
    void this.exclusive(async () => {
      this.refreshPending = false;
      await this.refreshNow();
    }).catch(() => undefined);
  }

  start(options: StartOptions): Promise<StartResult> {
    return this.exclusive(async () => {
      const result = await this.sessions.start(options);
      if (result.status === "started") {
        this.live.add(result.draftId);
        await this.refreshNow();
      } else if (result.status === "already_open" || result.status === "kept") this.setOpen(result.open);
      return result;
    });
  }

  /** Runs an operation on the open session the UI shows, then re-reads it (also after a failure). */
  private onOpen<T>(operation: (open: OpenState) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const open = this.state;
      if (!open) throw new UsageError("no session is open", "nothing_open");
      try {
        return await operation(open);
      } finally {
        await this.refreshNow();
      }
    });
  }

  /**
   * Every checkpoint tells the core this app's last tick before any gap (`aliveAt`, read when it runs): the
   * core records a gap since the later of it and the draft's last sign beyond the grace period as a break.
   */
  checkpoint(notes: string | null = null): Promise<CheckpointResult> {
    return this.onOpen(async ({ session: { draftId, topicId, lastSignMs } }) => {
      // Before its first tick this app vouches for nothing, but it is watching: the grace period applies.
      const aliveAt = this.ticks.aliveAt() ?? lastSignMs;
      const result = await this.sessions.checkpoint({ open: { draftId, topicId }, aliveAt, notes });
      this.ticks.settled();
      return result;
    });
  }

  pause(): Promise<{ draftId: string; pausedAt: string }> {
    return this.onOpen(() => this.sessions.pause());
  }
  continueSession(): Promise<{ draftId: string; breakMinutes: number }> {
    return this.onOpen(() => this.sessions.continueSession());
  }

  /** Counts a recorded time away as study time after all (the learner's explicit choice). */
  countAwayBack(draftId: string, away: { fromMs: number; toMs: number }): Promise<CountAwayBackResult> {
    return this.onOpen(() => this.sessions.countAwayBack({ draftId, fromMs: away.fromMs, toMs: away.toMs }));
  }

  log(options: LogOptions): Promise<LogResult> {
    return this.exclusive(() => this.sessions.log(options));
  }

  /** Whether an automatic checkpoint is due: this device's running session, last checkpoint older than the interval. */
  checkpointDue(now: number): boolean {
    const minutes = this.deps.settings().checkpointMinutes;
    const open = this.state;
    // Never while paused: a checkpoint would not change what is recorded, only write.
    if (!open || !open.mine || !open.running || open.pausedMs !== null || minutes <= 0) return false;
    const last = open.lastCheckpointMs ?? open.startedMs;
    return now - last >= minutes * MINUTE_MS || now < last - MINUTE_MS;
  }

  /**
   * Ends `session` (the one the end modal showed; default: the open one). If it was ended meanwhile, e.g.
   * on another device while the modal was open, the core reports it as already saved.
   */
  end(input: EndRequest, session?: OpenSession): Promise<EndAnswer> {
    return this.exclusive(async () => {
      const open = session ? { session } : this.state;
      if (!open) throw new UsageError("no session is open", "nothing_open");
      try {
        const { draftId, topicId } = open.session;
        return await this.sessions.endOrDiscard({ open: { draftId, topicId }, ...input });
      } catch (error) {
        if (error instanceof ConflictError && error.savedSession) {
          // Saved, but a view changed underneath: the session is over. Reconcile closes its pointer.
          this.live.delete(open.session.draftId);
          await this.sessions.triageOnOpen().catch(() => undefined);
        }
        throw error;
      } finally {
        await this.refreshNow();
      }
    });
  }

  recover(draftId: string, action: RecoverAction): Promise<RecoverResult> {
    return this.exclusive(async () => {
      try {
        const result = await this.sessions.recover(draftId, action);
        if (result.status === "resumed") this.live.add(draftId);
        return result;
      } finally {
        await this.refreshNow();
      }
    });
  }

  rebuild(): Promise<RebuildResult> {
    return this.exclusive(() => this.sessions.rebuild());
  }

  /** A draft as it is now (null when gone or unreadable); never writes. */
  draft(draftId: string): Promise<Draft | null> {
    return this.exclusive(() => this.sessions.readDraftNow(draftId));
  }

  /**
   * The start-up sorting (also behind the recover command): a recent session of this device continues, and
   * the drafts to offer for recovery leave out the sessions this app is running.
   */
  triageOnOpen(): Promise<VaultOpenResult> {
    return this.exclusive(async () => {
      const result = await this.sessions.triageOnOpen();
      if (result.resumed) this.live.add(result.resumed.draftId);
      await this.refreshNow();
      return { ...result, pending: result.pending.filter((d) => !this.live.has(d.draftId)) };
    });
  }

  /** Sessions saved twice, from every note (core savedTwice): once per vault open, after the start-up check. */
  savedTwice(): Promise<string[]> {
    return this.sessions.savedTwice();
  }

  private async everyConfirmed(): Promise<ConfirmedSession[]> {
    return (await this.sessions.list({ all: true })).confirmed;
  }

  /** Topic IDs of past sessions, most recent first (from the metadata cache where it can). */
  async pastTopics(): Promise<string[]> {
    return [...new Set((await this.everyConfirmed()).map((s) => s.topicId))];
  }

  /** Draft ID → the confirmed session that absorbed it (already saved). */
  async absorbedDrafts(): Promise<Map<string, string>> {
    return new Map(
      [...absorbedBy(await this.everyConfirmed(), this.offsetAt)].map(([draftId, session]) => [
        draftId,
        session.sessionId,
      ]),
    );
  }

  /**
   * Every confirmed session (newest first) and the skipped files, for the history view and export. Through
   * the scan cache: the metadata cache serves notes it knows, and only changed notes are looked at again.
   */
  async confirmedSessions(): Promise<{ confirmed: readonly ConfirmedSession[]; skipped: readonly Skipped[] }> {
    const { confirmed, skipped } = await this.sessions.scan();
    return { confirmed, skipped };
  }

  /** Every confirmed session as an export row (oldest first, with its summary), and the skipped files. */
  exportRows(): Promise<ExportResult> {
    return this.sessions.exportRows();
  }

  /** The tutor brief of `topic` (default: the active topic, else the newest session's), at the default length. */
  brief(topic: string | null = null, hasHeading?: ContextOptions["hasHeading"]): Promise<ContextResult> {
    return this.exclusive(() => this.sessions.brief(topic === null ? { hasHeading } : { topic, hasHeading }));
  }

  next(options: NextOptions = {}): Promise<NextResult> {
    return this.exclusive(() => this.sessions.next(options));
  }

  carriedNextAction(topicId: string, probe?: (s: { path: string }) => boolean | undefined) {
    return this.exclusive(() => this.sessions.carriedNextAction(topicId, probe));
  }

  /** hot.md's text, or null when there is none yet. */
  readHot(): Promise<string | null> {
    return this.deps.store.read(this.layout.hot);
  }
}

import { UsageError } from "../core/errors";
import { layoutFor } from "../core/layout";
import type { Clock, RandomSource } from "../core/ports";
import type {
  CheckpointResult,
  EndResult,
  OpenSession,
  RebuildResult,
  RecoverAction,
  RecoverResult,
  StartOptions,
  StartResult,
  VaultOpenResult,
} from "../core/sessions";
import { PaleeSessions } from "../core/sessions";
import { absorbedBy } from "../core/recovery";
import type { Layout } from "../core/layout";
import { MINUTE_MS, formatLocalDate, parseTimestamp } from "../core/time";
import type { ObsidianStore } from "./obsidian-store";
import type { PaleeSettings } from "./settings";

/** What the status bar and the commands need to know about the open session, without any file access. */
export interface OpenState {
  session: OpenSession;
  /** started_at as an instant: the timer is now − this, on every tick (wall clock, never counted ticks). */
  startedMs: number;
  lastCheckpointMs: number | null;
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
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: ControllerDeps) {
    this.sessions = this.build();
  }

  get layout(): Layout {
    return this.sessions.layout;
  }

  get open(): OpenState | null {
    return this.state;
  }

  get device(): string {
    return this.deps.device();
  }

  now(): number {
    return this.deps.clock.now();
  }

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
    return new PaleeSessions(
      { store: this.deps.store, clock: this.deps.clock, random: this.deps.random, device: this.deps.device() },
      layoutFor(settings.sessionFolder),
      { graceMs: settings.graceMinutes * MINUTE_MS },
    );
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setOpen(session: OpenSession | null): void {
    const offsetAt = (at: number): number => this.deps.clock.offsetMinutes(at);
    const startedMs = session ? parseTimestamp(session.startedAt, offsetAt) : null;
    if (session && startedMs !== null) {
      const lastCheckpointMs = parseTimestamp(session.lastCheckpointAt, offsetAt);
      const mine = session.device === null || session.device === this.deps.device();
      const graceMs = this.deps.settings().graceMinutes * MINUTE_MS;
      const running = mine
        ? this.live.has(session.draftId)
        : lastCheckpointMs !== null && Math.abs(this.now() - lastCheckpointMs) <= graceMs;
      this.state = { session, startedMs, lastCheckpointMs, mine, running };
    } else {
      this.state = null;
    }
    for (const listener of this.listeners) listener();
  }

  /** Re-reads the open session (hot.md and its draft). */
  async refresh(): Promise<OpenState | null> {
    const { open } = await this.sessions.status();
    this.setOpen(open);
    return this.state;
  }

  async openVault(): Promise<VaultOpenResult> {
    const result = await this.sessions.openVault();
    if (result.resumed) this.live.add(result.resumed.draftId);
    await this.refresh();
    return result;
  }

  async start(options: StartOptions): Promise<StartResult> {
    const result = await this.sessions.start(options);
    if (result.status === "started") {
      this.live.add(result.draftId);
      await this.refresh();
    }
    else if (result.status === "already_open" || result.status === "kept") this.setOpen(result.open);
    return result;
  }

  async checkpoint(): Promise<CheckpointResult> {
    const open = this.state;
    if (!open) throw new UsageError("no session is open", "no_open_session");
    try {
      return await this.sessions.checkpoint({ open: { draftId: open.session.draftId, topicId: open.session.topicId } });
    } finally {
      await this.refresh();
    }
  }

  /** Whether an automatic checkpoint is due: this device's session, last checkpoint older than the interval. */
  checkpointDue(now: number): boolean {
    const minutes = this.deps.settings().checkpointMinutes;
    const open = this.state;
    if (!open || !open.mine || !open.running || minutes <= 0) return false;
    const last = open.lastCheckpointMs ?? open.startedMs;
    return now - last >= minutes * MINUTE_MS || now < last - MINUTE_MS;
  }

  async end(summary: string | null, nextAction: string | null): Promise<EndResult> {
    const open = this.state;
    if (!open) throw new UsageError("no session is open", "no_open_session");
    try {
      return await this.sessions.end({ open: { draftId: open.session.draftId, topicId: open.session.topicId }, summary, nextAction });
    } finally {
      await this.refresh();
    }
  }

  async recover(draftId: string, action: RecoverAction): Promise<RecoverResult> {
    try {
      const result = await this.sessions.recover(draftId, action);
      if (result.status === "resumed") this.live.add(draftId);
      return result;
    } finally {
      await this.refresh();
    }
  }

  async rebuild(): Promise<RebuildResult> {
    return this.sessions.rebuild();
  }

  /** Drafts to offer for recovery: the start-up sorting, without the sessions this app is running. */
  async pendingDrafts(): Promise<VaultOpenResult> {
    const result = await this.sessions.openVault();
    return { ...result, pending: result.pending.filter((d) => !this.live.has(d.draftId)) };
  }

  /** Topic IDs of past sessions, most recent first (from the metadata cache where it can). */
  async pastTopics(): Promise<string[]> {
    const { confirmed } = await this.sessions.list({ all: true });
    return [...new Set(confirmed.map((s) => s.topicId))];
  }

  /** Draft ID → the confirmed session that absorbed it (already saved). */
  async absorbedDrafts(): Promise<Map<string, string>> {
    const { confirmed } = await this.sessions.list({ all: true });
    return new Map([...absorbedBy(confirmed)].map(([draftId, session]) => [draftId, session.sessionId]));
  }

  /** hot.md's text, or null when there is none yet. */
  readWorkingMemory(): Promise<string | null> {
    return this.deps.store.read(this.layout.hot);
  }
}

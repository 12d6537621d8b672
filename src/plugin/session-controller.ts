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
    this.state =
      session && startedMs !== null
        ? {
            session,
            startedMs,
            lastCheckpointMs: parseTimestamp(session.lastCheckpointAt, offsetAt),
            mine: session.device === null || session.device === this.deps.device(),
          }
        : null;
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
    this.setOpen(result.resumed ?? result.openElsewhere);
    return result;
  }

  async start(options: StartOptions): Promise<StartResult> {
    const result = await this.sessions.start(options);
    if (result.status === "started") await this.refresh();
    else if (result.status === "already_open" || result.status === "kept") this.setOpen(result.open);
    return result;
  }

  async checkpoint(): Promise<CheckpointResult> {
    try {
      return await this.sessions.checkpoint({ topic: this.state?.session.topicId ?? null });
    } finally {
      await this.refresh();
    }
  }

  /** Whether an automatic checkpoint is due: this device's session, last checkpoint older than the interval. */
  checkpointDue(now: number): boolean {
    const minutes = this.deps.settings().checkpointMinutes;
    const open = this.state;
    if (!open || !open.mine || minutes <= 0) return false;
    const last = open.lastCheckpointMs ?? open.startedMs;
    return now - last >= minutes * MINUTE_MS || now < last - MINUTE_MS;
  }

  async end(summary: string | null, nextAction: string | null): Promise<EndResult> {
    try {
      return await this.sessions.end({ topic: this.state?.session.topicId ?? null, summary, nextAction });
    } finally {
      await this.refresh();
    }
  }

  async recover(draftId: string, action: RecoverAction): Promise<RecoverResult> {
    try {
      return await this.sessions.recover(draftId, action);
    } finally {
      await this.refresh();
    }
  }

  async rebuild(): Promise<RebuildResult> {
    return this.sessions.rebuild();
  }

  async pendingDrafts(): Promise<VaultOpenResult> {
    return this.sessions.openVault();
  }

  /** Topic IDs of past sessions, most recent first (from the metadata cache where it can). */
  async pastTopics(): Promise<string[]> {
    const { confirmed } = await this.sessions.list({ all: true });
    return [...new Set(confirmed.map((s) => s.topicId))];
  }

  /** hot.md's text, or null when there is none yet. */
  readWorkingMemory(): Promise<string | null> {
    return this.deps.store.read(this.layout.hot);
  }
}

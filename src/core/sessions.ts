import { ConflictError, FileExistsError, UsageError } from "./errors";
import type { ReadResult } from "./frontmatter";
import { classifyRecord, updateFrontmatterFields } from "./frontmatter";
import type { HotState } from "./hot-memory";
import { EMPTY_HOT, hotStateOf, isOpen, renderHot, renderHotFrontmatter } from "./hot-memory";
import { CONFIRMED_FILE_PATTERN, DRAFT_ID_PATTERN, newDraftId, newSessionId, normalizeTopic, validateNewTopicId } from "./ids";
import type { Layout } from "./layout";
import { assertRemovable, sessionPath } from "./layout";
import type { CorePorts } from "./ports";
import type { ConfirmedSession, Draft, Skipped } from "./records";
import { compareDraftsOldestFirst, compareNewestFirst, interpretConfirmed, interpretDraft } from "./records";
import type { ReconcilePlan } from "./recovery";
import {
  DEFAULT_GRACE_MS,
  absorbedBy,
  checkpointedWithin,
  duplicateSaves,
  isAliveElsewhere,
  pendingDrafts,
  copiesOf,
  saveGroup,
  planReconcile,
  savePlanOf,
} from "./recovery";
import type { Scan } from "./scan";
import { ScanCache, readConfirmed, scanSessions, withBody } from "./scan";
import type { ConfirmedNoteInput } from "./session-note";
import { appendNotes, renderConfirmedNote, renderDraft, unrecordedWarning } from "./session-note";
import { renderIndex, renderIndexLine } from "./session-index";
import { endStart, inheritedStart } from "./start-time";
import {
  MINUTE_MS,
  durationMinutes,
  formatLocalDate,
  formatTimestamp,
  formatUtcCompact,
  isCanonicalTimestamp,
  parseTimestamp,
} from "./time";

/** The open session as reported by start, status and the faces (SPEC §5 "O"). */
/** How far behind a draft's start a clock may have been when a note absorbing that draft was dated. */
const CLOCK_BEHIND_MS = 24 * 60 * MINUTE_MS;

export interface OpenSession {
  topicId: string;
  startedAt: string;
  device: string | null;
  draftId: string;
  elapsedSeconds: number;
  lastCheckpointAt: string | null;
}

export type StartResult =
  | {
      status: "started";
      topicId: string;
      startedAt: string;
      draftId: string;
      lastSession: string | null;
      workingMemory: string;
      warnings: string[];
    }
  | { status: "drafts_pending"; drafts: Draft[] }
  | { status: "already_open"; open: OpenSession }
  | { status: "kept"; open: OpenSession };

export interface StartOptions {
  /** An explicit topic (picker choice, --topic): validated as new input. */
  topic?: string | null;
  /** The active note's palee_id (plugin only). */
  activeNoteTopic?: string | null;
  /** What to do when a session is already open (default refuse). */
  ifOpen?: "refuse" | "keep";
  /** Drafts the user chose to ignore for this start (interactive recovery). */
  ignoreDrafts?: ReadonlySet<string>;
  /** Start even though other drafts are pending, leaving them as they are (CLI --ignore-pending). */
  ignorePending?: boolean;
  /** Optional wikilink to the topic note, recorded in the draft and later in the confirmed note. */
  topicNote?: string | null;
}

export interface CheckpointOptions {
  topic?: string | null;
  notes?: string | null;
  /**
   * Only checkpoint this open session (the plugin's checkpoints): when hot.md no longer points at it (ended,
   * discarded, replaced), the checkpoint is refused instead of opening a new session. When hot.md is damaged
   * or missing, the session's draft is found as without it.
   */
  open?: OpenRef;
}

/** The open session as a face last saw it. */
export interface OpenRef {
  draftId: string;
  topicId: string;
}

export interface CheckpointResult {
  created: boolean;
  /** True when this checkpoint opened the session (no session was open): hot.md now names its draft. */
  opened: boolean;
  draft: Draft;
  warnings: string[];
}

export interface EndOptions {
  topic?: string | null;
  /**
   * The open session the caller means (the plugin: the session its timer shows). If hot.md no longer points
   * at it, nothing new is recorded: it was already saved (reported), or it is no longer open (refused). Its
   * topic is used when hot.md cannot tell (damaged), never as an explicit topic.
   */
  open?: OpenRef;
  summary?: string | null;
  nextAction?: string | null;
}

export interface EndResult {
  session: ConfirmedSession;
  absorbedDrafts: string[];
  /** True when this end had already been completed (a retry after a crash or a conflict): nothing new was written. */
  alreadySaved: boolean;
  warnings: string[];
}

export type RecoverAction = "resume" | "save" | "discard" | "ignore";

export type RecoverResult = (
  | { status: "resumed"; draftId: string; open: OpenSession }
  | { status: "saved"; draftId: string; session: ConfirmedSession; alreadySaved: boolean }
  | { status: "discarded"; draftId: string; alreadySavedIn?: string }
  | { status: "ignored"; draftId: string; alreadySavedIn?: string }
) & { warnings: string[] };

export interface ListResult {
  /** The open session's draft, as hot.md names it (null when none is open). */
  openDraftId: string | null;
  confirmed: ConfirmedSession[];
  drafts: Draft[];
  totalConfirmed: number;
  totalDrafts: number;
  skipped: Skipped[];
}

export interface RebuildResult {
  totalConfirmed: number;
  skipped: Skipped[];
  /** Problems in the history that the rebuild does not fix (e.g. a session saved twice). */
  warnings: string[];
}

/** What the plugin does when the vault opens (SPEC §5): continue, report, or offer recovery. */
export interface VaultOpenResult {
  /** This device's open session, checkpointed within the grace period: it simply continues. */
  resumed: OpenSession | null;
  /** A session open on another device that is alive there: reported, never taken over. */
  openElsewhere: OpenSession | null;
  /** Drafts for the recovery modal (interrupted sessions, drafts of other devices, orphans), oldest first. */
  pending: Draft[];
  warnings: string[];
}

export interface SessionsOptions {
  /** Grace period for "alive elsewhere" (SPEC §4 Devices); default 15 minutes. */
  graceMs?: number;
}

interface HotRead {
  text: string | null;
  read: ReadResult;
  state: HotState;
}

/** How many times a colliding random ID is drawn again before giving up (2^16 / 2^32 spaces). */
const ID_ATTEMPTS = 20;

/**
 * The operations of SPEC §4. Both faces (CLI, plugin) call these; neither holds session rules.
 * Every write goes through the store port: session notes create-only, derived views optimistic.
 */
export class PaleeSessions {
  private readonly graceMs: number;
  private readonly scanCache = new ScanCache();
  private scanQueue: Promise<unknown> = Promise.resolve();
  /** Index lines by session record: records from the scan memo are the same objects from scan to scan. */
  private readonly indexLines = new WeakMap<ConfirmedSession, string>();
  private readonly indexLine = (session: ConfirmedSession): string => {
    let line = this.indexLines.get(session);
    if (line === undefined) this.indexLines.set(session, (line = renderIndexLine(session)));
    return line;
  };
  /** Operations that write run one at a time per instance (a double click must not end a session twice). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ports: CorePorts,
    readonly layout: Layout,
    options: SessionsOptions = {},
  ) {
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  }

  private exclusive<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation, operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  // ---- reading -------------------------------------------------------------------------------------

  private readonly offsetAt = (at: number): number => this.ports.clock.offsetMinutes(at);

  /** absorbedBy, once per list of confirmed sessions (scans hand out the same list while nothing changed). */
  private readonly absorbedMemo = new WeakMap<readonly ConfirmedSession[], Map<string, ConfirmedSession>>();
  private absorbedIn(confirmed: readonly ConfirmedSession[]): Map<string, ConfirmedSession> {
    let map = this.absorbedMemo.get(confirmed);
    if (!map) this.absorbedMemo.set(confirmed, (map = absorbedBy(confirmed)));
    return map;
  }

  private stamp(at: number): string {
    return formatTimestamp(at, this.ports.clock.offsetMinutes(at));
  }

  private today(): string {
    const now = this.ports.clock.now();
    return formatLocalDate(now, this.ports.clock.offsetMinutes(now));
  }

  async readHot(): Promise<HotRead> {
    const text = await this.ports.store.read(this.layout.hot);
    const read = classifyRecord(text);
    return { text, read, state: hotStateOf(read) };
  }

  /** Scans one at a time: they share the scan cache (read-only operations are not queued otherwise). */
  scan(): Promise<Scan> {
    const result = this.scanQueue.then(() => scanSessions(this.ports.store, this.layout, this.offsetAt, this.scanCache));
    this.scanQueue = result.catch(() => undefined);
    return result;
  }

  /** A draft as it is now, or null (missing or unreadable). Never writes. */
  readDraftNow(draftId: string): Promise<Draft | null> {
    return this.readDraft(draftId);
  }

  private async readDraft(draftId: string): Promise<Draft | null> {
    const path = sessionPath(this.layout, `${draftId}.md`);
    return this.draftFromText(path, await this.ports.store.read(path));
  }

  /** A draft from text this operation wrote: never read back (an app's cache may lag behind the write). */
  private draftFromText(path: string, text: string | null): Draft | null {
    const result = interpretDraft(path, classifyRecord(text), this.offsetAt);
    return "record" in result ? result.record : null;
  }

  private openSessionOf(hot: HotState, draft: Draft | null): OpenSession | null {
    if (!isOpen(hot)) return null;
    const startedMs = parseTimestamp(hot.startedAt, this.offsetAt);
    const now = this.ports.clock.now();
    return {
      topicId: hot.activeTopic ?? draft?.topicId ?? "(unknown)",
      startedAt: hot.startedAt,
      // The draft names the device that last checkpointed it (hot.md may not have synced yet).
      device: draft?.device ?? hot.device,
      draftId: hot.openDraft,
      elapsedSeconds: startedMs === null ? 0 : Math.max(0, Math.floor((now - startedMs) / 1000)),
      lastCheckpointAt: draft?.lastCheckpointAt ?? null,
    };
  }

  // ---- writing ----------------------------------------------------------------------------------

  /**
   * Optimistic write of a derived view: computes from a fresh read, writes only if the file still holds
   * what was read, retries once from a fresh read, then reports the conflict (SPEC §4 Concurrent changes).
   */
  private async writeView(
    path: string,
    compute: (text: string | null) => string | null,
    /** Before the retry: re-read what `compute` derives the view from (another writer may have changed it too). */
    refresh?: () => Promise<void>,
  ): Promise<string | null> {
    for (let attempt = 1; ; attempt++) {
      const text = await this.ports.store.read(path);
      const next = compute(text);
      if (next === null || next === text) return text;
      try {
        await this.ports.store.replace(path, text, next);
        return next;
      } catch (error) {
        if (!(error instanceof ConflictError) || attempt >= 2) throw error;
        await refresh?.();
      }
    }
  }

  /** Creates a new file under a fresh random ID; a collision draws again, never overwrites. */
  private async createUnique(makeId: () => string, render: (id: string) => string): Promise<string> {
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const id = makeId();
      try {
        await this.ports.store.create(sessionPath(this.layout, `${id}.md`), render(id));
        return id;
      } catch (error) {
        if (!(error instanceof FileExistsError)) throw error;
      }
    }
    throw new ConflictError(this.layout.sessions, `could not find a free session ID in ${this.layout.sessions}`);
  }

  private async trashDraft(draft: Draft): Promise<void> {
    assertRemovable(this.layout, draft.path);
    try {
      await this.ports.store.trash(draft.path);
    } catch (error) {
      // Already gone: another device or window trashed it meanwhile (its reconcile, once this session's note
      // reached it). What this step is for has happened; anything else is a real failure.
      if ((await this.ports.store.read(draft.path)) !== null) throw error;
    }
  }

  /**
   * Rewrites index.md, then hot.md, from a scan. hot.md comes last: clearing the open-session pointer is the
   * final write, so a crash or conflict before it leaves the evidence a retry needs. `pointer` decides the
   * open-session fields from the current hot state (read fresh at write time); the body always comes from the
   * newest confirmed session. A hot.md of another palee_schema is rewritten only by an explicit rebuild
   * (SPEC §2); otherwise it is left alone and reported.
   */
  private async writeViews(
    confirmed: readonly ConfirmedSession[],
    pointer: (current: HotState) => HotState,
    options: { replaceForeign?: boolean } = {},
  ): Promise<string[]> {
    let sessions = confirmed;
    let newest = sessions[0] ? await withBody(this.ports.store, sessions[0], this.offsetAt) : null;
    // After a conflict (another device's end or rebuild, synced meanwhile) the retry derives the view from the
    // session notes as they are now, so a session the other writer added is not dropped from it again.
    const refresh = async (): Promise<void> => {
      const fresh = (await this.scan()).confirmed;
      const known = new Set(fresh.map((s) => s.path));
      sessions = confirmed.filter((s) => !known.has(s.path)).reduce<readonly ConfirmedSession[]>((list, s) => withSession(list, s), fresh);
      newest = sessions[0] ? await withBody(this.ports.store, sessions[0], this.offsetAt) : null;
    };
    const today = this.today();
    const warnings: string[] = [];
    await this.writeView(this.layout.index, () => renderIndex(sessions, today, this.indexLine), refresh);
    await this.writeView(
      this.layout.hot,
      (text) => {
        const read = classifyRecord(text);
        if (read.state === "schema-invalid" && !options.replaceForeign) {
          warnings.push(`${this.layout.hot} has an unsupported palee_schema; left it alone (a rebuild replaces it)`);
          return null;
        }
        return renderHot({ ...pointer(hotStateOf(read)), lastSession: newest?.sessionId ?? null }, newest, today);
      },
      refresh,
    );
    return warnings;
  }

  /** Reconcile (SPEC §4): trash drafts already absorbed, close a finished or vanished open session. */
  private async reconcile(scan: Scan, hotRead: HotRead): Promise<{ scan: Scan; warnings: string[]; closed: ReconcilePlan["closeOpen"] }> {
    const hot = hotRead.state;
    const absorbed = this.absorbedIn(scan.confirmed);
    const plan = planReconcile(hot, scan.drafts, scan.draftFiles, absorbed, {
      device: this.ports.device,
      now: this.ports.clock.now(),
      graceMs: this.graceMs,
      offsetAt: this.offsetAt,
    });
    const warnings: string[] = [];
    for (const draft of plan.trash) {
      await this.trashDraft(draft);
      warnings.push(`${draft.path} was already saved in ${absorbed.get(draft.draftId)?.sessionId ?? "?"}; moved it to the trash`);
    }
    // Work left by an interrupted end or save: its views still describe the history before that session, so
    // they are rewritten from the notes (the pointer cleared last, in hot.md), not left stale until the next end.
    // A pointer closed only because its draft is gone saved nothing: the views (and the body) stay as they are.
    const closing = plan.closeOpen?.draftId ?? null;
    if (hotRead.read.state === "ok" && (plan.trash.length > 0 || plan.closeOpen?.reason === "absorbed")) {
      warnings.push(
        ...(await this.writeViews(scan.confirmed, closingPointerTo(closing === null ? [] : [closing]))),
      );
    } else if (closing !== null) {
      await this.closePointerTo(closing);
    }
    if (plan.closeOpen) {
      const { draftId, reason } = plan.closeOpen;
      warnings.push(
        reason === "absorbed"
          ? `the open session ${draftId} had already been saved; closed it`
          : `the open session's draft ${draftId} no longer exists; closed the session`,
      );
    }
    const trashed = new Set(plan.trash.map((d) => d.draftId));
    const drafts = scan.drafts.filter((d) => !trashed.has(d.draftId));
    const draftFiles = new Set([...scan.draftFiles].filter((id) => !trashed.has(id)));
    return { scan: { ...scan, drafts, draftFiles }, warnings, closed: plan.closeOpen };
  }

  /**
   * The hot state that dates a session: the one before reconcile when reconcile closed this device's pointer
   * only because its draft is gone (e.g. a crash in start before the draft was written) — its start is still
   * the learner's; otherwise the current one.
   */
  private startRecord(before: HotState, after: HotState, closed: ReconcilePlan["closeOpen"]): HotState {
    return closed?.reason === "missing" && (before.device === null || before.device === this.ports.device) ? before : after;
  }

  private resolveTopic(explicit: string | null | undefined, fallbacks: ReadonlyArray<string | null>): string {
    const given = normalizeTopic(explicit);
    if (given !== null) return validateNewTopicId(given);
    for (const candidate of fallbacks) {
      const topic = normalizeTopic(candidate);
      if (topic !== null) return topic;
    }
    throw new UsageError("topic required: pass --topic T-… (no active topic in hot.md)", "topic_required");
  }

  // ---- operations ---------------------------------------------------------------------------------

  async start(options: StartOptions = {}): Promise<StartResult> {
    return this.exclusive(() => this.startNow(options));
  }

  private async startNow(options: StartOptions): Promise<StartResult> {
    // Bad input is refused first, also when the answer would be drafts_pending, already_open or kept.
    const explicit = normalizeTopic(options.topic);
    if (explicit !== null) validateNewTopicId(explicit);
    const hot0 = await this.readHot();
    const { scan, warnings } = await this.reconcile(await this.scan(), hot0);
    const hot = await this.readHot();
    const absorbed = this.absorbedIn(scan.confirmed);

    const pending = options.ignorePending ? [] : pendingDrafts(hot.state, scan.drafts, absorbed, options.ignoreDrafts);
    if (pending.length > 0) return { status: "drafts_pending", drafts: pending };

    if (isOpen(hot.state)) {
      const open = this.openSessionOf(hot.state, await this.readDraft(hot.state.openDraft));
      if (open) return { status: options.ifOpen === "keep" ? "kept" : "already_open", open };
    }

    const topicId = this.resolveTopic(options.topic, [options.activeNoteTopic ?? null, hot.state.activeTopic]);
    const now = this.ports.clock.now();
    const startedAt = this.stamp(now);
    const draftId = await this.pickFreeDraftId(scan);
    const newest = scan.confirmed[0] ? await withBody(this.ports.store, scan.confirmed[0], this.offsetAt) : null;
    const pointer = { activeTopic: topicId, startedAt, openDraft: draftId, device: this.ports.device };

    // hot.md first: a crash before the draft exists leaves a pointer that reconcile closes (nothing to lose).
    let alreadyOpen: HotState | null = null;
    const written = await this.writeView(this.layout.hot, (text) => {
      const read = classifyRecord(text);
      if (isOpen(hotStateOf(read)) && hotStateOf(read).openDraft !== hot.state.openDraft) {
        alreadyOpen = hotStateOf(read); // another start won the race
        return null;
      }
      const today = this.today();
      const lastSession = newest?.sessionId ?? null;
      if (read.state === "ok") {
        return updateFrontmatterFields(text ?? "", {
          active_topic: topicId,
          started_at: startedAt,
          open_draft: draftId,
          device: this.ports.device,
          updated_at: today,
        });
      }
      if (read.state === "no-frontmatter") {
        // Someone's own text: keep the body, add the frontmatter (SPEC §4 start step 3).
        return renderHotFrontmatter({ ...pointer, lastSession }, today) + read.body;
      }
      return renderHot({ ...pointer, lastSession }, newest, today);
    });
    if (alreadyOpen !== null) {
      const raced: HotState = alreadyOpen;
      const open = this.openSessionOf(raced, raced.openDraft ? await this.readDraft(raced.openDraft) : null);
      if (open) return { status: options.ifOpen === "keep" ? "kept" : "already_open", open };
    }

    await this.ports.store.create(
      sessionPath(this.layout, `${draftId}.md`),
      renderDraft({
        draftId,
        topicId,
        startedAt,
        lastCheckpointAt: startedAt,
        device: this.ports.device,
        topicNote: options.topicNote ?? null,
        notes: "",
      }),
    );
    // The working memory as written (not read back: a cache may lag behind the write).
    const after = classifyRecord(written);
    return {
      status: "started",
      topicId,
      startedAt,
      draftId,
      lastSession: newest?.sessionId ?? null,
      workingMemory: after.state === "ok" || after.state === "no-frontmatter" ? after.body.trim() : "",
      warnings: [...warnings, ...scan.skipped.map((s) => `skipped ${s.path}: ${s.reason}`)],
    };
  }

  /**
   * A draft ID that names no draft file and no absorbed draft: reusing an absorbed ID would make reconcile
   * treat the new draft as finished business.
   */
  private async pickFreeDraftId(scan: Scan): Promise<string> {
    const absorbed = this.absorbedIn(scan.confirmed);
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const id = newDraftId(this.ports.random);
      if (scan.draftFiles.has(id) || absorbed.has(id)) continue;
      if ((await this.ports.store.read(sessionPath(this.layout, `${id}.md`))) === null) return id;
    }
    throw new ConflictError(this.layout.sessions, `could not find a free draft ID in ${this.layout.sessions}`);
  }

  async checkpoint(options: CheckpointOptions = {}): Promise<CheckpointResult> {
    return this.exclusive(() => this.checkpointNow(options));
  }

  private async checkpointNow(options: CheckpointOptions): Promise<CheckpointResult> {
    const hot0 = await this.readHot();
    if (options.open && hot0.read.state === "ok") this.requireOpen(hot0.state, options.open.draftId);
    const topicId = this.resolveTopic(options.topic, [hot0.state.activeTopic, options.open?.topicId ?? null]);

    // The common case, every few minutes: the open session's draft, of this topic, not yet saved by an end
    // that crashed before trashing it. It reads hot.md, the draft and the few notes dated from its start on.
    if (isOpen(hot0.state)) {
      const open = await this.readDraft(hot0.state.openDraft);
      if (open && open.topicId === topicId && !(await this.maybeAbsorbed(open))) {
        const draft = await this.checkpointDraft(open, this.ports.clock.now(), options.notes);
        await this.claimPointer(hot0.state, draft);
        return { created: false, opened: false, draft, warnings: [] };
      }
    }

    // Otherwise reconcile first: after a crash in end, hot.md may still name a draft that a confirmed note
    // absorbed; notes must not go into it (it is about to be trashed) and its start must not date a new session.
    const { scan, warnings, closed } = await this.reconcile(await this.scan(), hot0);
    const hot = await this.readHot();
    const now = this.ports.clock.now();
    const nowText = this.stamp(now);

    const open = isOpen(hot.state) ? (scan.drafts.find((d) => d.draftId === hot.state.openDraft) ?? null) : null;
    if (options.open && hot.read.state === "ok" && open?.draftId !== options.open.draftId) {
      // Still the open session, but its draft cannot be used (damaged by an edit, not synced): say that.
      if (isOpen(hot.state) && hot.state.openDraft === options.open.draftId) this.refuseUnusableOpenDraft(hot.state, scan);
      this.requireOpen(EMPTY_HOT, options.open.draftId);
    }
    if (open && open.topicId === topicId) {
      const draft = await this.checkpointDraft(open, now, options.notes);
      await this.claimPointer(hot.state, draft);
      return { created: false, opened: false, draft, warnings };
    }
    // Reconcile closed a pointer to a vanished draft of this device; any other unusable open draft is refused.
    if (isOpen(hot.state) && open === null) this.refuseUnusableOpenDraft(hot.state, scan);

    // One draft per open session (SPEC §9): when hot.md lost track of it (damaged, or pointing at a draft that
    // is gone), the session's draft is this device's draft of the topic checkpointed within the grace period.
    // Older drafts are interrupted sessions, left for recovery.
    // A caller that names its open session (the plugin) checkpoints exactly that draft, or nothing: a
    // checkpoint must never open a new session behind the learner's back.
    const named = options.open ? scan.drafts.find((d) => d.draftId === options.open?.draftId) : undefined;
    if (options.open && !named) {
      this.refuseUnreadableDraft(options.open.draftId, scan);
      this.requireOpen(EMPTY_HOT, options.open.draftId);
    }
    const current =
      named ??
      scan.drafts
        .filter(
          (d) =>
            d.topicId === topicId &&
            (d.device === null || d.device === this.ports.device) &&
            d.lastCheckpointMs !== null &&
            now - d.lastCheckpointMs <= this.graceMs,
        )
        .sort((a, b) => (b.lastCheckpointMs ?? 0) - (a.lastCheckpointMs ?? 0))[0];
    let draft: Draft;
    let created = false;
    if (current) {
      draft = await this.checkpointDraft(current, now, options.notes);
    } else {
      // A new draft inherits hot.md's start only for the same topic, not in the future, at most 24 h old.
      const draftId = await this.pickFreeDraftId(scan);
      const path = sessionPath(this.layout, `${draftId}.md`);
      const content = renderDraft({
        draftId,
        topicId,
        startedAt: inheritedStart(topicId, this.startRecord(hot0.state, hot.state, closed), now, this.offsetAt) ?? nowText,
        lastCheckpointAt: nowText,
        device: this.ports.device,
        topicNote: null,
        notes: options.notes ?? "",
      });
      await this.ports.store.create(path, content);
      const written = this.draftFromText(path, content);
      if (!written) throw new Error(`rendered draft ${draftId} does not read back`);
      draft = written;
      created = true;
    }

    // With no usable open session, this draft becomes the open one, so that end absorbs it, status shows it
    // and the next checkpoint updates it instead of creating yet another file. A hot.md of another schema
    // is never rewritten here (SPEC §2): only start rebuilds it.
    let opened = false;
    if (hot.read.state === "schema-invalid") {
      warnings.push(`${this.layout.hot} has an unsupported palee_schema; left it alone (starting a session rebuilds it)`);
    } else if (!isOpen(hot.state)) {
      opened = await this.pointHotAt(draft, hot.state.openDraft, scan.confirmed);
    }
    return { created, opened, draft, warnings };
  }

  /**
   * Whether a confirmed note may already have absorbed this draft. A note that absorbed it (end with this
   * session open, or Save) starts at the draft's start or later, and a note's file name carries its start in
   * UTC, so only the notes named from shortly before that start on are read — not the whole history. "Shortly"
   * is a day: an end run while the clock was behind the draft's start dates its note from that clock's now
   * (found by the model test: a checkpoint then appended notes to a draft already saved).
   */
  private async maybeAbsorbed(draft: Draft): Promise<boolean> {
    if (draft.startedMs === null) return true; // cannot narrow it down: let the full reconcile decide
    const from = `S-${formatUtcCompact(draft.startedMs - CLOCK_BEHIND_MS)}`;
    const names = (await this.ports.store.list(this.layout.sessions)).filter((n) => CONFIRMED_FILE_PATTERN.test(n) && n >= from);
    for (const name of names) {
      const result = await readConfirmed(this.ports.store, sessionPath(this.layout, name), this.offsetAt);
      if ("record" in result && result.record.absorbedDrafts.includes(draft.draftId)) return true;
    }
    return false;
  }

  /**
   * The open session's draft exists but cannot be read, or belongs to another device and has not synced
   * here yet: nothing may be recorded for it on this device (it would be recorded twice once it is readable).
   */
  private refuseUnusableOpenDraft(hot: HotState & { openDraft: string }, scan: Scan): void {
    this.refuseUnreadableDraft(hot.openDraft, scan);
    if (hot.device !== null && hot.device !== this.ports.device) {
      throw new UsageError(`the session on ${hot.activeTopic ?? "?"} is open on ${hot.device} (its draft has not synced here yet); continue it there`, "session_open_elsewhere");
    }
  }

  /**
   * When this device checkpoints the open session another device started (that device went silent), hot.md
   * names this device, so status and start report where the session now runs.
   */
  private async claimPointer(hot: HotState, draft: Draft): Promise<void> {
    if (hot.openDraft !== draft.draftId || hot.device === this.ports.device) return;
    await this.writeView(this.layout.hot, (text) => {
      const read = classifyRecord(text);
      if (read.state !== "ok" || hotStateOf(read).openDraft !== draft.draftId) return null;
      return updateFrontmatterFields(text ?? "", { device: this.ports.device });
    });
  }

  /** Updates a draft's last checkpoint (and appends notes); the learner's body is kept byte for byte. */
  private async checkpointDraft(draft: Draft, now: number, notes: string | null | undefined): Promise<Draft> {
    if (isAliveElsewhere(draft, this.ports.device, now, this.graceMs)) {
      throw new UsageError(`the session on ${draft.topicId} is open on ${draft.device ?? "another device"}; checkpoint it there`, "session_open_elsewhere");
    }
    const nowText = this.stamp(now);
    const written = await this.writeView(draft.path, (text) => {
      if (text === null) throw new UsageError(`${draft.path} disappeared during the checkpoint`, "no_such_draft");
      const updated = updateFrontmatterFields(text, { last_checkpoint_at: nowText, device: this.ports.device });
      const read = classifyRecord(updated);
      const bodyIsEmpty = read.state === "ok" && read.body.trim() === "";
      return notes ? appendNotes(updated, notes, bodyIsEmpty) : updated;
    });
    return this.draftFromText(draft.path, written) ?? draft;
  }

  /**
   * Makes `draft` the open session in hot.md, unless another usable session took the pointer meanwhile.
   * A hot.md that is missing, corrupt or of another schema is rebuilt; one without frontmatter gains it.
   */
  private async pointHotAt(draft: Draft, stalePointer: string | null, confirmed: readonly ConfirmedSession[]): Promise<boolean> {
    const startedAt = draft.startedAt !== null && isCanonicalTimestamp(draft.startedAt) ? draft.startedAt : this.stamp(draft.startedMs ?? this.ports.clock.now());
    const pointer = { activeTopic: draft.topicId, startedAt, openDraft: draft.draftId, device: this.ports.device };
    const newest = confirmed[0] ? await withBody(this.ports.store, confirmed[0], this.offsetAt) : null;
    let pointed = false;
    await this.writeView(this.layout.hot, (text) => {
      const read = classifyRecord(text);
      const current = hotStateOf(read);
      pointed = false;
      if (read.state === "schema-invalid") return null;
      if (isOpen(current) && current.openDraft !== stalePointer && current.openDraft !== draft.draftId) return null;
      const today = this.today();
      pointed = true;
      if (read.state === "ok") {
        return updateFrontmatterFields(text ?? "", {
          active_topic: pointer.activeTopic,
          started_at: pointer.startedAt,
          open_draft: pointer.openDraft,
          device: pointer.device,
        });
      }
      const lastSession = newest?.sessionId ?? null;
      if (read.state === "no-frontmatter") return renderHotFrontmatter({ ...pointer, lastSession }, today) + read.body;
      return renderHot({ ...pointer, lastSession }, newest, today);
    });
    return pointed;
  }

  async end(options: EndOptions = {}): Promise<EndResult> {
    return this.exclusive(() => this.endNow(options));
  }

  /** Refuses, naming the file, when the draft exists but cannot be read (e.g. its properties do not parse). */
  private refuseUnreadableDraft(draftId: string, scan: Scan): void {
    if (!scan.draftFiles.has(draftId)) return;
    const path = sessionPath(this.layout, `${draftId}.md`);
    const reason = scan.skipped.find((s) => s.path === path)?.reason ?? "unreadable";
    throw new UsageError(`the open session's draft ${path} cannot be read (${reason}); fix it or move it out of the folder, then try again`);
  }

  /** Refuses when hot.md does not point at `draftId` (the session the caller believes is open). */
  private requireOpen(hot: HotState, draftId: string): void {
    if (isOpen(hot) && hot.openDraft === draftId) return;
    throw new UsageError(`the session ${draftId} is no longer open (it was ended or recovered meanwhile)`, "no_open_session");
  }

  /** A retried end's summary and next action that its saved session lacks: warned, never silently dropped. */
  private async unrecorded(saved: ConfirmedSession, options: EndOptions): Promise<string[]> {
    const warning = unrecordedWarning(saved.path, (await withBody(this.ports.store, saved, this.offsetAt)).body, options);
    return warning === null ? [] : [warning];
  }

  private async endNow(options: EndOptions): Promise<EndResult> {
    const hot0 = await this.readHot();
    const expected = options.open;
    if (expected && hot0.read.state === "ok" && !(isOpen(hot0.state) && hot0.state.openDraft === expected.draftId)) {
      // Ended meanwhile (a second click, another window): report the saved session, never save it twice.
      const finished = this.absorbedIn((await this.scan()).confirmed).get(expected.draftId);
      if (finished) {
        return { session: finished, absorbedDrafts: finished.absorbedDrafts, alreadySaved: true, warnings: await this.unrecorded(finished, options) };
      }
      this.requireOpen(hot0.state, expected.draftId);
    }
    const topicId = this.resolveTopic(options.topic, [hot0.state.activeTopic, expected?.topicId ?? null]);
    const before = await this.scan();
    const { scan, warnings, closed } = await this.reconcile(before, hot0);
    const hot = await this.readHot();
    const now = this.ports.clock.now();
    const skipped = scan.skipped.map((s) => `skipped ${s.path}: ${s.reason}`);

    // An end that already happened (a retry after a crash or a conflict): report it, never save it twice.
    const finishedIn = isOpen(hot0.state) && hot0.state.activeTopic === topicId ? this.absorbedIn(before.confirmed).get(hot0.state.openDraft) : undefined;
    const ofTopic = scan.drafts.filter((d) => d.topicId === topicId);
    if (finishedIn) {
      warnings.push(...(await this.writeViews(scan.confirmed, (current) => current)));
      warnings.push(...(await this.unrecorded(finishedIn, options)));
      return { session: finishedIn, absorbedDrafts: finishedIn.absorbedDrafts, alreadySaved: true, warnings: [...warnings, ...skipped] };
    }

    const elsewhere = ofTopic.filter((d) => isAliveElsewhere(d, this.ports.device, now, this.graceMs));
    // The open session of this topic owns the drafts that started with it or later; older drafts of the
    // topic are interrupted sessions the learner chose to leave alone (Ignore), and stay untouched.
    // When hot.md cannot tell (damaged, missing), the caller's open session (the plugin's timer) dates it,
    // and only that session is ended: never, for want of it, every older draft of the topic.
    const callerDraft = expected && !isOpen(hot.state) ? (ofTopic.find((d) => d.draftId === expected.draftId) ?? null) : null;
    if (expected && !isOpen(hot.state) && callerDraft === null) {
      const savedIn = this.absorbedIn(before.confirmed).get(expected.draftId);
      if (savedIn) return { session: savedIn, absorbedDrafts: savedIn.absorbedDrafts, alreadySaved: true, warnings: [...warnings, ...(await this.unrecorded(savedIn, options))] };
      this.refuseUnreadableDraft(expected.draftId, scan);
      this.requireOpen(EMPTY_HOT, expected.draftId);
    }
    const openStart =
      isOpen(hot.state) && hot.state.activeTopic === topicId ? parseTimestamp(hot.state.startedAt, this.offsetAt) : (callerDraft?.startedMs ?? null);
    const openId = isOpen(hot.state) ? hot.state.openDraft : (callerDraft?.draftId ?? null);
    const absorbed = ofTopic.filter(
      (d) => !elsewhere.includes(d) && (openStart === null || d.draftId === openId || (d.startedMs !== null && d.startedMs >= openStart)),
    );
    for (const d of elsewhere) warnings.push(`left ${d.draftId} alone: it is open on ${d.device ?? "another device"}`);
    for (const d of ofTopic) {
      if (!elsewhere.includes(d) && !absorbed.includes(d)) warnings.push(`left ${d.draftId} alone: it started before the open session (recover it separately)`);
    }
    if (isOpen(hot.state) && hot.state.activeTopic === topicId && !scan.drafts.some((d) => d.draftId === hot.state.openDraft)) {
      this.refuseUnusableOpenDraft(hot.state, scan);
    }
    // Nothing of this device to end, and the topic's session is open on another device (alive, or its draft
    // not synced here yet): recording it here would count that sitting twice.
    const takenOver = elsewhere.find((d) => d.draftId === hot.state.openDraft);
    const openHere = (hot.state.device === null || hot.state.device === this.ports.device) && !takenOver;
    if (absorbed.length === 0 && isOpen(hot.state) && hot.state.activeTopic === topicId && !openHere) {
      const device = takenOver?.device ?? hot.state.device ?? "another device";
      throw new UsageError(`the session on ${topicId} is open on ${device}; end it there`, "session_open_elsewhere");
    }

    // A pointer closed only because its draft is gone still dates the session (tier 2).
    const hotForStart = this.startRecord(hot0.state, hot.state, closed);
    const start = endStart(topicId, absorbed, hotForStart, now, this.offsetAt);
    // Nothing records a start (no draft, no open session): only an explicit topic records a session from now,
    // so a repeated end (a double click, a retry) does not add a 0-minute session.
    const nothingRecorded = absorbed.length === 0 && !(hotForStart.activeTopic === topicId && hotForStart.startedAt !== null);
    if (nothingRecorded && normalizeTopic(options.topic) === null) {
      throw new UsageError(`no open session on ${topicId} to end; pass --topic ${topicId} to record one from now anyway`, "no_open_session");
    }
    if (start.warning) warnings.push(start.warning);
    const startedAt = start.text ?? this.stamp(start.ms);

    const absorbedIds = absorbed.map((d) => d.draftId);
    const session = await this.writeConfirmed(start.ms, {
      topicId,
      startedAt,
      endedAt: this.stamp(now),
      durationMinutes: durationMinutes(start.ms, now),
      outcome: "completed",
      absorbedDrafts: absorbedIds,
      topicNote: absorbed.find((d) => d.topicNote !== null)?.topicNote ?? null,
      summary: options.summary ?? null,
      nextAction: options.nextAction ?? null,
      notes: absorbed.map((d) => d.body.trim()).filter((b) => b !== "").join("\n\n"),
    });

    for (const d of absorbed) await this.trashDraft(d);

    const finished = new Set(absorbedIds);
    const openElsewhere = new Set(elsewhere.map((d) => d.draftId));
    const seenOpen = isOpen(hot.state) ? hot.state.openDraft : null;
    const confirmed = withSession(scan.confirmed, session);
    await this.afterSaving(session, async () => {
      const viewWarnings = await this.writeViews(confirmed, (current) => {
        // The open session is over if its draft was absorbed, or if it is this topic's session this end found
        // open and not alive on another device (its draft may be unreadable or gone: it must not stay "open"
        // forever). A pointer that appeared meanwhile (another device's start, synced) is that session's: kept.
        const closes =
          !isOpen(current) ||
          finished.has(current.openDraft) ||
          (current.activeTopic === topicId && current.openDraft === seenOpen && !openElsewhere.has(current.openDraft));
        // The ended topic becomes the active one, so the next start resumes it by default.
        return closes ? { ...current, activeTopic: topicId, startedAt: null, openDraft: null, device: null } : current;
      });
      warnings.push(...viewWarnings);
    });
    return { session, absorbedDrafts: absorbedIds, alreadySaved: false, warnings: [...warnings, ...skipped] };
  }

  /** A conflict on the views after a session note was written says that the session itself is safe. */
  private async afterSaving(session: ConfirmedSession, updateViews: () => Promise<unknown>): Promise<void> {
    try {
      await updateViews();
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      throw new ConflictError(
        error.path,
        `${session.sessionId} is saved, but ${error.path} changed while it was being updated; a rebuild refreshes the views`,
        session.sessionId,
      );
    }
  }

  /**
   * Creates a confirmed note under a fresh ID (create-only: a collision draws again) and returns the session
   * as written — never read back, since an app's cache may lag behind the write.
   */
  private async writeConfirmed(startedMs: number, data: Omit<ConfirmedNoteInput, "sessionId">): Promise<ConfirmedSession> {
    let text = "";
    const sessionId = await this.createUnique(
      () => newSessionId(startedMs, this.ports.random),
      (id) => (text = renderConfirmedNote({ ...data, sessionId: id })),
    );
    const result = interpretConfirmed(sessionPath(this.layout, `${sessionId}.md`), classifyRecord(text), this.offsetAt);
    if (!("record" in result)) throw new Error(`rendered session ${sessionId} does not read back: ${result.reason}`);
    return result.record;
  }

  async recover(draftId: string, action: RecoverAction): Promise<RecoverResult> {
    return this.exclusive(() => this.recoverNow(draftId, action));
  }

  private async recoverNow(draftId: string, action: RecoverAction): Promise<RecoverResult> {
    if (!DRAFT_ID_PATTERN.test(draftId) && !/^DRAFT-S-[^/\\]+$/.test(draftId)) {
      throw new UsageError(`no such draft: ${JSON.stringify(draftId)} is not a draft ID (DRAFT-S-…)`, "no_such_draft");
    }
    const hot0 = await this.readHot();
    const before = await this.scan();
    const absorbed = this.absorbedIn(before.confirmed);
    const { scan, warnings } = await this.reconcile(before, hot0);
    const hot = await this.readHot();

    const finishedIn = absorbed.get(draftId);
    if (finishedIn) {
      // Already saved by an earlier end or save (e.g. before a crash): never saved twice.
      // Reconcile has just moved it to the trash, as finished business.
      if (action === "save") return { status: "saved", draftId, session: finishedIn, alreadySaved: true, warnings };
      if (action === "discard") return { status: "discarded", draftId, alreadySavedIn: finishedIn.sessionId, warnings };
      if (action === "ignore") return { status: "ignored", draftId, alreadySavedIn: finishedIn.sessionId, warnings };
      throw new UsageError(`${draftId} was already saved in ${finishedIn.sessionId}; there is nothing to resume`, "no_such_draft");
    }
    const draft = scan.drafts.find((d) => d.draftId === draftId);
    if (!draft) {
      const unreadable = scan.skipped.find((s) => s.path === sessionPath(this.layout, `${draftId}.md`));
      throw new UsageError(
        unreadable
          ? `${unreadable.path} cannot be read (${unreadable.reason}); fix or move it by hand`
          : `no such draft: ${draftId} (it was removed, or saved on another device)`,
        "no_such_draft",
      );
    }
    const now = this.ports.clock.now();

    switch (action) {
      case "ignore":
        return { status: "ignored", draftId, warnings };
      case "discard": {
        // Pointer first: a crash between the two writes leaves the draft to be offered again, never a pointer
        // to a vanished draft, whose start would then date the next session (a discarded sitting counted).
        await this.closePointerTo(draftId);
        await this.trashDraft(draft);
        return { status: "discarded", draftId, warnings };
      }
      case "resume": {
        if (isOpen(hot.state) && hot.state.openDraft !== draftId) {
          const open = this.openSessionOf(hot.state, await this.readDraft(hot.state.openDraft));
          throw new UsageError(
            `a session is already open (${open?.topicId ?? "?"} on ${open?.device ?? "?"} since ${open?.startedAt ?? "?"}); end it before resuming ${draftId}`,
          );
        }
        const nowText = this.stamp(now);
        const resumed = await this.writeView(draft.path, (text) =>
          text === null ? null : updateFrontmatterFields(text, { last_checkpoint_at: nowText, device: this.ports.device }),
        );
        const startedAt = draft.startedAt !== null && isCanonicalTimestamp(draft.startedAt) ? draft.startedAt : this.stamp(draft.startedMs ?? now);
        const pointer = { activeTopic: draft.topicId, startedAt, openDraft: draftId, device: this.ports.device };
        if (hot.read.state === "ok") {
          await this.writeView(this.layout.hot, (text) =>
            updateFrontmatterFields(text ?? "", {
              active_topic: pointer.activeTopic,
              started_at: pointer.startedAt,
              open_draft: pointer.openDraft,
              device: pointer.device,
            }),
          );
        } else {
          // The learner chose this draft: its pointer must be written, even over a hot.md of another schema.
          await this.writeViews(scan.confirmed, () => ({ ...EMPTY_HOT, ...pointer }), { replaceForeign: true });
        }
        const open = this.openSessionOf({ ...EMPTY_HOT, ...pointer }, this.draftFromText(draft.path, resumed));
        if (!open) throw new Error(`resumed session ${draftId} has no start`);
        return { status: "resumed", draftId, open, warnings };
      }
      case "save": {
        // A sync tool's conflict copies of this draft record the same sitting: saved together, once. A copy
        // that is running (open on another device, or this device's open session) is left to its own end.
        const copies = saveGroup(draft, scan.drafts, this.ports.device, now, this.graceMs, isOpen(hot.state) ? hot.state.openDraft : null);
        for (const d of copiesOf(draft, scan.drafts)) {
          if (!copies.includes(d)) warnings.push(`left ${d.draftId} alone: it is a copy of ${draftId} that is open on ${d.device ?? "this device"}`);
        }
        const plan = savePlanOf(copies, now);
        const absorbedIds = copies.map((d) => d.draftId);
        const bodies = [...new Set(copies.map((d) => d.body.trim()).filter((b) => b !== ""))];
        const session = await this.writeConfirmed(plan.startedMs, {
          topicId: draft.topicId,
          startedAt: plan.startedAt ?? this.stamp(plan.startedMs),
          endedAt: plan.endedAt ?? this.stamp(plan.endedMs),
          durationMinutes: plan.durationMinutes,
          outcome: "interrupted",
          absorbedDrafts: absorbedIds,
          topicNote: draft.topicNote ?? copies.find((d) => d.topicNote !== null)?.topicNote ?? null,
          summary: null,
          nextAction: null,
          notes: bodies.join("\n\n"),
        });
        for (const d of copies) await this.trashDraft(d);
        const confirmed = withSession(scan.confirmed, session);
        await this.afterSaving(session, async () => {
          const viewWarnings = await this.writeViews(confirmed, closingPointerTo(absorbedIds));
          warnings.push(...viewWarnings);
        });
        return { status: "saved", draftId, session, alreadySaved: false, warnings };
      }
    }
  }

  private async closePointerTo(draftId: string): Promise<void> {
    await this.writeView(this.layout.hot, (text) => {
      const read = classifyRecord(text);
      if (read.state !== "ok" || hotStateOf(read).openDraft !== draftId) return null;
      return updateFrontmatterFields(text ?? "", { started_at: null, open_draft: null, device: null });
    });
  }

  /**
   * Start-up recovery (the plugin, when the vault opens): reconcile, then sort the open session and the
   * drafts into what continues silently, what runs elsewhere, and what the learner must decide. Reads hot.md
   * and the drafts; confirmed sessions come from the store's metadata cache when it has one.
   */
  async openVault(): Promise<VaultOpenResult> {
    return this.exclusive(() => this.openVaultNow());
  }

  private async openVaultNow(): Promise<VaultOpenResult> {
    const hot0 = await this.readHot();
    const { scan, warnings } = await this.reconcile(await this.scan(), hot0);
    const hot = await this.readHot();
    const now = this.ports.clock.now();
    const pending = pendingDrafts(hot.state, scan.drafts, this.absorbedIn(scan.confirmed));
    let resumed: OpenSession | null = null;
    let openElsewhere: OpenSession | null = null;
    if (isOpen(hot.state)) {
      const draft = scan.drafts.find((d) => d.draftId === hot.state.openDraft) ?? null;
      const open = this.openSessionOf(hot.state, draft);
      const device = draft?.device ?? hot.state.device;
      const mine = device === null || device === this.ports.device;
      if (open && draft) {
        const recent = checkpointedWithin(draft.lastCheckpointMs, now, this.graceMs);
        if (mine && recent) resumed = open;
        else if (!mine && isAliveElsewhere(draft, this.ports.device, now, this.graceMs)) openElsewhere = open;
        else pending.push(draft); // interrupted: the learner decides (Resume continues from its start)
      } else if (open && !mine) {
        openElsewhere = open; // its draft has not synced here yet
      }
    }
    return {
      resumed,
      openElsewhere,
      pending: pending.sort(compareDraftsOldestFirst),
      // Named once per vault open (and by rebuild), not by every operation that reconciles.
      warnings: [...warnings, ...duplicateSaves(scan.confirmed), ...scan.skipped.map((s) => `skipped ${s.path}: ${s.reason}`)],
    };
  }

  /** Never writes. */
  async list(options: { all?: boolean } = {}): Promise<ListResult> {
    const scan = await this.scan();
    const hot = await this.readHot();
    return {
      openDraftId: isOpen(hot.state) ? hot.state.openDraft : null,
      confirmed: scan.confirmed.slice(0, options.all ? undefined : 10),
      drafts: scan.drafts,
      totalConfirmed: scan.confirmed.length,
      totalDrafts: scan.drafts.length,
      skipped: scan.skipped,
    };
  }

  /** The open session, or null: absence is an answer, not an error. Never writes. */
  async status(): Promise<{ open: OpenSession | null; hotState: ReadResult["state"] }> {
    const hot = await this.readHot();
    const open = isOpen(hot.state) ? this.openSessionOf(hot.state, await this.readDraft(hot.state.openDraft)) : null;
    return { open, hotState: hot.read.state };
  }

  /** Regenerates hot.md and index.md from the session notes; writes nothing else (SPEC §6.3). */
  async rebuild(): Promise<RebuildResult> {
    return this.exclusive(() => this.rebuildNow());
  }

  private async rebuildNow(): Promise<RebuildResult> {
    const scan = await this.scan();
    await this.writeViews(scan.confirmed, (current) => current, { replaceForeign: true });
    return { totalConfirmed: scan.confirmed.length, skipped: scan.skipped, warnings: duplicateSaves(scan.confirmed) };
  }
}

/** `newestFirst` with `session` inserted in its place (newest first): a copy, the input is shared. */
/** A view's pointer update: the open session is closed if it is one of `draftIds`, else left as it is. */
function closingPointerTo(draftIds: readonly string[]): (current: HotState) => HotState {
  return (current) =>
    current.openDraft !== null && draftIds.includes(current.openDraft) ? { ...current, startedAt: null, openDraft: null, device: null } : current;
}

function withSession(newestFirst: readonly ConfirmedSession[], session: ConfirmedSession): ConfirmedSession[] {
  let lo = 0;
  let hi = newestFirst.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareNewestFirst(newestFirst[mid], session) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return [...newestFirst.slice(0, lo), session, ...newestFirst.slice(lo)];
}

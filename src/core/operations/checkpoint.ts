import { UsageError } from "../errors";
import type { FieldValue } from "../records/frontmatter";
import { classifyRecord, updateFrontmatterFields } from "../records/frontmatter";
import type { HotState } from "../records/hot-memory";
import { EMPTY_HOT, hotStateOf, isOpen } from "../records/hot-memory";
import { sessionPath } from "../records/layout";
import type { Draft } from "../records/records";
import { isAliveElsewhere, isThisDevice, savedIn } from "../recovery";
import type { Scan } from "../scan";
import { appendNotes, renderDraft } from "../records/session-note";
import type { AwayBreak } from "../honest-time";
import { awayUpdate, breakFields } from "../honest-time";
import { inheritedStart } from "../honest-time";
import { localClock } from "../time";
import type { SessionContext } from "./context";
import { awayOf, honestOf, recordedAway } from "./draft-fields";
import { refuseUnreadableDraft, refuseUnusableOpenDraft, requireOpen } from "./guards";
import type { HotRead } from "./reading";
import { damagedPointerWarnings, draftFromText, draftStart, readHot, resolveTopic, stamp } from "./reading";
import { reconcile, scanForReconcile, startRecord } from "./reconcile";
import { memoryForScan } from "./incremental-index";
import { newestWithBody, pointHotAt } from "./views";
import type { ViewChange } from "./writes";
import { pickFreeDraftId, writeView, writeViewWith } from "./writes";

export interface CheckpointOptions {
  topic?: string | null;
  notes?: string | null;
  /**
   * Only checkpoint this open session (the plugin's checkpoints): when hot.md no longer points at it (ended,
   * discarded, replaced), the checkpoint is refused instead of opening a new session. When hot.md is damaged
   * or missing, the session's draft is found as without it.
   */
  open?: OpenRef;
  /**
   * The caller's own last sign of life for this session (the plugin's previous timer tick, epoch ms): a gap
   * is time away only when neither the draft nor the caller saw the session alive during it.
   */
  aliveAt?: number;
  /** A new draft's link to its topic note (the faces that find it, contract §5 version 4: topics by name). */
  topicNote?: string | null;
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
  /** Time away this checkpoint recorded as a break, in the same write (null: none). */
  away: AwayBreak | null;
  warnings: string[];
}

export async function checkpoint(ctx: SessionContext, options: CheckpointOptions): Promise<CheckpointResult> {
  const hotBefore = await readHot(ctx);
  if (options.open && hotBefore.read.state === "ok") requireOpen(hotBefore.state, options.open.draftId);
  const topicId = resolveTopic(options.topic, [hotBefore.state.activeTopic, options.open?.topicId ?? null]);

  // The common case, every few minutes: the open session's draft, of this topic, not yet saved by an end
  // that crashed before trashing it. It reads hot.md, the drafts and the few notes written since the oldest
  // started (reconcile.ts scanForReconcile).
  if (isOpen(hotBefore.state)) {
    const scan = await scanForReconcile(ctx, hotBefore.state);
    const open = scan.drafts.find((d) => d.draftId === hotBefore.state.openDraft);
    const saved = open && savedIn(ctx.absorbedIn(scan.confirmed), open.draftId, open.startedMs, ctx.offsetAt);
    if (open && open.topicId === topicId && !saved) {
      const { draft, away } = await checkpointDraft(ctx, open, ctx.ports.clock.now(), options);
      await claimPointer(ctx, hotBefore.state, draft);
      return { created: false, opened: false, draft, away, warnings: [] };
    }
  }
  return checkpointAfterReconcile(ctx, hotBefore, topicId, options);
}

/**
 * Reconcile first: after a crash in end, hot.md may still name a draft that a confirmed note absorbed; notes
 * must not go into it (it is about to be trashed) and its start must not date a new session.
 */
async function checkpointAfterReconcile(
  ctx: SessionContext,
  hotBefore: HotRead,
  topicId: string,
  options: CheckpointOptions,
): Promise<CheckpointResult> {
  const { scan, warnings, closed } = await reconcile(ctx, await ctx.scan(), hotBefore);
  warnings.push(...damagedPointerWarnings(ctx, hotBefore.state));
  const hotAfter = await readHot(ctx);
  const now = ctx.ports.clock.now();

  const open = isOpen(hotAfter.state)
    ? (scan.drafts.find((d) => d.draftId === hotAfter.state.openDraft) ?? null)
    : null;
  if (options.open && hotAfter.read.state === "ok" && open?.draftId !== options.open.draftId) {
    // Still the open session, but its draft cannot be used (damaged by an edit, not synced): say that.
    if (isOpen(hotAfter.state) && hotAfter.state.openDraft === options.open.draftId) {
      refuseUnusableOpenDraft(ctx, hotAfter.state, scan);
    }
    requireOpen(EMPTY_HOT, options.open.draftId);
  }
  if (open && open.topicId === topicId) {
    const { draft, away } = await checkpointDraft(ctx, open, now, options);
    await claimPointer(ctx, hotAfter.state, draft);
    return { created: false, opened: false, draft, away, warnings };
  }
  if (open && isThisDevice(open.device, ctx.ports.device)) refuseOtherTopic(open, topicId);
  // Reconcile closed a pointer to a vanished draft of this device; any other unusable open draft is refused.
  if (isOpen(hotAfter.state) && open === null) refuseUnusableOpenDraft(ctx, hotAfter.state, scan);

  const current = sessionDraft(ctx, scan, topicId, now, options.open);
  const dating = startRecord(ctx, hotBefore.state, hotAfter.state, closed);
  const { draft, away } = current
    ? await checkpointDraft(ctx, current, now, options)
    : { draft: await createDraft(ctx, scan, topicId, now, dating, options), away: null };

  // With no usable open session, this draft becomes the open one, so that end absorbs it, status shows it
  // and the next checkpoint updates it instead of creating yet another file. A hot.md of another schema
  // is never rewritten here: only start rebuilds it.
  let opened = false;
  if (hotAfter.read.state === "schema-invalid") {
    warnings.push(`${ctx.layout.hot} has an unsupported palee_schema; left it alone (starting a session rebuilds it)`);
  } else if (!isOpen(hotAfter.state)) {
    const made = await openWith(ctx, draft, hotAfter.state.openDraft, scan);
    opened = made.pointed;
    warnings.push(...made.warnings);
  }
  return { created: !current, opened, draft, away, warnings };
}

/**
 * A checkpoint for another topic while this device's session is open would start a parallel session that
 * counts the same minutes twice (contract §4 checkpoint): refused, naming the open session.
 */
function refuseOtherTopic(open: Draft, topicId: string): never {
  throw new UsageError(
    `a session on ${open.topicId} is open on this device (started ${open.startedAt ?? "at an unknown time"}); ` +
      `end it first ("palee session end") before a checkpoint for ${topicId}, ` +
      `or checkpoint it ("palee session draft --topic ${open.topicId}")`,
    "other_session_open",
  );
}

/**
 * The draft of the session when hot.md lost track of it (damaged, or pointing at a draft that is gone): one
 * draft per open session, this device's draft of the topic checkpointed within the grace period. Older drafts
 * are interrupted sessions, left for recovery. A caller that names its open session (the plugin) gets exactly
 * that draft, or a refusal: a checkpoint must never open a new session behind the learner's back.
 */
function sessionDraft(
  ctx: SessionContext,
  scan: Scan,
  topicId: string,
  now: number,
  expected: OpenRef | undefined,
): Draft | undefined {
  if (expected) {
    const named = scan.drafts.find((d) => d.draftId === expected.draftId);
    if (named) return named;
    refuseUnreadableDraft(ctx, expected.draftId, scan);
    requireOpen(EMPTY_HOT, expected.draftId);
  }
  return scan.drafts
    .filter(
      (d) =>
        d.topicId === topicId &&
        isThisDevice(d.device, ctx.ports.device) &&
        d.lastCheckpointMs !== null &&
        now - d.lastCheckpointMs <= ctx.graceMs,
    )
    .sort((a, b) => (b.lastCheckpointMs ?? 0) - (a.lastCheckpointMs ?? 0))[0];
}

/** A new draft; it inherits hot.md's start only for the same topic, not in the future, at most 24 h old. */
async function createDraft(
  ctx: SessionContext,
  scan: Scan,
  topicId: string,
  now: number,
  dating: HotState,
  options: CheckpointOptions,
): Promise<Draft> {
  const { notes } = options;
  const nowText = stamp(ctx, now);
  const draftId = await pickFreeDraftId(ctx, scan);
  const path = sessionPath(ctx.layout, `${draftId}.md`);
  const content = renderDraft({
    draftId,
    topicId,
    startedAt: inheritedStart(topicId, dating, now, ctx.offsetAt) ?? nowText,
    lastCheckpointAt: nowText,
    device: ctx.ports.device,
    topicNote: options.topicNote ?? null,
    notes: notes ? timedNotes(notes, now, ctx) : "",
  });
  await ctx.ports.store.create(path, content);
  const written = draftFromText(ctx, path, content);
  if (!written) throw new Error(`rendered draft ${draftId} does not read back`);
  return written;
}

/**
 * When this device checkpoints the open session another device started (that device went silent), hot.md
 * names this device, so status and start report where the session now runs.
 */
async function claimPointer(ctx: SessionContext, hot: HotState, draft: Draft): Promise<void> {
  if (hot.openDraft !== draft.draftId || hot.device === ctx.ports.device) return;
  await writeView(ctx, ctx.layout.hot, (text) => {
    const read = classifyRecord(text);
    if (read.state !== "ok" || hotStateOf(read).openDraft !== draft.draftId) return null;
    return updateFrontmatterFields(text ?? "", { device: ctx.ports.device });
  });
}

/**
 * Updates a draft's last checkpoint (and appends notes); the learner's body is kept byte for byte. A gap with
 * no sign of life longer than the grace period (the draft's and the caller's `aliveAt`) is recorded as a break
 * in the same write (contract §4 time away); a paused session stays paused and records none.
 */
async function checkpointDraft(
  ctx: SessionContext,
  draft: Draft,
  now: number,
  options: CheckpointOptions,
): Promise<{ draft: Draft; away: AwayBreak | null }> {
  if (isAliveElsewhere(draft, ctx.ports.device, now, ctx.graceMs)) {
    throw new UsageError(
      `the session on ${draft.topicId} is open on ${draft.device ?? "another device"}; checkpoint it there`,
      "session_open_elsewhere",
    );
  }
  const nowText = stamp(ctx, now);
  const written = await writeViewWith(ctx, draft.path, (text): ViewChange<AwayBreak | null> => {
    if (text === null) throw new UsageError(`${draft.path} disappeared during the checkpoint`, "no_such_draft");
    const current = draftFromText(ctx, draft.path, text) ?? draft;
    const away = awayOf(ctx, current, now, { aliveAt: options.aliveAt, watched: options.aliveAt !== undefined });
    const updated = updateFrontmatterFields(text, {
      last_checkpoint_at: nowText,
      device: ctx.ports.device,
      ...legacyBreaks(text, current, ctx),
      ...(away ? awayUpdate(honestOf(current), away, ctx.offsetAt, recordedAway(ctx, text, draft.path)) : {}),
    });
    const read = classifyRecord(updated);
    const bodyIsEmpty = read.state === "ok" && read.body.trim() === "";
    const notes = options.notes ? timedNotes(options.notes, now, ctx) : "";
    return { next: notes ? appendNotes(updated, notes, bodyIsEmpty) : updated, value: away };
  });
  return { draft: draftFromText(ctx, draft.path, written.text) ?? draft, away: written.value };
}

/**
 * A draft of before version 3 has break_minutes but no `breaks`: it reads as one break ending at its last
 * checkpoint (contract §2). The checkpoint moves that checkpoint, so it writes the break as the interval it was
 * read as first; otherwise the break would slide forward with every checkpoint.
 */
function legacyBreaks(text: string, current: Draft, ctx: SessionContext): Record<string, FieldValue> {
  const read = classifyRecord(text);
  if (read.state !== "ok" || read.fields.breaks !== undefined || current.breaks.length === 0) return {};
  return breakFields(current.breaks, ctx.offsetAt);
}

/**
 * Notes headed by the checkpoint's local time, "- 18:20 …" (contract §4 checkpoint), so the session note shows
 * when each was written; the lines after the first are indented into the same list item. Blank notes: "".
 */
export function timedNotes(notes: string, now: number, ctx: Pick<SessionContext, "offsetAt">): string {
  const lines = notes.trim().split(/\r?\n/);
  if (lines.length === 1 && lines[0] === "") return "";
  const [first, ...rest] = lines;
  const indented = rest.map((line) => (line.trim() === "" ? "" : `  ${line}`));
  return [`- ${localClock(now, ctx.offsetAt)} ${first}`, ...indented].join("\n");
}

/** Makes `draft` the open session, unless another usable session took the pointer meanwhile. */
async function openWith(
  ctx: SessionContext,
  draft: Draft,
  stalePointer: string | null,
  scan: Scan,
): Promise<{ pointed: boolean; warnings: string[] }> {
  const pointer = {
    activeTopic: draft.topicId,
    startedAt: draftStart(ctx, draft, ctx.ports.clock.now()),
    openDraft: draft.draftId,
    device: ctx.ports.device,
  };
  const newest = await newestWithBody(ctx, scan.confirmed);
  // The draft's topic becomes the active one: hot.md's body becomes its memory, as start writes it (contract §2).
  const memory = await memoryForScan(ctx, draft.topicId, scan);
  const { pointed, warnings } = await pointHotAt(ctx, pointer, {
    newest,
    memory,
    replaceBody: true,
    accept: (read) => {
      const current = hotStateOf(read);
      if (read.state === "schema-invalid") return false;
      return !(isOpen(current) && current.openDraft !== stalePointer && current.openDraft !== draft.draftId);
    },
  });
  return { pointed, warnings };
}

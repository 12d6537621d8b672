import { UsageError } from "../errors";
import { updateFrontmatterFields } from "../records/frontmatter";
import { EMPTY_HOT, isOpen } from "../records/hot-memory";
import { DRAFT_ID_PATTERN } from "../records/ids";
import { sessionPath } from "../records/layout";
import type { ConfirmedSession, Draft } from "../records/records";
import { absorbedCopies, copiesOf, previewSave, savedDraft, savedIn } from "../recovery";
import type { AwayBreak } from "../honest-time";
import { awayUpdate, formatBreaks } from "../honest-time";
import type { Scan } from "../scan";
import type { SessionContext } from "./context";
import { awayOf, honestOf, recordedAway } from "./draft-fields";
import type { OpenSession } from "./open-session";
import { openSessionOf } from "./open-session";
import type { HotRead } from "./reading";
import { draftFromText, draftStart, readDraft, readHot, stamp } from "./reading";
import { reconcile } from "./reconcile";
import { memoryForScan } from "./incremental-index";
import { closePointerTo, closingPointerTo, pointHotAt, withSession, writeViews } from "./views";
import type { ViewChange } from "./writes";
import { afterSaving, trashDraft, writeConfirmed, writeViewWith } from "./writes";

// The recovery modal's preview and Save follow one rule.
export type { SaveContext, SavePreview } from "../recovery";
export { previewSave } from "../recovery";

export type RecoverAction = "resume" | "save" | "discard" | "ignore";

export type RecoverResult = (
  | { status: "resumed"; draftId: string; open: OpenSession; away: AwayBreak | null }
  | { status: "saved"; draftId: string; session: ConfirmedSession; alreadySaved: boolean }
  | { status: "discarded"; draftId: string; alreadySavedIn?: string }
  | { status: "ignored"; draftId: string; alreadySavedIn?: string }
) & { warnings: string[] };

/** Recovers one draft: resume it, save it as an interrupted session, discard it, or ignore it (no write). */
export async function recover(ctx: SessionContext, draftId: string, action: RecoverAction): Promise<RecoverResult> {
  if (!DRAFT_ID_PATTERN.test(draftId) && !/^DRAFT-S-[^/\\]+$/.test(draftId)) {
    throw new UsageError(`no such draft: ${JSON.stringify(draftId)} is not a draft ID (DRAFT-S-…)`, "no_such_draft");
  }
  const hotBefore = await readHot(ctx);
  const before = await ctx.scan();
  const absorbed = ctx.absorbedIn(before.confirmed);
  const { scan, warnings } = await reconcile(ctx, before, hotBefore);
  const hot = await readHot(ctx);

  const found = before.drafts.find((d) => d.draftId === draftId);
  const finishedIn = found
    ? savedDraft(absorbed, absorbedCopies(absorbed), found, ctx.offsetAt)
    : savedIn(absorbed, draftId, null, ctx.offsetAt);
  if (finishedIn) {
    // Already saved by an earlier end or save (e.g. before a crash): never saved twice.
    // Reconcile has just moved it to the trash, as finished business.
    const noteId = finishedIn.sessionId;
    if (action === "save") return { status: "saved", draftId, session: finishedIn, alreadySaved: true, warnings };
    if (action === "discard") {
      // A copy reconcile kept for notes its note lacks goes only where the learner sends it: the trash.
      const kept = found && !scan.drafts.includes(found) && (await ctx.ports.store.read(found.path)) !== null;
      if (kept) await trashDraft(ctx, found);
      return { status: "discarded", draftId, alreadySavedIn: noteId, warnings };
    }
    if (action === "ignore") return { status: "ignored", draftId, alreadySavedIn: noteId, warnings };
    throw new UsageError(`${draftId} was already saved in ${noteId}; there is nothing to resume`, "no_such_draft");
  }
  const draft = scan.drafts.find((d) => d.draftId === draftId);
  if (!draft) {
    const unreadable = scan.skipped.find((s) => s.path === sessionPath(ctx.layout, `${draftId}.md`));
    throw new UsageError(
      unreadable
        ? `${unreadable.path} cannot be read (${unreadable.reason}); fix or move it by hand`
        : `no such draft: ${draftId} (it was removed, or saved on another device)`,
      "no_such_draft",
    );
  }
  switch (action) {
    case "ignore":
      return { status: "ignored", draftId, warnings };
    case "discard":
      // Pointer first: a crash between the two writes leaves the draft to be offered again, never a pointer
      // to a vanished draft, whose start would then date the next session (a discarded sitting counted).
      await closePointerTo(ctx, draftId);
      await trashDraft(ctx, draft);
      return { status: "discarded", draftId, warnings };
    case "resume": {
      const { open, away, warnings: more } = await resume(ctx, draft, hot, scan);
      return { status: "resumed", draftId, open, away, warnings: [...warnings, ...more] };
    }
    case "save": {
      const { session, warnings: more } = await save(ctx, draft, hot, scan);
      return { status: "saved", draftId, session, alreadySaved: false, warnings: [...warnings, ...more] };
    }
  }
}

/**
 * Refreshes the draft's checkpoint and points hot.md at it (refused while another session is open). The gap
 * since its last sign of life, when longer than the grace period, is recorded as a break in the same write.
 */
async function resume(
  ctx: SessionContext,
  draft: Draft,
  hot: HotRead,
  scan: Scan,
): Promise<{ open: OpenSession; away: AwayBreak | null; warnings: string[] }> {
  const { draftId } = draft;
  if (isOpen(hot.state) && hot.state.openDraft !== draftId) {
    const open = openSessionOf(ctx, hot.state, await readDraft(ctx, hot.state.openDraft));
    throw new UsageError(
      `a session is already open (${open?.topicId ?? "?"} on ${open?.device ?? "?"} ` +
        `since ${open?.startedAt ?? "?"}); end it before resuming ${draftId}`,
    );
  }
  const now = ctx.ports.clock.now();
  const nowText = stamp(ctx, now);
  const resumed = await writeViewWith(ctx, draft.path, (text): ViewChange<AwayBreak | null> => {
    if (text === null) return { next: null, value: null };
    const current = draftFromText(ctx, draft.path, text) ?? draft;
    // The learner resumes an interrupted session: any gap longer than the grace period was not study.
    const away = awayOf(ctx, current, now, { watched: true });
    const awayFields = away
      ? awayUpdate(honestOf(current), away, ctx.offsetAt, recordedAway(ctx, text, draft.path))
      : {};
    const fields = { last_checkpoint_at: nowText, device: ctx.ports.device, ...awayFields };
    return { next: updateFrontmatterFields(text, fields), value: away };
  });
  const startedAt = draftStart(ctx, draft, now);
  const pointer = { activeTopic: draft.topicId, startedAt, openDraft: draftId, device: ctx.ports.device };
  let warnings: string[] = [];
  if (hot.read.state === "ok") {
    // The pointer fields change, and the body becomes the resumed topic's memory (contract §2 hot.md): a
    // valid hot.md holds no hand-written text to keep.
    const memory = await memoryForScan(ctx, draft.topicId, scan);
    await pointHotAt(ctx, pointer, { newest: null, memory, replaceBody: true });
  } else {
    // The learner chose this draft: its pointer must be written, even over a hot.md of another schema.
    warnings = await writeViews(ctx, scan.confirmed, () => ({ ...EMPTY_HOT, ...pointer }), { replaceForeign: true });
  }
  const open = openSessionOf(ctx, { ...EMPTY_HOT, ...pointer }, draftFromText(ctx, draft.path, resumed.text));
  if (!open) throw new Error(`resumed session ${draftId} has no start`);
  return { open, away: resumed.value, warnings };
}

/**
 * Saves the draft as an interrupted session, ending at its last checkpoint. A sync tool's conflict copies of
 * it record the same sitting: saved together, once. A copy that is running (open on another device, or this
 * device's open session) is left to its own end.
 */
async function save(
  ctx: SessionContext,
  draft: Draft,
  hot: HotRead,
  scan: Scan,
): Promise<{ session: ConfirmedSession; warnings: string[] }> {
  const now = ctx.ports.clock.now();
  const openDraft = isOpen(hot.state) ? hot.state.openDraft : null;
  const context = { device: ctx.ports.device, now, graceMs: ctx.graceMs, openDraft };
  const { copies, plan } = previewSave(draft, scan.drafts, context);
  const left = copiesOf(draft, scan.drafts)
    .filter((d) => !copies.includes(d))
    .map(
      (d) => `left ${d.draftId} alone: it is a copy of ${draft.draftId} that is open on ${d.device ?? "this device"}`,
    );
  const absorbedIds = copies.map((d) => d.draftId);
  const bodies = [...new Set(copies.map((d) => d.body.trim()).filter((b) => b !== ""))];
  const session = await writeConfirmed(ctx, plan.startedMs, {
    topicId: draft.topicId,
    startedAt: plan.startedAt ?? stamp(ctx, plan.startedMs),
    endedAt: plan.endedAt ?? stamp(ctx, plan.endedMs),
    durationMinutes: plan.durationMinutes,
    breakMinutes: plan.breakMinutes,
    breaks: formatBreaks(plan.breaks, ctx.offsetAt),
    outcome: "interrupted",
    absorbedDrafts: absorbedIds,
    topicNote: draft.topicNote ?? copies.find((d) => d.topicNote !== null)?.topicNote ?? null,
    agent: draft.agent ?? null,
    summary: null,
    nextAction: null,
    notes: bodies.join("\n\n"),
  });
  // Trashing belongs after the save too: a failure there still says first that the session is saved.
  const views = await afterSaving(session, async () => {
    for (const d of copies) await trashDraft(ctx, d);
    // No active topic (hot.md was missing): the newest session's, as rebuild sets it (issue 35 §4).
    const close = closingPointerTo(absorbedIds);
    return writeViews(ctx, withSession(scan.confirmed, session), (current, newest) => {
      const closed = close(current);
      return closed.activeTopic === null && closed.openDraft === null && newest !== null
        ? { ...closed, activeTopic: newest.topicId }
        : closed;
    });
  });
  return { session, warnings: [...plan.warnings, ...left, ...views] };
}

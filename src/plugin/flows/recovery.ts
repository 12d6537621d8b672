import type { Draft } from "../../core/records/records";
import { isThisDevice, previewSave } from "../../core/recovery";
import type { RecoverAction, RecoverResult } from "../../core/sessions";
import type { RecoveryRow } from "../ui/recovery-modal";
import { RecoveryModal } from "../ui/recovery-modal";
import type { FlowContext } from "./context";
import { LONG_NOTICE_MS, fail, warn } from "./notices";
import { describeRecorded, formatDuration } from "../../core/time";
import { announceAway } from "./away-notice";
import { topicName, topicNames } from "./topics";

/** How long after start-up every note is looked at (sessions saved twice, the scan cache). */
export const SAVED_TWICE_DELAY_MS = 2000;

/**
 * When the vault opens (after layout ready): continue, report, or ask. `afterScan`: what waits for the full scan
 * a moment after start-up (the due count's first queue, which would otherwise do that scan itself at layout ready).
 */
export async function onVaultOpen(ctx: FlowContext, afterScan: () => void = () => undefined): Promise<void> {
  try {
    const result = await ctx.controller.triageOnOpen();
    if (ctx.disposed) return;
    const today = ctx.controller.today();
    const { resumed, openElsewhere } = result;
    if (resumed) {
      const topic = topicName(ctx, resumed.topicId, resumed.topicNote);
      ctx.notify(`Resumed your session on ${topic} (started ${describeRecorded(resumed.startedAt, today)}).`);
    }
    if (openElsewhere) {
      const where = openElsewhere.device ?? "another device";
      const since = describeRecorded(openElsewhere.startedAt, today);
      const topic = topicName(ctx, openElsewhere.topicId, openElsewhere.topicNote);
      ctx.notify(`A session on ${topic} is open on ${where} (since ${since}).`);
    }
    warn(ctx, result.warnings);
    if (result.pending.length > 0) void offerWhenSynced(ctx, result.pending);
  } catch (error) {
    fail(ctx, "check for interrupted sessions", error);
  }
  // Every note, a moment after the vault opened (start-up is busy; the check above reads only what changed).
  // It also readies the scan cache, so later scans (topics, history) cost only what changes.
  window.setTimeout(() => {
    if (ctx.disposed) return;
    ctx.controller
      .savedTwice()
      .then(
        (twice) => ctx.disposed || warn(ctx, twice),
        (error) => fail(ctx, "check for sessions saved twice", error),
      )
      .finally(() => ctx.disposed || afterScan());
  }, SAVED_TWICE_DELAY_MS);
}

/** A draft of another device while the session folder has not settled yet: its end may still be on the way. */
function mayBeUnsynced(ctx: FlowContext, device: string | null): boolean {
  return !ctx.quiet.hasSettled() && !isThisDevice(device, ctx.controller.device);
}

/**
 * The start-up recovery dialog. Drafts of other devices may be ended there and not synced here yet: they are
 * offered once the session folder has been quiet for a while, as they are then (sorted again).
 */
async function offerWhenSynced(ctx: FlowContext, pending: readonly Draft[]): Promise<void> {
  const others = pending.filter((d) => mayBeUnsynced(ctx, d.device)).length;
  if (others === 0) return openRecovery(ctx, pending);
  ctx.notify(
    `${others === 1 ? "A session" : `${others} sessions`} from another device may not be synced yet: ` +
      "the recovery dialog opens once the session folder has been quiet for a few seconds.",
  );
  await ctx.quiet.whenSettled();
  if (ctx.disposed) return;
  try {
    const result = await ctx.controller.triageOnOpen();
    if (ctx.disposed) return;
    warn(ctx, result.warnings);
    if (result.pending.length > 0) openRecovery(ctx, result.pending);
  } catch (error) {
    fail(ctx, "check for interrupted sessions", error);
  }
}

/** Recover interrupted sessions (the command, and after an import that brought drafts). */
export async function recoverDrafts(ctx: FlowContext): Promise<void> {
  try {
    const result = await ctx.controller.triageOnOpen();
    warn(ctx, result.warnings);
    if (result.pending.length === 0) ctx.notify("No interrupted sessions to recover.");
    else openRecovery(ctx, result.pending);
  } catch (error) {
    fail(ctx, "list the interrupted sessions", error);
  }
}

/**
 * This device's open session was interrupted (the app closed without ending it): the learner decides, in the
 * recovery modal, before anything else happens to it. `then` runs once it is no longer open (saved or
 * discarded); a resumed session simply continues.
 */
export async function recoverInterrupted(ctx: FlowContext, then?: () => void): Promise<void> {
  const { controller } = ctx;
  const open = controller.open;
  if (!open) return;
  const { draftId } = open.session;
  const topic = topicName(ctx, open.session.topicId, open.session.topicNote);
  try {
    const drafts = (await controller.triageOnOpen()).pending;
    if (!drafts.some((d) => d.draftId === draftId)) {
      const device = open.session.device ?? "unknown device";
      ctx.notify(`The session on ${topic} (${device}) cannot be recovered here yet: its draft is not readable.`);
      return;
    }
    openRecovery(ctx, drafts, (decided, resumed) => {
      if (resumed) return;
      if (decided.has(draftId) && !controller.open) then?.();
      else if (controller.open && !controller.open.running) {
        ctx.notify(`The interrupted session on ${topic} is still open: resume, save or discard it first.`);
      }
    });
  } catch (error) {
    fail(ctx, "list the interrupted sessions", error);
  }
}

/** The modal's rows; the core previews what Save would record and whether another device runs the draft. */
export function recoveryRows(ctx: FlowContext, drafts: readonly Draft[]): RecoveryRow[] {
  const { controller } = ctx;
  const today = controller.today();
  const at = {
    device: controller.device,
    now: controller.now(),
    graceMs: controller.graceMs,
    openDraft: controller.open?.session.draftId,
  };
  const names = topicNames(ctx);
  return drafts.map((draft) => {
    const preview = previewSave(draft, drafts, at);
    return {
      draftId: draft.draftId,
      topicId: draft.topicId,
      topic: names(draft.topicId, draft.topicNote),
      device: draft.device ?? "unknown device",
      startedText: describeRecorded(draft.startedAt, today),
      lastSeenText: describeRecorded(draft.lastCheckpointAt, today),
      saveMinutes: preview.plan.durationMinutes,
      aliveElsewhere: preview.aliveElsewhere,
      unsynced: mayBeUnsynced(ctx, draft.device),
    };
  });
}

export function openRecovery(
  ctx: FlowContext,
  drafts: readonly Draft[],
  onFinished?: (decided: ReadonlySet<string>, resumed: boolean) => void,
): void {
  const { controller } = ctx;
  let resumed = false;
  // A draft's row as it reads now, next to the others shown (Save's preview counts its sync-conflict copies;
  // the stale version of the same draft among them is not one: copiesOf keeps the first of each ID).
  const rowOf = (draft: Draft): RecoveryRow => recoveryRows(ctx, [draft, ...drafts])[0];
  new RecoveryModal(
    ctx.app,
    recoveryRows(ctx, drafts),
    async (row, action) => {
      try {
        if (action !== "ignore" && mayBeUnsynced(ctx, row.device)) {
          // Sync may still be delivering its end: decided on the folder once it has settled (the core
          // reconciles again when recovering, so a draft ended there is never saved twice).
          ctx.notify(`Waiting for sync to settle before you ${action} ${row.topic}…`);
          await ctx.quiet.whenSettled();
          if (ctx.disposed) return null;
        }
        if (action !== "ignore" && !row.aliveElsewhere) {
          // The modal may have been open for a while: another device may have taken the draft up since.
          const now = await controller.draft(row.draftId);
          const fresh = now ? rowOf(now) : null;
          if (now && fresh?.aliveElsewhere) {
            const lastSeen = describeRecorded(now.lastCheckpointAt, controller.today());
            ctx.notify(
              `${row.topic} is now open on ${now.device ?? "another device"} (last seen ${lastSeen}). ` +
                `Press ${action} again to ${action} it anyway.`,
              LONG_NOTICE_MS,
            );
            return { changed: fresh };
          }
          const moved = fresh && (fresh.saveMinutes !== row.saveMinutes || fresh.lastSeenText !== row.lastSeenText);
          if (fresh && (moved || fresh.device !== row.device)) {
            // It was checkpointed since the row was drawn (another device, sync): decide on what it is now.
            const again = `check it, then press ${action} again.`;
            ctx.notify(`${row.topic} changed since this list was shown: ${again}`, LONG_NOTICE_MS);
            return { changed: fresh };
          }
        }
        const result = await controller.recover(row.draftId, action);
        if (result.status === "resumed") resumed = true;
        // The gap since its last sign of life was recorded as a break: said, and revocable (contract §4).
        if (result.status === "resumed") announceAway(ctx, row.draftId, result.away);
        warn(ctx, result.warnings);
        if (result.status === "saved") await ctx.dailyNote.add(result.session);
        return recoveredText(ctx, result, action);
      } catch (error) {
        fail(ctx, `${action} ${row.draftId}`, error);
        return null;
      }
    },
    (decided) => onFinished?.(decided, resumed),
  ).open();
}

function recoveredText(ctx: FlowContext, result: RecoverResult, action: RecoverAction): string {
  switch (result.status) {
    case "resumed":
      return `Resumed: the timer continues from ${describeRecorded(result.open.startedAt, ctx.controller.today())}.`;
    case "saved":
      return result.alreadySaved
        ? `Was already saved as ${result.session.sessionId}.`
        : `Saved as ${result.session.sessionId} (${formatDuration(result.session.durationMinutes)}).`;
    case "discarded":
      if (result.trashedKept) return `Moved to the trash (already saved in ${result.alreadySavedIn ?? "?"}).`;
      return result.alreadySavedIn ? `Was already saved in ${result.alreadySavedIn}.` : "Moved to the trash.";
    case "ignored":
      return action === "ignore" ? "Left for later." : "Unchanged.";
  }
}

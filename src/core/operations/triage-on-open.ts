import { isOpen } from "../records/hot-memory";
import type { Draft } from "../records/records";
import { compareDraftsOldestFirst } from "../records/records";
import { checkpointedWithin, duplicateSaves, isAliveElsewhere, isThisDevice, pendingDrafts } from "../recovery";
import type { SessionContext } from "./context";
import type { OpenSession } from "./open-session";
import { openSessionOf } from "./open-session";
import { readHot, skippedWarnings } from "./reading";
import { reconcile, scanForReconcile } from "./reconcile";

/** What the plugin does when the vault opens: continue, report, or offer recovery. */
export interface VaultOpenResult {
  /** This device's open session, checkpointed within the grace period: it simply continues. */
  resumed: OpenSession | null;
  /** A session open on another device that is alive there: reported, never taken over. */
  openElsewhere: OpenSession | null;
  /** Drafts for the recovery modal (interrupted sessions, drafts of other devices, orphans), oldest first. */
  pending: Draft[];
  warnings: string[];
}

/**
 * Start-up recovery (the plugin, when the vault opens): reconcile, then sort the open session and the drafts
 * into what continues silently, what runs elsewhere, and what the learner must decide. Reads hot.md, the
 * drafts and only the notes written since the oldest draft started (reconcile.ts scanForReconcile); those
 * come from the store's metadata cache when it has one.
 */
export async function triageOnOpen(ctx: SessionContext): Promise<VaultOpenResult> {
  const hotBefore = await readHot(ctx);
  const { scan, warnings } = await reconcile(ctx, await scanForReconcile(ctx, hotBefore.state), hotBefore);
  const hot = await readHot(ctx);
  const now = ctx.ports.clock.now();
  const pending = pendingDrafts(hot.state, scan.drafts, ctx.absorbedIn(scan.confirmed), ctx.offsetAt);
  let resumed: OpenSession | null = null;
  let openElsewhere: OpenSession | null = null;
  if (isOpen(hot.state)) {
    const draft = scan.drafts.find((d) => d.draftId === hot.state.openDraft) ?? null;
    const open = openSessionOf(ctx, hot.state, draft);
    const device = draft?.device ?? hot.state.device;
    const mine = isThisDevice(device, ctx.ports.device);
    if (open && draft) {
      const recent = checkpointedWithin(draft.lastCheckpointMs, now, ctx.graceMs);
      if (mine && recent) resumed = open;
      else if (!mine && isAliveElsewhere(draft, ctx.ports.device, now, ctx.graceMs)) openElsewhere = open;
      else pending.push(draft); // interrupted: the learner decides (Resume continues from its start)
    } else if (open && !mine) {
      openElsewhere = open; // its draft has not synced here yet
    }
  }
  return {
    resumed,
    openElsewhere,
    pending: pending.sort(compareDraftsOldestFirst),
    warnings: [...warnings, ...skippedWarnings(scan)],
  };
}

/**
 * Sessions saved twice (recovery/absorbed.ts duplicateSaves), from every note: named once per vault open, after
 * the start-up check (triageOnOpen reads only what changed), and by rebuild; not by every operation.
 */
export async function savedTwice(ctx: SessionContext): Promise<string[]> {
  return duplicateSaves((await ctx.scan()).confirmed, ctx.offsetAt);
}

import { isOpen } from "../hot-memory";
import type { Draft } from "../records";
import { compareDraftsOldestFirst } from "../records";
import { checkpointedWithin, duplicateSaves, isAliveElsewhere, pendingDrafts } from "../recovery";
import type { SessionContext } from "./context";
import type { OpenSession } from "./open-session";
import { openSessionOf } from "./open-session";
import { readHot, skippedWarnings } from "./reading";
import { reconcile } from "./reconcile";

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
 * into what continues silently, what runs elsewhere, and what the learner must decide. Reads hot.md and the
 * drafts; confirmed sessions come from the store's metadata cache when it has one.
 */
export async function openVault(ctx: SessionContext): Promise<VaultOpenResult> {
  const hot0 = await readHot(ctx);
  const { scan, warnings } = await reconcile(ctx, await ctx.scan(), hot0);
  const hot = await readHot(ctx);
  const now = ctx.ports.clock.now();
  const pending = pendingDrafts(hot.state, scan.drafts, ctx.absorbedIn(scan.confirmed));
  let resumed: OpenSession | null = null;
  let openElsewhere: OpenSession | null = null;
  if (isOpen(hot.state)) {
    const draft = scan.drafts.find((d) => d.draftId === hot.state.openDraft) ?? null;
    const open = openSessionOf(ctx, hot.state, draft);
    const device = draft?.device ?? hot.state.device;
    const mine = device === null || device === ctx.ports.device;
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
    // Named once per vault open (and by rebuild), not by every operation that reconciles.
    warnings: [...warnings, ...duplicateSaves(scan.confirmed), ...skippedWarnings(scan)],
  };
}

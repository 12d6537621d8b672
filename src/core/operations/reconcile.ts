import type { ReconcilePlan } from "../recovery";
import { absorbedCopies, isThisDevice, planReconcile, savedDraft } from "../recovery";
import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import type { Scan } from "../scan";
import type { SessionContext } from "./context";
import type { HotRead } from "./reading";
import { startOf, scanRecent } from "./reading";
import { closePointerTo, closingPointerTo, writeViewsAfter } from "./views";
import { trashDraft } from "./writes";
import type { ConfirmedSession, Draft } from "../records/records";
import { withBody } from "../scan";

export interface Reconciled {
  /** The scan without the drafts reconcile trashed. */
  scan: Scan;
  warnings: string[];
  closed: ReconcilePlan["closeOpen"];
}

/**
 * Performs planReconcile: trashes drafts already absorbed and closes a finished or vanished open session, so
 * that each session is on disk once, as a confirmed note or as a draft (docs/architecture.md, reconcile).
 */
export async function reconcile(ctx: SessionContext, scan: Scan, hotRead: HotRead): Promise<Reconciled> {
  const absorbed = ctx.absorbedIn(scan.confirmed);
  const plan = planReconcile(hotRead.state, scan.drafts, scan.draftFiles, absorbed, {
    device: ctx.ports.device,
    now: ctx.ports.clock.now(),
    graceMs: ctx.graceMs,
    offsetAt: ctx.offsetAt,
  });
  const warnings: string[] = [];
  const copies = absorbedCopies(absorbed);
  const kept = new Set<string>();
  for (const draft of plan.trash) {
    const saved = savedDraft(absorbed, copies, draft, ctx.offsetAt);
    if (saved && (await hasUnsavedNotes(ctx, draft, saved))) {
      kept.add(draft.draftId);
      warnings.push(unsavedNotesWarning(draft, saved));
      continue;
    }
    await trashDraft(ctx, draft);
    warnings.push(`${draft.path} was already saved in ${saved?.sessionId ?? "?"}; moved it to the trash`);
  }
  // Work left by an interrupted end or save: its views still describe the history before that session, so
  // they are rewritten from the notes (pointer cleared last). A pointer closed only because its draft is gone
  // saved nothing: the views (and the body) stay as they are.
  const closing = plan.closeOpen?.draftId ?? null;
  if (hotRead.read.state === "ok" && (plan.trash.length > kept.size || plan.closeOpen?.reason === "absorbed")) {
    const pointer = closingPointerTo(closing === null ? [] : [closing]);
    warnings.push(...(await writeViewsAfter(ctx, null, pointer, scan)));
  } else if (closing !== null) {
    await closePointerTo(ctx, closing);
  }
  if (plan.closeOpen) {
    const { draftId, reason } = plan.closeOpen;
    warnings.push(
      reason === "absorbed"
        ? `the open session ${draftId} had already been saved; closed it`
        : `the open session's draft ${draftId} no longer exists; closed the session`,
    );
  }
  const trashed = new Set(plan.trash.map((d) => d.draftId).filter((id) => !kept.has(id)));
  // A kept copy is finished business too: its time is in the saved session, never to be counted again.
  const drafts = scan.drafts.filter((d) => !trashed.has(d.draftId) && !kept.has(d.draftId));
  const draftFiles = new Set([...scan.draftFiles].filter((id) => !trashed.has(id)));
  return { scan: { ...scan, drafts, draftFiles }, warnings, closed: plan.closeOpen };
}

/**
 * Whether a saved draft (a sync tool's conflict copy, written on another device before it synced) carries notes
 * that its saved session's note lacks (issue 35 §4): a line of its body not found in that note. Such a copy is
 * never sent to the trash, where its notes would be the only ones left.
 */
async function hasUnsavedNotes(ctx: SessionContext, draft: Draft, saved: ConfirmedSession): Promise<boolean> {
  const lines = draft.body
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (lines.length === 0) return false;
  const body = (await withBody(ctx.ports.store, saved, ctx.offsetAt)).body;
  const noted = new Set(body.split(/\r?\n/).map((l) => l.trim()));
  return lines.some((l) => !noted.has(l));
}

function unsavedNotesWarning(draft: Draft, saved: ConfirmedSession): string {
  return (
    `${draft.path} is a copy of a session already saved in ${saved.sessionId}, with notes that ${saved.sessionId} ` +
    "lacks: left it where it is so they are not lost (its time is counted once, in the saved session); " +
    `copy its notes into ${saved.path}, then delete it`
  );
}

/**
 * The hot state that dates a session: the one before reconcile when reconcile closed this device's pointer
 * only because its draft is gone (e.g. a crash in start before the draft was written) — its start is still
 * the learner's; otherwise the current one.
 */
export function startRecord(
  ctx: SessionContext,
  before: HotState,
  after: HotState,
  closed: ReconcilePlan["closeOpen"],
): HotState {
  const mine = isThisDevice(before.device, ctx.ports.device);
  return closed?.reason === "missing" && mine ? before : after;
}

/**
 * The scan an operation reconciles with: a full scan when that costs only what changed since the last one;
 * else the drafts and only the notes that may have absorbed one of them or hot.md's open session (scan.ts
 * scanRecentSessions), when the store can tell which notes changed; else, or when that cannot be bounded,
 * every note. `required`: draft IDs the operation must find among the drafts.
 */
export async function scanForReconcile(
  ctx: SessionContext,
  hot: HotState,
  required: readonly string[] = [],
  /** More instants the notes read must cover (start: now, for the new draft's ID). */
  from: readonly number[] = [],
): Promise<Scan> {
  if (ctx.scanIsWarm()) return ctx.scan(); // the plugin, after its first full scan: costs only what changed
  const starts = [...(isOpen(hot) ? [startOf(ctx, hot)] : []), ...from];
  const now = ctx.ports.clock.now();
  const recent = await scanRecent(ctx, { now, starts, required });
  return recent ?? ctx.scan();
}

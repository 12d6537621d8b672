/** end of an open session whose draft is gone: decided before reconcile tidies the pointer (issue 35 §4). */
import type { EndTime } from "../honest-time";
import { lastSignOfLife, refuseVanishedEnd } from "../honest-time";
import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import { isThisDevice, savedIn } from "../recovery";
import type { Draft } from "../records/records";
import type { Scan } from "../scan";
import type { OpenRef } from "./checkpoint";
import type { SessionContext } from "./context";
import { startOf } from "./reading";

/**
 * This device's open session on the topic whose draft is gone, dated by hot.md alone (tier 2), or null. Its
 * end is decided before reconcile closes that pointer, so a refusal writes nothing and the end it suggests
 * still finds the session (issue 35 §4).
 */
function vanishedOpen(ctx: SessionContext, hot: HotState, scan: Scan, topicId: string) {
  if (!isOpen(hot) || hot.activeTopic !== topicId || !isThisDevice(hot.device, ctx.ports.device)) return null;
  const startedMs = startOf(ctx, hot);
  if (startedMs === null || scan.draftFiles.has(hot.openDraft)) return null;
  // A draft of the topic alive since the open session began may date it (end tier 1): the usual rules decide.
  const now = ctx.ports.clock.now();
  const bears = (d: Draft) => d.topicId === topicId && (lastSignOfLife(d, now) ?? Infinity) >= startedMs;
  if (scan.drafts.some(bears)) return null;
  const absorbed = ctx.absorbedIn(scan.confirmed);
  return savedIn(absorbed, hot.openDraft, startedMs, ctx.offsetAt) ? null : { draftId: hot.openDraft, startedMs };
}

/**
 * What the caller knows: the end's time, and the session its timer shows (the plugin), whose own ticks are
 * signs of life the files do not hold: its end dialog shows the silence, and the rule is not for it.
 */
type EndAsked = { endAt?: EndTime; open?: OpenRef };

/** An end that would be refused however reconcile tidies: refused before it writes anything. */
export function refuseBeforeReconcile(
  ctx: SessionContext,
  hot: HotState,
  scan: Scan,
  topicId: string,
  asked: EndAsked,
) {
  if (asked.open !== undefined) return;
  const vanished = vanishedOpen(ctx, hot, scan, topicId);
  const now = ctx.ports.clock.now();
  if (vanished && vanished.startedMs <= now) refuseVanishedEnd(asked.endAt, vanished, now, ctx.graceMs, ctx.offsetAt);
}

/** Once end took no draft and dates the session by hot.md's open pointer (tier 2): that draft is gone. */
export function refuseVanishedTaken(
  ctx: SessionContext,
  dating: { openDraft: string | null; startedMs: number },
  asked: EndAsked,
): void {
  if (asked.open !== undefined || dating.openDraft === null) return;
  const vanished = { draftId: dating.openDraft, startedMs: dating.startedMs };
  refuseVanishedEnd(asked.endAt, vanished, ctx.ports.clock.now(), ctx.graceMs, ctx.offsetAt);
}

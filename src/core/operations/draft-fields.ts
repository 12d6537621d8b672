import { UsageError } from "../errors";
import type { FieldValue } from "../records/frontmatter";
import { classifyRecord, updateFrontmatterFields } from "../records/frontmatter";
import type { AwayBreak, BreakInterval, HonestFields } from "../honest-time";
import { LONG_SILENCE_MS, lastSignOfLife, readBreakList, timeAway } from "../honest-time";
import type { Draft } from "../records/records";
import type { SessionContext } from "./context";
import { draftFromText } from "./reading";
import { writeView } from "./writes";

/**
 * One optimistic write of the draft's frontmatter, computed from its text as it is at write time (another
 * device may have paused or continued it meanwhile); the body is kept byte for byte.
 */
export async function updateDraft(
  ctx: SessionContext,
  draft: Draft,
  change: (current: Draft, text: string) => Record<string, FieldValue>,
): Promise<Draft> {
  const written = await writeView(ctx, draft.path, (text) => {
    const current = text === null ? null : draftFromText(ctx, draft.path, text);
    if (text === null || current === null) {
      throw new UsageError(`${draft.path} disappeared or became unreadable; nothing was changed`, "no_such_draft");
    }
    return updateFrontmatterFields(text, change(current, text));
  });
  const result = draftFromText(ctx, draft.path, written.text);
  if (!result) throw new Error(`updated draft ${draft.draftId} does not read back`);
  return result;
}

/** A draft's `away` list (contract §2 version 4) as its text records it; a damaged one reads as empty. */
export function recordedAway(ctx: SessionContext, text: string, path: string): BreakInterval[] {
  const read = classifyRecord(text);
  if (read.state !== "ok" && read.state !== "schema-invalid") return [];
  return readBreakList(read.fields.away, path, ctx.offsetAt).breaks ?? [];
}

/** A draft's paused_at and breaks, as the rules of honest-time take them. */
export function honestOf(draft: Draft): HonestFields {
  const { pausedAt, pausedMs, breaks, breakMinutes } = draft;
  return { pausedAt, pausedMs, breaks, breakMinutes, warnings: [] };
}

/**
 * The gap since the last sign of life as a break, or null. A caller that watches the session (the plugin's
 * ticks, `aliveAt`; a learner resuming an interrupted session) reports any gap longer than the grace period.
 * One that does not (the CLI: nothing runs between two commands) cannot tell studying from absence, so only a
 * long silence (longer than the grace period and 2 h, as for end) counts as time away there.
 */
export function awayOf(
  ctx: SessionContext,
  draft: Draft,
  now: number,
  watch: { aliveAt?: number; watched: boolean },
): AwayBreak | null {
  const { aliveAt } = watch;
  // A last checkpoint in the future is not a sign of life (contract §4): it neither hides a gap nor starts one.
  const signs = [lastSignOfLife(draft, now), aliveAt ?? null].filter(
    (s): s is number => s !== null && Number.isFinite(s),
  );
  if (signs.length === 0) return null;
  const thresholdMs = watch.watched ? ctx.graceMs : Math.max(ctx.graceMs, LONG_SILENCE_MS);
  return timeAway(Math.max(...signs), now, thresholdMs, draft.pausedMs !== null || draft.pauseUnusable === true);
}

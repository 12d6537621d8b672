import type { Draft } from "../records/records";
import { compareDraftsOldestFirst } from "../records/records";
import type { BreakInterval } from "../honest-time";
import { futureCheckpoint, lastSignOfLife, savedEnd } from "../honest-time";
import { FUTURE_SKEW_MS, isCanonicalTimestamp } from "../time";
import { checkpointedWithin, isAliveElsewhere } from "./liveness";

/**
 * What Save would record for an interrupted draft: it ends at paused_at when paused, else at its last
 * checkpoint (docs/architecture.md); durationMinutes is the time studied, breaks excluded.
 */
export interface SavePlan {
  startedMs: number;
  endedMs: number;
  durationMinutes: number;
  /** break_minutes to record (finished pauses, time away, and an open pause up to the end), inside the span. */
  breakMinutes: number;
  /** The breaks inside the span, to record as `breaks`. */
  breaks: BreakInterval[];
  /** The recorded timestamps to keep as written; null where the instant must be written afresh. */
  startedAt: string | null;
  endedAt: string | null;
  /** What Save did not take as recorded, and why (a time in the future), one line each naming the draft. */
  warnings: string[];
}

/**
 * What Save would record for the copies of one sitting (see copiesOf): it starts at the earliest valid start
 * and ends where honest-time savedEnd says: at paused_at when the most recently checkpointed copy is paused,
 * else at the latest last checkpoint (now if none has one); its breaks are that copy's. A recorded start never
 * moves: a last checkpoint before it (a clock set back) ends the session at its start, 0 minutes. Nothing ends
 * after now (contract §4 end step 2): a last checkpoint in the future is not a sign of life, so the session
 * ends at its last sign of life before now (never before its start); a start in the future is ignored.
 */
export function savePlanOf(copies: readonly Draft[], now: number): SavePlan {
  const warnings: string[] = [];
  const ahead = copies.filter((d) => futureCheckpoint(d, now) !== null);
  for (const d of ahead) {
    warnings.push(
      `${d.draftId}: last_checkpoint_at ${d.lastCheckpointAt ?? "?"} is in the future (a clock that was ahead): ` +
        "not a sign of life, so the session ends at its last one before now",
    );
  }
  const usable = (d: Draft): number | null => (ahead.includes(d) ? null : d.lastCheckpointMs);
  const last = pick(
    copies,
    usable,
    (d) => d.lastCheckpointAt,
    (a, b) => a > b,
  );
  // A start in the future (beyond a clock's skew) is no start, as end's tiers say: the session would end in the
  // future (issue 35 §4).
  const startAhead = (ms: number | null): boolean => ms !== null && ms - now > FUTURE_SKEW_MS;
  for (const d of copies.filter((c) => startAhead(c.startedMs))) {
    warnings.push(`${d.draftId}: started_at ${d.startedAt ?? "?"} is in the future (a clock that was ahead): ignored`);
  }
  const first = pick(
    copies,
    (d) => (startAhead(d.startedMs) ? null : d.startedMs),
    (d) => d.startedAt,
    (a, b) => a < b,
  );
  let lastEnd = last === null ? { ms: now, text: null } : last.ms > now ? { ms: now, text: null } : last;
  if (last === null && ahead.length > 0) {
    const signs = copies.map((d) => lastSignOfLife({ ...d, lastCheckpointMs: usable(d) }, now) ?? -Infinity);
    lastEnd = { ms: Math.min(now, Math.max(first?.ms ?? now, ...signs)), text: null };
  }
  if (first !== null && first.ms > lastEnd.ms) lastEnd = first;
  const startedMs = first?.ms ?? lastEnd.ms;
  const latest = copies.find((d) => last !== null && usable(d) === last.ms) ?? copies[0];
  const breaks = latest?.breaks ?? [];
  const session = { startedMs, lastCheckpointMs: lastEnd.ms, pausedMs: latest?.pausedMs ?? null, breaks };
  const end = savedEnd(session, now);
  const endedMs = Math.max(startedMs, end.endedMs);
  return {
    startedMs,
    endedMs,
    durationMinutes: end.durationMinutes,
    breakMinutes: end.breakMinutes,
    breaks: end.breaks,
    startedAt: first?.text ?? null,
    endedAt: end.source === "last" && end.endedMs === lastEnd.ms ? lastEnd.text : null,
    warnings,
  };
}

/**
 * The instant that is `better` than every other among the drafts that have one, with its recorded text when
 * that is canonical (kept as written; of equal instants, one with canonical text wins).
 */
function pick(
  drafts: readonly Draft[],
  ms: (d: Draft) => number | null,
  text: (d: Draft) => string | null,
  better: (a: number, b: number) => boolean,
): { ms: number; text: string | null } | null {
  let best: { ms: number; text: string | null } | null = null;
  for (const d of drafts) {
    const at = ms(d);
    if (at === null) continue;
    const recorded = text(d);
    const written = recorded !== null && isCanonicalTimestamp(recorded) ? recorded : null;
    if (best === null || better(at, best.ms) || (at === best.ms && best.text === null && written !== null)) {
      best = { ms: at, text: written };
    }
  }
  return best;
}

/**
 * What Save of `draft` takes with it: the draft and its copies (copiesOf), except a copy that is still
 * running (alive on another device, or `openDraft`, this device's open session, checkpointed within the grace
 * period), which is left to its own end.
 */
export function saveGroup(
  draft: Draft,
  drafts: readonly Draft[],
  device: string,
  now: number,
  graceMs: number,
  openDraft?: string | null,
): Draft[] {
  const running = (d: Draft): boolean =>
    isAliveElsewhere(d, device, now, graceMs) ||
    (d.draftId === openDraft && checkpointedWithin(d.lastCheckpointMs, now, graceMs));
  return copiesOf(draft, drafts).filter((d) => d === draft || !running(d));
}

/**
 * The drafts that record the same sitting as `draft`, itself included, oldest first: a sync tool's conflict
 * copies keep the original's session_id under another file name. Two drafts of one topic are copies when
 * they record the same session_id or one's file name is the other's session_id; copies of copies count too.
 */
export function copiesOf(draft: Draft, drafts: readonly Draft[]): Draft[] {
  const linked = (a: Draft, b: Draft): boolean =>
    a.topicId === b.topicId && (a.recordId === b.recordId || a.draftId === b.recordId || a.recordId === b.draftId);
  const group = [draft];
  for (let i = 0; i < group.length; i++) {
    const member = group[i];
    for (const d of drafts) if (!group.some((g) => g.draftId === d.draftId) && linked(member, d)) group.push(d);
  }
  return group.sort(compareDraftsOldestFirst);
}

/** Who would save, and when: this device, now, its grace period and its open session's draft (if any). */
export interface SaveContext {
  device: string;
  now: number;
  graceMs: number;
  openDraft?: string | null;
}

/** What Save of one draft would do, as the recovery modal previews it and as Save then does it. */
export interface SavePreview {
  /** The drafts Save takes (the draft and its copies that are not running elsewhere), oldest first. */
  copies: Draft[];
  /** The session Save would record from them (`plan.durationMinutes` is the preview's minutes). */
  plan: SavePlan;
  /** The draft itself runs on another device: saving it here would take it over. */
  aliveElsewhere: boolean;
}

/** One rule for Save and its preview: the draft's save group, its plan, and whether it runs elsewhere. */
export function previewSave(draft: Draft, drafts: readonly Draft[], context: SaveContext): SavePreview {
  const { device, now, graceMs, openDraft } = context;
  const copies = saveGroup(draft, drafts, device, now, graceMs, openDraft);
  return { copies, plan: savePlanOf(copies, now), aliveElsewhere: isAliveElsewhere(draft, device, now, graceMs) };
}

import type { Draft } from "../records/records";
import { compareDraftsOldestFirst } from "../records/records";
import { lastSignOfLife } from "../honest-time";

/**
 * Sittings (contract §4 end, version 3): drafts of one topic belong to one sitting when their spans, from the
 * start to the last sign of life, follow each other with gaps of at most the grace period. A draft silent for
 * longer than that before another one began is a separate, interrupted session: end never merges it in.
 */
export interface Sitting {
  /** The drafts of the sitting, oldest first. */
  drafts: Draft[];
  /** Its span: the earliest start and the latest sign of life among its drafts. */
  fromMs: number;
  toMs: number;
}

/** A draft's span; null when neither its start nor its last checkpoint can be read. */
function spanOf(draft: Draft): { from: number; to: number } | null {
  const to = lastSignOfLife(draft);
  if (to === null) return null;
  return { from: Math.min(draft.startedMs ?? to, to), to };
}

/**
 * The sittings of `drafts` (one topic's), oldest first, and the drafts whose times cannot be read (they fit no
 * sitting). One sorted sweep: a draft that begins within the grace period of the sitting's last sign of life
 * joins it, so 5 000 drafts cost one sort.
 */
export function sittingsOf(drafts: readonly Draft[], graceMs: number): { sittings: Sitting[]; timeless: Draft[] } {
  const timeless: Draft[] = [];
  const placed: Array<{ draft: Draft; from: number; to: number }> = [];
  for (const draft of drafts) {
    const span = spanOf(draft);
    if (span === null) timeless.push(draft);
    else placed.push({ draft, ...span });
  }
  placed.sort((a, b) => a.from - b.from || compareDraftsOldestFirst(a.draft, b.draft));
  const sittings: Sitting[] = [];
  for (const { draft, from, to } of placed) {
    const last = sittings[sittings.length - 1];
    if (last && from <= last.toMs + graceMs) {
      last.drafts.push(draft);
      last.toMs = Math.max(last.toMs, to);
    } else {
      sittings.push({ drafts: [draft], fromMs: from, toMs: to });
    }
  }
  return { sittings, timeless };
}

/** What end takes of a topic's drafts: one sitting, and every other draft, left alone for recovery. */
export interface SittingChoice {
  taken: Draft[];
  /** Drafts of other sittings: interrupted sessions, each with the sitting that made it separate. */
  separate: Draft[];
  /** Drafts whose times cannot be read: they cannot be placed in the sitting. */
  timeless: Draft[];
}

/**
 * The sitting of `anchor` (the open session's draft) among `drafts`; without an anchor, the newest sitting,
 * and only while it may still be running: its last sign of life no older than `aliveMs` before now. Without
 * an open session nothing tells an open sitting from an interrupted one but that (hot.md damaged or missing),
 * so an older one is left for recovery and tier 1 never reaches back days.
 */
export function chooseSitting(
  drafts: readonly Draft[],
  anchor: Draft | null,
  at: { now: number; graceMs: number; aliveMs: number },
): SittingChoice {
  const { sittings, timeless } = sittingsOf(drafts, at.graceMs);
  let chosen: Sitting | undefined;
  if (anchor !== null) chosen = sittings.find((s) => s.drafts.includes(anchor));
  else {
    const newest = sittings[sittings.length - 1];
    if (newest && at.now - newest.toMs <= at.aliveMs) chosen = newest;
  }
  const taken = chosen?.drafts ?? (anchor !== null ? [anchor] : []);
  return {
    taken,
    separate: sittings.filter((s) => s !== chosen).flatMap((s) => s.drafts),
    timeless: timeless.filter((d) => !taken.includes(d)),
  };
}

/** When a session started, as end and checkpoint date it from the drafts and hot.md. */
import type { HotState } from "../records/hot-memory";
import type { Draft } from "../records/records";
import type { OffsetAt } from "../time";
import { FUTURE_SKEW_MS, INHERIT_MAX_AGE_MS, formatTimestamp, isCanonicalTimestamp, parseTimestamp } from "../time";

const keep = (text: string | null): string | null => (text !== null && isCanonicalTimestamp(text) ? text : null);

/** Where a session's start came from, for end (docs/architecture.md, end). */
export interface EndStart {
  ms: number;
  /** The recorded timestamp to keep as written, or null to write `ms` in the local offset. */
  text: string | null;
  tier: 1 | 2 | 3;
  /** Said to the user when the start could not be taken from the record. */
  warning: string | null;
}

/**
 * The start of a session being ended, three tiers: (1) the earliest valid start among the topic's drafts;
 * (2) hot.md's start when its active topic matches — no age limit, up to 60 s in the future clamped to
 * now, further ahead ignored; (3) now. end (contract §4, version 3) refuses nothing_open instead of tier 3
 * when it took no draft; `drafts` are the ones it took: one sitting (recovery/sittings.ts).
 */
export function endStart(
  topicId: string,
  drafts: readonly Draft[],
  hot: HotState,
  now: number,
  offsetAt: OffsetAt,
): EndStart {
  // A draft start in the future is not a valid start: the session falls back to the next tier.
  let earliest: Draft | null = null;
  let future: Draft | null = null;
  for (const d of drafts) {
    if (d.startedMs === null) continue;
    if (d.startedMs > now) future ??= d;
    else if (earliest?.startedMs == null || d.startedMs < earliest.startedMs) earliest = d;
  }
  if (earliest?.startedMs != null) {
    return { ms: earliest.startedMs, text: keep(earliest.startedAt), tier: 1, warning: null };
  }
  const ignored = future && `ignored ${future.draftId}'s start in the future (${String(future.startedAt)})`;
  const both = (warning: string | null): string | null =>
    ignored && warning ? `${ignored}; ${warning}` : (ignored ?? warning);
  if (hot.activeTopic === topicId && hot.startedAt !== null) {
    const hotMs = parseTimestamp(hot.startedAt, offsetAt);
    if (hotMs !== null && hotMs <= now) {
      return { ms: hotMs, text: keep(hot.startedAt), tier: 2, warning: both(ignored && "dated from hot.md's start") };
    }
    if (hotMs !== null && hotMs - now <= FUTURE_SKEW_MS) return { ms: now, text: null, tier: 2, warning: ignored };
    const why = hotMs === null ? "is not a valid timestamp" : "is in the future";
    const warning = `hot.md's started_at (${hot.startedAt}) ${why}; ignored, so this session has 0 minutes`;
    return { ms: now, text: null, tier: 3, warning: both(warning) };
  }
  // end refuses before recording when no draft was taken either (nothing_open); here its drafts have no usable start.
  const why = drafts.length === 0 ? "no draft, no open session" : "no draft has a usable start, no open session";
  const warning = `no start was recorded for ${topicId} (${why}); saved as a 0-minute session`;
  return { ms: now, text: null, tier: 3, warning: both(warning) };
}

/**
 * The start a new checkpoint draft inherits from hot.md: only for the same topic, not in the future and at
 * most 24 h old (docs/architecture.md, checkpoint); null means "now".
 */
export function inheritedStart(topicId: string, hot: HotState, now: number, offsetAt: OffsetAt): string | null {
  if (hot.activeTopic !== topicId || hot.startedAt === null) return null;
  const ms = parseTimestamp(hot.startedAt, offsetAt);
  if (ms === null || ms > now || now - ms > INHERIT_MAX_AGE_MS) return null;
  return keep(hot.startedAt) ?? formatTimestamp(ms, offsetAt(ms));
}

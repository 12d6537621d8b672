/** How the CLI names drafts, open sessions and recovery results in its text and JSON output. */
import { formatDuration } from "../core/time";
import { openJson, sessionJson } from "../core/formats/json";
import type { Draft } from "../core/records/records";
import type { OpenSession, RecoverResult } from "../core/sessions";
import { formatElapsed } from "../core/time";

export function describeDraft(d: Draft): string {
  const started = d.startedAt ?? "(unknown)";
  const checkpoint = d.lastCheckpointAt ?? "(none)";
  const device = d.device ?? "(unknown)";
  return `${d.draftId}  ${d.topicId}  started ${started}  last checkpoint ${checkpoint}  device ${device}`;
}

export const describePending = (d: Draft): string => `Unconfirmed draft ${describeDraft(d)}`;

export function describeOpen(o: OpenSession): string {
  const checkpoint = o.lastCheckpointAt ?? "(none)";
  const device = o.device ?? "(unknown)";
  const started = `started ${o.startedAt}`;
  const agent = o.agent ? `  opened by agent ${o.agent}` : "";
  return `Open session ${o.draftId}  ${o.topicId}  ${started}  last checkpoint ${checkpoint}  device ${device}${agent}`;
}

export function recoveryLine(r: RecoverResult): string {
  switch (r.status) {
    case "resumed":
      return (
        `Resumed the session on ${r.open.topicId} (${r.draftId}, started ${r.open.startedAt}, ` +
        `${formatElapsed(r.open.elapsedSeconds * 1000)} so far).`
      );
    case "saved":
      return r.alreadySaved
        ? `${r.draftId} was already saved as ${r.session.sessionId}; nothing to do.`
        : `Saved ${r.draftId} as ${r.session.sessionId}: ${r.session.topicId}, ` +
            `${formatDuration(r.session.durationMinutes)} (interrupted).`;
    case "discarded":
    case "ignored":
      if (r.status === "discarded" && r.trashedKept)
        return (
          `Moved ${r.draftId} to the trash: it was already saved as ${r.alreadySavedIn ?? "?"}, ` +
          "and the notes it held that the saved note lacks are in the trash with it."
        );
      if (r.alreadySavedIn) return `${r.draftId} was already saved as ${r.alreadySavedIn}; nothing more to do.`;
      return r.status === "discarded"
        ? `Moved ${r.draftId} to the trash.`
        : `Left ${r.draftId} as it is; "palee session start --ignore-pending" starts a new session while it waits.`;
  }
}

export function recoveryJson(r: RecoverResult) {
  if (r.status === "saved") return { status: "saved", draft_id: r.draftId, session: sessionJson(r.session) };
  if (r.status === "resumed") return { status: "resumed", draft_id: r.draftId, open: openJson(r.open) };
  return { status: r.status, draft_id: r.draftId };
}

/** How many warnings a command prints before it sums up the rest (a large vault can flag a thousand notes). */
export const WARNING_CAP = 20;

/**
 * Caps printed warnings: the first `cap` are shown, the rest counted, then summed up by `rest()` as one line
 * ("and 1 280 more warnings…"). JSON documents keep every item (their lists are built apart from this).
 */
export class WarningCap {
  private seen = 0;
  constructor(private readonly cap = WARNING_CAP) {}
  /** The line to print for this warning, or null when it is past the cap. */
  take(line: string): string | null {
    this.seen += 1;
    return this.seen <= this.cap ? line : null;
  }
  /** The summing-up line once, when warnings were left out; null otherwise. */
  rest(): string | null {
    const more = this.seen - this.cap;
    this.seen = Math.min(this.seen, this.cap);
    return more > 0 ? `and ${more} more warning${more === 1 ? "" : "s"}` : null;
  }
}

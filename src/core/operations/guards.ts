import { UsageError } from "../errors";
import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import { sessionPath } from "../records/layout";
import type { Scan } from "../scan";
import type { SessionContext } from "./context";

/** Refuses when hot.md does not point at `draftId` (the session the caller believes is open). */
export function requireOpen(hot: HotState, draftId: string): void {
  if (isOpen(hot) && hot.openDraft === draftId) return;
  throw new UsageError(
    `the session ${draftId} is no longer open (it was ended or recovered meanwhile)`,
    "nothing_open",
  );
}

/** Refuses, naming the file, when the draft exists but cannot be read (e.g. its properties do not parse). */
export function refuseUnreadableDraft(ctx: SessionContext, draftId: string, scan: Scan): void {
  if (!scan.draftFiles.has(draftId)) return;
  const path = sessionPath(ctx.layout, `${draftId}.md`);
  const reason = scan.skipped.find((s) => s.path === path)?.reason ?? "unreadable";
  throw new UsageError(
    `the open session's draft ${path} cannot be read (${reason}); fix it or move it out of the folder, then try again`,
  );
}

/**
 * The open session's draft exists but cannot be read, or belongs to another device and has not synced
 * here yet: nothing may be recorded for it on this device (it would be recorded twice once it is readable).
 */
export function refuseUnusableOpenDraft(ctx: SessionContext, hot: HotState & { openDraft: string }, scan: Scan): void {
  refuseUnreadableDraft(ctx, hot.openDraft, scan);
  if (hot.device !== null && hot.device !== ctx.ports.device) {
    throw new UsageError(
      `the session on ${hot.activeTopic ?? "?"} is open on ${hot.device} (its draft has not synced here yet); ` +
        "continue it there",
      "session_open_elsewhere",
    );
  }
}

import type { HotState } from "../hot-memory";
import { isOpen } from "../hot-memory";
import type { Draft } from "../records";
import { parseTimestamp } from "../time";
import type { SessionContext } from "./context";

/** The open session as reported by start, status and the faces (the CLI's JSON "open" object). */
export interface OpenSession {
  topicId: string;
  startedAt: string;
  device: string | null;
  draftId: string;
  elapsedSeconds: number;
  lastCheckpointAt: string | null;
}

export function openSessionOf(ctx: SessionContext, hot: HotState, draft: Draft | null): OpenSession | null {
  if (!isOpen(hot)) return null;
  const startedMs = parseTimestamp(hot.startedAt, ctx.offsetAt);
  const now = ctx.ports.clock.now();
  return {
    topicId: hot.activeTopic ?? draft?.topicId ?? "(unknown)",
    startedAt: hot.startedAt,
    // The draft names the device that last checkpointed it (hot.md may not have synced yet).
    device: draft?.device ?? hot.device,
    draftId: hot.openDraft,
    elapsedSeconds: startedMs === null ? 0 : Math.max(0, Math.floor((now - startedMs) / 1000)),
    lastCheckpointAt: draft?.lastCheckpointAt ?? null,
  };
}

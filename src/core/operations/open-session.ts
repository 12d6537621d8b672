import type { BreakInterval } from "../honest-time";
import { lastSignOfLife, studiedMs } from "../honest-time";
import type { HotState } from "../records/hot-memory";
import { isOpen } from "../records/hot-memory";
import type { Draft } from "../records/records";
import { sessionPath } from "../records/layout";
import { parseTimestamp } from "../time";
import type { SessionContext } from "./context";

/** The open session as reported by start, status and the faces (the CLI's JSON "open" object). */
export interface OpenSession {
  topicId: string;
  startedAt: string;
  device: string | null;
  draftId: string;
  /** Time studied so far: breaks excluded, frozen at paused_at while paused. */
  elapsedSeconds: number;
  lastCheckpointAt: string | null;
  /** paused_at while paused, else null. */
  pausedAt: string | null;
  /** Finished pauses and time away so far. */
  breakMinutes: number;
  /** Those breaks as intervals, oldest first (the end dialog previews an end at a chosen time with them). */
  breaks: BreakInterval[];
  /** The last sign of life (the later of the start and the last checkpoint), epoch ms. */
  lastSignMs: number;
  /** Seconds since the last sign of life, as of now (contract §5 O `silence_seconds`). */
  silenceSeconds: number;
  /** Who opened it when it was not the learner by hand (the draft's `agent`, contract §4b), else null. */
  agent: string | null;
  /** The open draft's path, relative to the vault (contract §5 O `draft_path`). */
  draftPath: string;
  /** The draft's link to its topic note, `[[…]]`, or null (contract §5 version 4: topics by name). */
  topicNote?: string | null;
}

export function openSessionOf(ctx: SessionContext, hot: HotState, draft: Draft | null): OpenSession | null {
  if (!isOpen(hot)) return null;
  const startedMs = parseTimestamp(hot.startedAt, ctx.offsetAt);
  const now = ctx.ports.clock.now();
  const pausedMs = draft?.pausedMs ?? null;
  const breakMinutes = draft?.breakMinutes ?? 0;
  const studied = startedMs === null ? 0 : studiedMs({ startedMs, breakMinutes, pausedMs }, now);
  return {
    topicId: hot.activeTopic ?? draft?.topicId ?? "(unknown)",
    startedAt: hot.startedAt,
    // The draft names the device that last checkpointed it (hot.md may not have synced yet).
    device: draft?.device ?? hot.device,
    draftId: hot.openDraft,
    elapsedSeconds: Math.floor(studied / 1000),
    lastCheckpointAt: draft?.lastCheckpointAt ?? null,
    pausedAt: draft?.pausedAt ?? null,
    breakMinutes,
    breaks: draft?.breaks ?? [],
    agent: draft?.agent ?? null,
    topicNote: draft?.topicNote ?? null,
    draftPath: draft?.path ?? sessionPath(ctx.layout, `${hot.openDraft}.md`),
    ...signs(
      lastSignOfLife({ startedMs, lastCheckpointMs: draft?.lastCheckpointMs ?? null, breaks: draft?.breaks }, now) ??
        now,
      now,
    ),
  };
}

/** The last sign of life and the silence since, as of `now`. */
function signs(lastSignMs: number, now: number): { lastSignMs: number; silenceSeconds: number } {
  return { lastSignMs, silenceSeconds: Math.floor(Math.max(0, now - lastSignMs) / 1000) };
}

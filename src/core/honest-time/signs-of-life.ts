/** Signs of life (the start, checkpoints, this app's ticks) and the time studied between them. */
import { MINUTE_MS } from "../time";

/** A session as the honest-time rules see it (docs/architecture.md, end). */
export interface EndAtSession {
  startedMs: number;
  /** Last checkpoint as recorded (null: none valid); the last sign of life is derived from it. */
  lastCheckpointMs: number | null;
  pausedMs: number | null;
  breakMinutes: number;
}

/** The later of the start and the last checkpoint; null when neither is valid. */
export function lastSignOfLife(session: { startedMs: number | null; lastCheckpointMs: number | null }): number | null {
  const { startedMs, lastCheckpointMs } = session;
  if (startedMs === null) return lastCheckpointMs;
  if (lastCheckpointMs === null) return startedMs;
  return Math.max(startedMs, lastCheckpointMs);
}

/** The last sign of life of a session being ended: its start when nothing later was recorded. */
export function lastSignOf(session: EndAtSession): number {
  return lastSignOfLife(session) ?? session.startedMs;
}

/** For the timer and status: time studied so far, frozen at `paused_at` while paused. */
export function studiedMs(
  session: { startedMs: number; breakMinutes: number; pausedMs: number | null },
  now: number,
): number {
  const until = session.pausedMs ?? now;
  return Math.max(0, until - session.startedMs - session.breakMinutes * MINUTE_MS);
}

import type { Draft } from "../records";

export const DEFAULT_GRACE_MS = 15 * 60_000;

/** Whether a record's device is this one; a record that names none (an older tool's) counts as this device's. */
export function isThisDevice(recorded: string | null, device: string): boolean {
  return recorded === null || recorded === device;
}

/**
 * A draft is alive elsewhere when another device wrote it and checkpointed it within the grace period
 * (docs/architecture.md, open vault). Nothing on this device touches such a draft unless the user chose it.
 */
export function isAliveElsewhere(draft: Draft, device: string, now: number, graceMs: number): boolean {
  if (isThisDevice(draft.device, device)) return false;
  // A checkpoint far in the future (a clock that was ahead) is no sign of life (contract §4 end, version 3).
  return checkpointedWithin(draft.lastCheckpointMs, now, graceMs);
}

/**
 * Whether a session checkpointed at `lastCheckpointMs` still counts as running: its last checkpoint is within
 * the grace period of now, on either side (a clock a little ahead on another device is not "silent").
 */
export function checkpointedWithin(lastCheckpointMs: number | null, now: number, graceMs: number): boolean {
  return lastCheckpointMs !== null && Math.abs(now - lastCheckpointMs) <= graceMs;
}

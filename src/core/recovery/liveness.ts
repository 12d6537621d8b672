import type { Draft } from "../records/records";

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
  if (draft.lastCheckpointMs === null) return false;
  const age = now - draft.lastCheckpointMs;
  // Ahead of this clock: another device's clock may be hours off while it runs (a phone 6 h ahead), so such a
  // draft is left alone; a checkpoint more than a day ahead is no sign of life (contract §4 end, version 3).
  return age <= graceMs && age >= -AHEAD_ALIVE_MS;
}

/** How far ahead of this clock another device's checkpoint may lie and still mean "running there". */
export const AHEAD_ALIVE_MS = 24 * 60 * 60_000;

/**
 * Whether a session checkpointed at `lastCheckpointMs` still counts as running: its last checkpoint is within
 * the grace period of now, on either side (a clock a little ahead on another device is not "silent").
 */
export function checkpointedWithin(lastCheckpointMs: number | null, now: number, graceMs: number): boolean {
  return lastCheckpointMs !== null && Math.abs(now - lastCheckpointMs) <= graceMs;
}

import type { ConfirmedSession } from "../records";

/** Which confirmed session absorbed each draft ID (its `absorbed_drafts`); the first one wins. */
export function absorbedBy(confirmed: readonly ConfirmedSession[]): Map<string, ConfirmedSession> {
  const map = new Map<string, ConfirmedSession>();
  for (const session of confirmed) for (const id of session.absorbedDrafts) if (!map.has(id)) map.set(id, session);
  return map;
}

/**
 * Drafts named by more than one confirmed note: the same sitting saved twice (two devices ended or saved it
 * before sync carried the first note across, or a copy of a note). A confirmed note is never deleted, so
 * they are only reported by name, for the learner to keep one.
 */
export function duplicateSaves(confirmed: readonly ConfirmedSession[]): string[] {
  const savers = new Map<string, ConfirmedSession[]>();
  for (const session of confirmed) {
    for (const id of new Set(session.absorbedDrafts)) savers.set(id, [...(savers.get(id) ?? []), session]);
  }
  const warnings: string[] = [];
  for (const [id, sessions] of savers) {
    if (sessions.length < 2) continue;
    const paths = sessions.map((s) => s.path).sort();
    warnings.push(
      `${paths.join(" and ")} both record the session ${id} (saved twice, e.g. on two devices at once); ` +
        "keep one and delete the others by hand",
    );
  }
  return warnings.sort();
}

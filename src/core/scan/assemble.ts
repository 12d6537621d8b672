import { sessionPath } from "../records/layout";
import type { Layout } from "../records/layout";
import type { ConfirmedSession, Skipped } from "../records/records";
import { compareNewestFirst } from "../records/records";
import { NOT_A_SESSION } from "./names";
import type { DraftsRead } from "./read";
import type { Assembled, Scan } from "./scan";

/**
 * The confirmed sessions, newest first, from every confirmed note's outcome: unusable notes and the losing
 * file of two that claim one session_id (e.g. a sync-conflict copy) are skipped. The result is shared by
 * later scans while nothing changes: callers never modify it.
 */
export function assemble(outcomes: Iterable<ConfirmedSession | Skipped>): Assembled {
  const { kept, skipped } = oneFilePerId(outcomes);
  const confirmed = kept.sort(compareNewestFirst);
  return { confirmed, skipped, warnings: confirmed.flatMap((s) => s.fieldWarnings ?? []) };
}

/**
 * One file per session_id: of the files that claim one ID, the one named after the ID (else the first by path)
 * is kept, and each other is skipped naming it; unusable notes pass through as skipped. Neither the choice nor
 * the reasons depend on the order the files were read in. Generic, so that a scan keeping only each note's key
 * (key-scan.ts) keeps exactly the files assemble keeps.
 */
export function oneFilePerId<T extends { sessionId: string; path: string }>(
  outcomes: Iterable<T | Skipped>,
): { kept: T[]; skipped: Skipped[] } {
  const byId = new Map<string, T>();
  const skipped: Skipped[] = [];
  const losers: T[] = [];
  for (const outcome of outcomes) {
    if ("reason" in outcome) {
      skipped.push(outcome);
      continue;
    }
    const other = byId.get(outcome.sessionId);
    if (other && !before(outcome, other)) {
      losers.push(outcome);
      continue;
    }
    if (other) losers.push(other);
    byId.set(outcome.sessionId, outcome);
  }
  for (const dropped of losers) {
    const kept = byId.get(dropped.sessionId) as T;
    skipped.push({ path: dropped.path, reason: `duplicate session_id ${dropped.sessionId} (also in ${kept.path})` });
  }
  return { kept: [...byId.values()], skipped };
}

/** Whether `a` is kept over `b`, two files of one session_id: named after the ID first, then by path. */
function before(a: { sessionId: string; path: string }, b: { path: string }): boolean {
  const ownName = `/${a.sessionId}.md`;
  const aNamed = a.path.endsWith(ownName);
  const bNamed = b.path.endsWith(ownName);
  return aNamed !== bNamed ? aNamed : a.path < b.path;
}

/** The scan from the confirmed notes' outcomes, the drafts read, and the names that are not session files. */
export function scanOf(
  layout: Layout,
  assembled: Assembled,
  read: DraftsRead,
  otherNames: Iterable<string>,
  /** Session files named by strays.ts: placeholders not downloaded, notes moved into a subfolder. */
  strays: readonly Skipped[] = [],
): Scan {
  const skipped = [...assembled.skipped, ...read.skipped, ...strays];
  for (const name of otherNames) skipped.push({ path: sessionPath(layout, name), reason: NOT_A_SESSION });
  return {
    confirmed: assembled.confirmed,
    drafts: read.drafts,
    draftFiles: new Set(read.names.map((n) => n.slice(0, -3))),
    skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    warnings: [...assembled.warnings, ...read.drafts.flatMap((d) => d.fieldWarnings ?? [])],
  };
}

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
  const byId = new Map<string, ConfirmedSession>();
  const skipped: Skipped[] = [];
  for (const outcome of outcomes) {
    if ("reason" in outcome) {
      skipped.push(outcome);
      continue;
    }
    const session = outcome;
    const other = byId.get(session.sessionId);
    if (!other) {
      byId.set(session.sessionId, session);
      continue;
    }
    // Keep the one named after the ID (else the first by path, so the choice never depends on the order
    // the files were read in).
    const ownName = `/${session.sessionId}.md`;
    const newNamed = session.path.endsWith(ownName);
    const otherNamed = other.path.endsWith(ownName);
    const keepNew = newNamed !== otherNamed ? newNamed : session.path < other.path;
    const [kept, dropped] = keepNew ? [session, other] : [other, session];
    byId.set(session.sessionId, kept);
    skipped.push({ path: dropped.path, reason: `duplicate session_id ${session.sessionId} (also in ${kept.path})` });
  }
  const confirmed = [...byId.values()].sort(compareNewestFirst);
  return { confirmed, skipped, warnings: confirmed.flatMap((s) => s.fieldWarnings ?? []) };
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

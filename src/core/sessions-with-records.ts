/**
 * The session operations plus the whole-record reads only the CLI and `palee mcp` offer (contract §4b: show,
 * latest, and the Summary and Next action of each listed session). They live in this subclass, which the
 * plugin never builds, so main.js does not carry them (as with `recentList`, sessions.ts).
 */
import type { BriefSession } from "./brief";
import type { ShowResult } from "./operations/brief";
import { latest, sessionDetails, show } from "./operations/brief";
import type { ConfirmedSession } from "./records";
import { PaleeSessions } from "./sessions";

export class SessionsWithRecords extends PaleeSessions {
  /** One confirmed session or draft, whole; no_such_session for an unknown or malformed ID. */
  show(id: string): Promise<ShowResult> {
    return show(this.context, id);
  }

  /** The newest confirmed session (of the topic), whole; null when there is none. */
  latest(topic?: string | null): Promise<ShowResult | null> {
    return latest(this.context, topic);
  }

  /** The Summary and Next action of each session, read from its note (list --json). */
  sessionDetails(sessions: readonly ConfirmedSession[]): Promise<BriefSession[]> {
    return sessionDetails(this.context, sessions);
  }
}

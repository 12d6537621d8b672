import type { Layout } from "../layout";
import type { CorePorts } from "../ports";
import type { ConfirmedSession } from "../records";
import { DEFAULT_GRACE_MS, absorbedBy } from "../recovery";
import type { Scan } from "../scan";
import { ScanCache, scanSessions } from "../scan";
import { renderIndexLine } from "../session-index";

export interface SessionsOptions {
  /** How long a silent session still counts as running on its device; default 15 minutes. */
  graceMs?: number;
  /**
   * What rebuild does first about temp files left by killed writes: `trashStaleTempFiles` (temp-files.ts)
   * where the store writes them (the CLI). Passed in, so main.js, whose vault writes none, does not carry it.
   */
  tempFiles?: (ports: CorePorts, layout: Layout) => Promise<string[]>;
}

/**
 * What every operation works over: the ports, where the files are, the grace period, and the scans of one
 * PaleeSessions (their cache and memos make a repeated scan cheap). The shared write helpers take it too.
 */
export interface SessionContext {
  readonly ports: CorePorts;
  readonly layout: Layout;
  readonly graceMs: number;
  /** Rebuild's temp-file sweep (SessionsOptions.tempFiles), if this face passes one. */
  readonly tempFiles?: (ports: CorePorts, layout: Layout) => Promise<string[]>;
  /** The local UTC offset at an instant, in minutes: how timestamps are read and written. */
  readonly offsetAt: (at: number) => number;
  /** Scans the session folder; scans run one at a time, since they share one cache. */
  readonly scan: () => Promise<Scan>;
  /** absorbedBy, once per list of confirmed sessions (an unchanged scan hands out the same list). */
  readonly absorbedIn: (confirmed: readonly ConfirmedSession[]) => Map<string, ConfirmedSession>;
  /** index.md's line for a session, once per record (the scan memo hands out the same records). */
  readonly indexLine: (session: ConfirmedSession) => string;
}

export function createSessionContext(ports: CorePorts, layout: Layout, options: SessionsOptions = {}): SessionContext {
  const offsetAt = (at: number): number => ports.clock.offsetMinutes(at);
  const cache = new ScanCache();
  let scans: Promise<unknown> = Promise.resolve();
  const absorbed = new WeakMap<readonly ConfirmedSession[], Map<string, ConfirmedSession>>();
  const lines = new WeakMap<ConfirmedSession, string>();
  return {
    ports,
    layout,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    tempFiles: options.tempFiles,
    offsetAt,
    scan: () => {
      const result = scans.then(() => scanSessions(ports.store, layout, offsetAt, cache, ports.clock.now()));
      scans = result.catch(() => undefined);
      return result;
    },
    absorbedIn: (confirmed) => {
      let map = absorbed.get(confirmed);
      if (!map) absorbed.set(confirmed, (map = absorbedBy(confirmed)));
      return map;
    },
    indexLine: (session) => {
      let line = lines.get(session);
      if (line === undefined) lines.set(session, (line = renderIndexLine(session)));
      return line;
    },
  };
}

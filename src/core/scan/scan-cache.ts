import type { ConfirmedSession, Skipped } from "../records/records";
import type { ScanMemo } from "./cached";
import type { Assembled } from "./scan";

/**
 * What one scan learned, kept by its owner (one PaleeSessions; no module-level state) so the next scan only
 * looks again at the files the store reports as changed (SessionStore.changesSince). Without that report
 * every scan reads the whole folder.
 */
export class ScanCache {
  /** The store's change token as of the last scan (null: nothing known yet). */
  token: number | null = null;
  readonly draftNames = new Set<string>();
  /** Names that are not session files (reported as skipped). */
  readonly otherNames = new Set<string>();
  /** iCloud placeholders of session files (reported as skipped: not downloaded). */
  readonly placeholderNames = new Set<string>();
  /** Each confirmed note's outcome at the last scan, by file name. */
  readonly confirmed = new Map<string, ConfirmedSession | Skipped>();
  /** Interpreted sessions by the metadata cache's frontmatter object (same object: same content). */
  readonly memo: ScanMemo = new WeakMap();
  /** The confirmed list and its duplicate-ID skips as of the last scan; null when it must be rebuilt. */
  assembled: Assembled | null = null;
  /** Every session_id in `assembled` (new notes are inserted into it only when their ID is new). */
  ids = new Set<string>();

  clear(): void {
    this.draftNames.clear();
    this.otherNames.clear();
    this.placeholderNames.clear();
    this.confirmed.clear();
    this.assembled = null;
    this.ids = new Set();
  }
}

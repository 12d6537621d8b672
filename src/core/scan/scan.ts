import type { ConfirmedSession, Draft, Skipped } from "../records/records";

/** What the sessions folder holds. Every file that could not be used is in `skipped`, by name. */
export interface Scan {
  /** Newest first. */
  confirmed: ConfirmedSession[];
  /** Oldest first. */
  drafts: Draft[];
  /** IDs (file names without .md) of every draft file present, readable or not. */
  draftFiles: Set<string>;
  skipped: Skipped[];
  /** Damaged optional fields of usable records (paused_at, break_minutes): read as absent, reported here. */
  warnings: string[];
  /**
   * Set when `confirmed` holds only the notes that may have absorbed a draft (scanRecentSessions): the file
   * names of every confirmed note in the folder, which the views are then checked against.
   */
  partial?: { names: readonly string[] };
}

/** The confirmed list and its duplicate-ID skips, as assembled from every confirmed note's outcome. */
export interface Assembled {
  confirmed: ConfirmedSession[];
  skipped: Skipped[];
  warnings: string[];
}

/**
 * How a face reads the session folder for its device memory (the CLI: src/node/folder-reading.ts through
 * NodeStore): the times of some names, and the folder by one typed listing or by its names alone. Types only.
 */

/** A name's modification time (epoch ms), or: no such file, or the store cannot tell (then it is read). */
export type TimeOf = number | "missing" | "untold";

/** How the face asks for the modification times of names directly inside a folder (following links), in order. */
export type TimesOf = (folder: string, names: readonly string[]) => Promise<TimeOf[]>;

/** A folder's files (as SessionStore.list) and subfolders (as SessionStore.folders) from one reading of it. */
export type Listing = (folder: string) => Promise<{ files: string[]; folders: string[] }>;

/**
 * A folder read by its names alone, and then asked what some of them are: cheaper than a listing that tells
 * every entry's kind, as the names the folder summary vouches for need not be asked (docs/performance.md).
 */
export interface FolderReading {
  /** The folder's files and subfolders told apart by one reading: for when the summary cannot vouch. */
  listing: Listing;
  /** The names of every entry of the folder, files and subfolders alike. */
  names: (folder: string) => Promise<string[]>;
  /**
   * Which of `names` (entries of `folder`) are files and which subfolders, order kept; a name gone is neither.
   * With `times`, the files' modification times told by the same asking, as TimesOf tells them: learned.
   */
  kinds: (
    folder: string,
    names: readonly string[],
  ) => Promise<{ files: string[]; folders: string[]; times?: ReadonlyMap<string, number> }>;
}

/**
 * Reading one folder of the vault for a scan, as NodeStore answers it: its files and subfolders from one
 * readdir (or its names alone, and then what some of them are), and its files' modification times (the
 * device memory's, src/cli/device-memory/open-memory.ts).
 */
import type { Stats } from "node:fs";
import { lstatSync, statSync } from "node:fs";
import * as fs from "./async-fs";
import * as path from "node:path";
import type { TimeOf } from "../core/device-memory/folder-reading";

/**
 * The files (symbolic links too, unless they lead to a folder: a read then follows one inside the vault and
 * refuses one leading out by name, so scans skip it with a warning, never silently) and the subfolders of `dir`.
 */
export async function readListing(dir: string): Promise<FolderListing> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  const folders: string[] = [];
  for (const e of entries) {
    if (e.isFile() || (e.isSymbolicLink() && !linksToFolder(dir, e.name))) files.push(e.name);
    else if (e.isDirectory()) folders.push(e.name);
  }
  return { files, folders };
}

const linksToFolder = (dir: string, name: string): boolean =>
  statSync(path.join(dir, name), { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * The names of `dir`'s entries, without what each is: no entry object per name, cheaper than readListing for a
 * large folder in a fresh process (docs/performance.md "Names without types").
 */
export function readNames(dir: string): Promise<string[]> {
  return fs.readdir(dir);
}

/** A folder's files and subfolders, as readListing tells them. */
export interface FolderListing {
  files: string[];
  folders: string[];
}

/**
 * A folder read before the store was asked (the CLI's early listing): by its names alone (`names`), or by its
 * files and subfolders (`listing`, for a call that will find no folder summary to vouch for names); the one read
 * resolves to null when it failed (the store then reads the folder itself and reports why).
 */
export interface EarlyFolder {
  /** The folder read (absolute, as NodeStore resolves it). */
  readonly folder: string;
  /** When the reading began (monotonicMs()). */
  readonly began: number;
  readonly names: Promise<string[] | null> | null;
  readonly listing: Promise<FolderListing | null> | null;
}

/**
 * How old an early listing may be when it is asked for: a listing is usually far younger; a call that waits longer (for
 * its standard input, or for the lock) lists the folder again, so that what it sees is as fresh as before.
 */
export const EARLY_NAMES_MAX_MS = 250;

/** Which of a folder's names are files and which subfolders, and the files' modification times told along. */
export interface FolderKinds extends FolderListing {
  /** Each file's modification time (epoch ms), following a link as statTimes does; a file not told is left out. */
  times: Map<string, number>;
}

/**
 * Which of `names` (entries of `dir`) are files and which subfolders, as readListing tells them, each asked of
 * the file system (lstat; a link's target with stat); a name gone meanwhile is neither. Order kept. The same
 * stat tells a file's modification time, as statTimes would (the device memory learns it).
 */
export function kindsOf(dir: string, names: readonly string[]): FolderKinds {
  const files: string[] = [];
  const folders: string[] = [];
  const times = new Map<string, number>();
  const prefix = inFolder(dir);
  for (const name of names) {
    const file = prefix + name;
    let stat: Stats | undefined;
    let target: Stats | undefined; // a link's
    try {
      stat = lstatSync(file, { throwIfNoEntry: false });
      if (stat?.isSymbolicLink()) target = statSync(file, { throwIfNoEntry: false });
    } catch {
      files.push(name); // cannot be told (a folder listed but not searchable): its read says so, by name
      continue;
    }
    if (stat === undefined) continue;
    if (stat.isDirectory()) folders.push(name);
    else if (stat.isFile() || (stat.isSymbolicLink() && target?.isDirectory() !== true)) {
      files.push(name); // a link to a folder is neither (as readListing); a dangling one is a file
      const told = stat.isFile() ? stat : target?.isFile() ? target : undefined;
      if (told) times.set(name, told.mtimeMs);
    }
  }
  return { files, folders, times };
}

/**
 * Each name's modification time in `dir`, in the order of `names`, following a link as NodeStore.changedAmong
 * does: "missing" when it is gone, "untold" when it cannot be told. Synchronous, like changedAmong: one stat per
 * name, no thread-pool round trip each.
 */
export function statTimes(dir: string, names: readonly string[]): TimeOf[] {
  const prefix = inFolder(dir);
  return names.map((name) => {
    try {
      const stat = statSync(prefix + name, { throwIfNoEntry: false });
      return stat ? stat.mtimeMs : "missing";
    } catch {
      return "untold";
    }
  });
}

/**
 * The prefix that makes a name listed in `dir` (one path component: no separator, never "." or "..") its path:
 * path.join's normalising walk, once per name, was a third of a cold call's stat of every note (issue 36).
 */
function inFolder(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

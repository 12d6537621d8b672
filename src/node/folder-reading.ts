/**
 * Reading one folder of the vault for a scan, as NodeStore answers it: its files and subfolders from one
 * readdir, and its files' modification times (the device-local scan cache's, src/cli/cache.ts).
 */
import { promises as fs, statSync } from "node:fs";
import * as path from "node:path";
import type { TimeOf } from "../core/scan/remembered-times";

/**
 * The files (symbolic links too, unless they lead to a folder: a read then follows one inside the vault and
 * refuses one leading out by name, so scans skip it with a warning, never silently) and the subfolders of `dir`.
 */
export async function readListing(dir: string): Promise<{ files: string[]; folders: string[] }> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const linkToFolder = (name: string): boolean =>
    statSync(path.join(dir, name), { throwIfNoEntry: false })?.isDirectory() === true;
  const files: string[] = [];
  const folders: string[] = [];
  for (const e of entries) {
    if (e.isFile() || (e.isSymbolicLink() && !linkToFolder(e.name))) files.push(e.name);
    else if (e.isDirectory()) folders.push(e.name);
  }
  return { files, folders };
}

/**
 * Each name's modification time in `dir`, in the order of `names`, following a link as NodeStore.changedAmong
 * does: "missing" when it is gone, "untold" when it cannot be told. Synchronous, like changedAmong: one stat per
 * name, no thread-pool round trip each.
 */
export function statTimes(dir: string, names: readonly string[]): TimeOf[] {
  return names.map((name) => {
    try {
      const stat = statSync(path.join(dir, name), { throwIfNoEntry: false });
      return stat ? stat.mtimeMs : "missing";
    } catch {
      return "untold";
    }
  });
}

import { lstatSync } from "node:fs";

/**
 * How long after its last write a file's identity is told (fileKeyAt): longer than the coarsest clock tick of a
 * file system in use (FAT's two seconds), so that no later write can leave the times as they were.
 */
export const FRESH_MS = 3000;

/**
 * The identity of the plain file at `absolute`, for the recent notes kept by it (core/device-memory/kept-fields.ts):
 * device, inode, size, modification and status-change times, as git tells a file unchanged. Null for no file,
 * a link, one that cannot be told, or one written less than FRESH_MS ago (or dated ahead of this clock): a
 * write within the same tick of the file system's clock would leave the same times, so such a file is told
 * only once it is older than any tick. Never throws.
 */
export function fileKeyAt(absolute: string): string | null {
  let stat;
  try {
    stat = lstatSync(absolute, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!stat?.isFile()) return null;
  const settled = Date.now() - FRESH_MS;
  if (!(stat.mtimeMs <= settled && stat.ctimeMs <= settled)) return null;
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

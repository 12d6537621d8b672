/**
 * The vault's trash for the Node store (contract §4 deletion boundary): a file is moved, never deleted, into the
 * vault's `.trash/` under a free name, and never through a link that leads out of the vault.
 */
import { constants as fsConstants } from "node:fs";
import * as fs from "./async-fs";
import * as path from "node:path";
import { BoundaryError, LinkOutsideVaultError } from "../core/errors";
import { isErrno, naming } from "./store-errors";

/** Whether `real` (a real path) is the vault's real root or inside it. */
export function isInside(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot + path.sep);
}

/** Moves the file at `absolute` (the store's checked path of `relative` under `root`) into the vault's trash. */
export async function moveToTrash(root: string, relative: string, absolute: string): Promise<void> {
  // The file itself must be a regular file (not a symlink) whose real folder lies inside the vault.
  const stat = await fs.lstat(absolute);
  if (!stat.isFile()) throw new BoundaryError(relative);
  const realParent = await fs.realpath(path.dirname(absolute));
  const realRoot = await fs.realpath(root);
  // The folder may be reached through a symlink that stays inside the vault, never one that leaves it.
  if (!isInside(realRoot, realParent)) throw new BoundaryError(relative);
  const trashDir = await trashFolder(root, relative, realRoot);
  // "DRAFT-S-….md" → "DRAFT-S-… 1.md"; a temp file ".hot.md.1a2b3c4d.tmp" keeps its ".tmp" the same way.
  const ext = path.extname(absolute);
  const base = path.basename(absolute, ext);
  for (let n = 0; n < 1000; n++) {
    const target = path.join(trashDir, n === 0 ? `${base}${ext}` : `${base} ${n}${ext}`);
    try {
      await fs.link(absolute, target); // never overwrites something already in the trash
    } catch (error) {
      if (isErrno(error, "EEXIST")) continue;
      if (!isErrno(error, "EPERM") && !isErrno(error, "ENOTSUP") && !isErrno(error, "EXDEV")) throw error;
      // A file system without hard links: an exclusive copy, which also never overwrites.
      try {
        await fs.copyFile(absolute, target, fsConstants.COPYFILE_EXCL);
      } catch (inner) {
        if (isErrno(inner, "EEXIST")) continue;
        throw inner;
      }
    }
    try {
      await fs.unlink(absolute);
    } catch (error) {
      // The draft stays (e.g. not removable here): take its copy back, so each retry does not add one.
      await fs.rm(target, { force: true });
      throw error;
    }
    return;
  }
  throw new Error(`could not find a free name in ${trashDir} for ${relative}`);
}

/**
 * The vault's `.trash/`, made when missing. A `.trash` that is a symbolic link leading out of the vault (or
 * nowhere) is refused: the file stays where it is (contract §4 deletion boundary). A file where the folder
 * belongs is named as `.trash`, not as the file being moved.
 */
async function trashFolder(root: string, relative: string, realRoot: string): Promise<string> {
  const trashDir = path.join(root, ".trash");
  if ((await fs.lstat(trashDir).catch(() => null))?.isSymbolicLink() === true) {
    const real = await fs.realpath(trashDir).catch(() => null);
    if (real === null || !isInside(realRoot, real)) {
      throw new LinkOutsideVaultError(
        ".trash",
        `.trash is a symbolic link leading out of the vault: refused to move ${relative} there, ` +
          "so it stays where it is (remove the link; the trash folder is then made inside the vault)",
      );
    }
  }
  const name = `.trash/${path.basename(relative)}`;
  await naming(root, name, () => fs.mkdir(trashDir, { recursive: true }));
  return trashDir;
}

/**
 * Where the vault lock lives (contract §4 "One at a time"): one place per vault and user on a machine,
 * whatever the environment says. PALEE_CACHE_DIR, XDG_CACHE_HOME, HOME and TMPDIR are all left out: an MCP host
 * started from the desktop and a terminal often see different ones, and two locks for one vault let two
 * writers in (issue 35). Outside the vault, since a lock must never sync to another device.
 *
 *   POSIX    /tmp/palee-<uid>/            the one temporary folder every process of the machine shares (tmpfs
 *                                         on most systems: emptied at boot, when every holder is gone anyway)
 *   Windows  <profile>\AppData\Local\palee\locks\   the profile as the account database names it, not %USERPROFILE%
 *
 * and in it, per vault, `<first 16 hex digits of the SHA-256 of the vault's real path>.lock` (the lock file,
 * lock.ts) and `.token` beside it (the writers' token, lock.ts writerToken). The folder is the user's own
 * (mode 0700); one made by someone else, or writable by others, is refused rather than trusted.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import * as path from "node:path";
import { UsageError } from "../core/errors";

/** The folder of this user's vault locks; depends on the platform and the user, never on the environment. */
export function lockRoot(platform: NodeJS.Platform = process.platform): string {
  if (platform === "win32") {
    let profile: string;
    try {
      profile = userInfo().homedir;
    } catch {
      profile = homedir();
    }
    return path.join(profile, "AppData", "Local", "palee", "locks");
  }
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  return `/tmp/palee-${uid}`;
}

/** The lock file and the writers' token of the vault whose real path is `realVault`. */
export function lockFilesOf(realVault: string, root: string = lockRoot()): { lock: string; token: string } {
  const name = createHash("sha256").update(realVault).digest("hex").slice(0, 16);
  return { lock: path.join(root, `${name}.lock`), token: path.join(root, `${name}.token`) };
}

function refuse(message: string): never {
  throw new UsageError(message, "cache_dir");
}

/** Whether `inner` is `outer` or lies under it (both absolute, already resolved). */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * The lock folder, made when missing and checked: a folder (not a link), this user's own, writable by no one
 * else, and not inside the vault at `realVault`. Refused with one clear message otherwise.
 */
export function ensureLockRoot(realVault: string, root: string = lockRoot()): string {
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as { code?: string }).code ?? String(error);
    refuse(`cannot create the vault lock folder ${root} (${code})`);
  }
  const stat = lstatSync(root);
  if (!stat.isDirectory()) refuse(`the vault lock folder ${root} is not a folder: remove it`);
  if (process.platform !== "win32") {
    const uid = typeof process.getuid === "function" ? process.getuid() : stat.uid;
    if (stat.uid !== uid || (stat.mode & 0o022) !== 0) {
      refuse(
        `the vault lock folder ${root} is not this user's own (owner ${stat.uid}, mode ` +
          `${(stat.mode & 0o777).toString(8)}): remove it, and palee makes it anew`,
      );
    }
  }
  if (within(realpathSync(root), realVault)) {
    refuse(
      `the vault lock folder ${root} is inside the vault ${realVault}, where it would sync: open a vault below it`,
    );
  }
  return root;
}

/**
 * Where the CLI keeps what belongs to this device and one vault, never to the vault itself: the vault syncs to
 * other devices, a device-local cache must not. One folder per vault, under the platform's cache folder: the
 * device memory (device-memory/, `note-times.txt` and the others). Not the vault lock: it must be one per vault
 * whatever the environment says, so it has a place of its own (lock-place.ts).
 *
 *   Linux and others  $XDG_CACHE_HOME/palee (an absolute one), else ~/.cache/palee
 *   macOS             ~/Library/Caches/palee
 *   Windows           %LOCALAPPDATA%\palee\Cache, else ~\AppData\Local\palee\Cache
 *   any               $PALEE_CACHE_DIR when set (an absolute path): used as the palee cache folder itself
 *
 * and in it `vaults/<first 16 hex digits of the SHA-256 of the vault's real path>/`: every path that leads to
 * one vault (a symlink, a relative path, a trailing slash) names the same folder.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as fs from "../node/async-fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { UsageError } from "../core/errors";

/** The palee cache folder of this device (not yet created), or a refusal saying how to choose one. */
export function cacheRoot(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const override = env.PALEE_CACHE_DIR;
  if (override !== undefined && override !== "") {
    if (!path.isAbsolute(override)) {
      throw new UsageError(`PALEE_CACHE_DIR must be an absolute path (it is "${override}")`, "cache_dir");
    }
    return path.resolve(override);
  }
  if (platform === "win32" && env.LOCALAPPDATA && path.isAbsolute(env.LOCALAPPDATA)) {
    return path.join(env.LOCALAPPDATA, "palee", "Cache");
  }
  // XDG: a relative $XDG_CACHE_HOME is invalid and ignored.
  if (platform !== "win32" && platform !== "darwin" && env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) {
    return path.join(env.XDG_CACHE_HOME, "palee");
  }
  const home = (platform === "win32" ? env.USERPROFILE : env.HOME) || homedir();
  if (!home || !path.isAbsolute(home)) {
    throw new UsageError(
      "no home folder to keep the device-local cache in: set PALEE_CACHE_DIR to a folder outside the vault",
      "cache_dir",
    );
  }
  if (platform === "win32") return path.join(home, "AppData", "Local", "palee", "Cache");
  if (platform === "darwin") return path.join(home, "Library", "Caches", "palee");
  return path.join(home, ".cache", "palee");
}

/** The state folder of the vault whose real path is `realVault`, under the palee cache folder `root` (cacheRoot). */
export const stateDirOf = (realVault: string, root: string): string =>
  path.join(root, "vaults", createHash("sha256").update(realVault).digest("hex").slice(0, 16));

/** The device memory's files (device-memory/file-names.ts MEMORY_FILES) lie in the vault's state folder. */

/** The text of `file`, or null when there is none (the lock's token; early-listing.ts). Throws on anything else. */
export function textIfAny(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") return null;
    throw error;
  }
}

/** Whether `inner` is `outer` or lies under it (both absolute, already resolved). */
function within(inner: string, outer: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** The real path of `p`: of its deepest existing ancestor, with the parts that do not exist yet appended. */
async function realPathOfPossiblyMissing(p: string): Promise<string> {
  const missing: string[] = [];
  let current = p;
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...missing);
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      missing.unshift(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Where the state folder of the vault at `vaultRoot` (absolute) is, and the vault's real path; not created.
 * Refused when it would lie inside the vault (it would sync).
 */
export async function vaultStatePath(
  vaultRoot: string,
  env: NodeJS.ProcessEnv,
): Promise<{ dir: string; realVault: string }> {
  const realVault = await fs.realpath(vaultRoot);
  const root = cacheRoot(env);
  const dir = stateDirOf(realVault, root);
  if (within(await realPathOfPossiblyMissing(dir), realVault)) {
    throw new UsageError(
      `the cache folder ${root} is inside the vault, where it would sync to other devices: ` +
        "set PALEE_CACHE_DIR to a folder outside the vault",
      "cache_dir",
    );
  }
  return { dir, realVault };
}

/**
 * The state folder of the vault at `vaultRoot` (absolute), created (owner only) when missing. Refused when it
 * would lie inside the vault (it would sync), or cannot be created.
 */
export async function vaultStateDir(vaultRoot: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { dir } = await vaultStatePath(vaultRoot, env);
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const reason = (error as { code?: string }).code ?? String(error);
    throw new UsageError(
      `cannot create the cache folder ${dir} (${reason}): set PALEE_CACHE_DIR to a writable folder outside the vault`,
      "cache_dir",
    );
  }
  return dir;
}

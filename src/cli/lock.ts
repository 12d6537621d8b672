/**
 * The vault lock (contract §4 "One at a time"): every writing CLI action holds it for its whole operation, so
 * processes of one machine (two terminals, an agent hook and the learner, parallel agents) never interleave
 * their writes on one vault. It is a proper-lockfile lock directory, `write.lock`, in the vault's state folder
 * outside the vault (state-dir.ts): it must never sync to another device.
 *
 * - A lock whose holder was killed is taken over: a live holder refreshes the directory's mtime every
 *   `UPDATE_MS`, and one left alone for `STALE_MS` is stale.
 * - A writer waits up to `DEFAULT_WAIT_MS` (PALEE_LOCK_WAIT_MS overrides it: a test and tuning knob), then
 *   refuses `busy` (exit 4) having written nothing.
 * - Losing the lock while holding it (the process was frozen past the stale time, the folder was removed) does
 *   not crash the operation, which is crash-safe on its own; the CLI warns once when it is done.
 * - Holding it, a writer first puts a new token in `write.token` beside it (writerToken), before it writes
 *   anything: the session folder as read when the process began is then used only if no writer has held the
 *   lock since (early-listing.ts).
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { BusyError, UsageError } from "../core/errors";
import { LOCK_NAME, TOKEN_NAME, textIfAny, vaultStateDir } from "./state-dir";

export const DEFAULT_WAIT_MS = 10_000;
export const STALE_MS = 5_000;
export const UPDATE_MS = 1_000;
export { LOCK_NAME } from "./state-dir";

export interface VaultLock {
  /** Where the lock directory is (absolute). */
  readonly path: string;
  /** Releases the lock; never throws (a lock already lost has nothing to release). */
  release: () => Promise<void>;
  /** Why the lock was lost while held, or null while it is still ours. */
  compromised: () => string | null;
  /** The writers' token as the last holder left it (null: none yet), and where it is (writerToken). */
  readonly token: { readonly path: string; readonly before: string | null };
}

/**
 * Puts a new token in `file` and returns the one there before (null when there was none). Every writer does
 * this as soon as it holds the lock, before it writes anything, so that a token read while the lock was free
 * is still there only if no writer has held the lock since (early-listing.ts). Throws when it cannot.
 */
export function writerToken(file: string): string | null {
  const before = textIfAny(file);
  writeFileSync(file, randomBytes(16).toString("hex"), { mode: 0o600 });
  return before;
}

/** The wait before `busy`, in ms: PALEE_LOCK_WAIT_MS (a whole number ≥ 0) or 10 s. */
export function lockWaitMs(env: NodeJS.ProcessEnv): number {
  const raw = env.PALEE_LOCK_WAIT_MS;
  if (raw === undefined || raw === "") return DEFAULT_WAIT_MS;
  if (!/^\d{1,7}$/.test(raw)) {
    throw new UsageError(`PALEE_LOCK_WAIT_MS must be a whole number of milliseconds (it is "${raw}")`);
  }
  return Number(raw);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Takes the lock of the vault at `vaultRoot`, waiting (polling with a little jitter, so waiters do not move in
 * step) until it is free or stale, at most the wait of `lockWaitMs`. Throws BusyError when the wait runs out.
 */
export async function lockVault(vaultRoot: string, env: NodeJS.ProcessEnv): Promise<VaultLock> {
  const waitMs = lockWaitMs(env);
  const dir = await vaultStateDir(vaultRoot, env);
  const lockPath = path.join(dir, LOCK_NAME);
  const deadline = Date.now() + waitMs;
  // Loaded here, not at the top: the read-only actions never pay for the library (and its exit hook).
  const { lock: properLock } = await import("proper-lockfile");
  let lost: string | null = null;
  for (;;) {
    let release: () => Promise<void>;
    try {
      release = await properLock(dir, {
        lockfilePath: lockPath,
        realpath: false,
        stale: STALE_MS,
        update: UPDATE_MS,
        retries: 0,
        onCompromised: (error) => {
          lost ??= error.message;
        },
      });
    } catch (error) {
      if (codeOf(error) !== "ELOCKED") {
        throw new UsageError(
          `cannot take the vault lock ${lockPath} (${codeOf(error) ?? String(error)}): ` +
            "set PALEE_CACHE_DIR to a writable folder outside the vault",
          "cache_dir",
        );
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new BusyError();
      await sleep(Math.min(left, 20 + Math.floor(Math.random() * 40)));
      continue;
    }
    const tokenPath = path.join(dir, TOKEN_NAME);
    let before: string | null;
    try {
      before = writerToken(tokenPath);
    } catch (error) {
      await release().catch(() => undefined);
      throw new UsageError(
        `cannot write the writers' token ${tokenPath} (${codeOf(error) ?? String(error)}): ` +
          "set PALEE_CACHE_DIR to a writable folder outside the vault",
        "cache_dir",
      );
    }
    return {
      path: lockPath,
      token: { path: tokenPath, before },
      release: async () => {
        if (lost !== null) return;
        await release().catch(() => undefined);
      },
      compromised: () => lost,
    };
  }
}

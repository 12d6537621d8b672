/**
 * The vault lock (contract §4 "One at a time"): every writing CLI action holds it for its whole operation, so
 * processes of one machine (two terminals, an agent hook and the learner, parallel agents) never interleave
 * their writes on one vault. One lock file per vault and user, whatever the environment (lock-place.ts).
 *
 * - Taken by creating the file exclusively with its whole record (a temp file hard-linked into place): the
 *   holder's pid, host, start identity, when, and a nonce, so the holder knows its lock by its exact text.
 * - Never taken from a live holder: liveness is the holding process's (lock-holder.ts), not a clock or a file
 *   time, so a paused holder or a clock step takes nothing. A lock whose holder is gone (exited, killed, its pid
 *   now another process) is taken over at once, whatever time it is dated.
 * - Removing a gone holder's lock is claimed first (`<lock>.claim-<hash of its text>`, created exclusively):
 *   only the claimant removes it, and only if it still holds that very text, so two waiters never both remove
 *   a lock, and neither removes the lock a third has just taken.
 * - A writer waits up to `DEFAULT_WAIT_MS` (PALEE_LOCK_WAIT_MS overrides it: a test and tuning knob), then
 *   refuses `busy` (exit 4) having written nothing, naming the lock file, its holder and its age.
 * - The holder checks the lock is still its own before each write that commits (`check`, NodeStore's guard):
 *   one that finds it gone (removed by hand, a holder judged from elsewhere) writes nothing more and exits 4.
 * - Holding it, a writer first puts a new token in the token file beside it (writerToken), before it writes
 *   anything: the session folder as read when the process began is then used only if no writer has held the
 *   lock since (early-listing.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, linkSync, openSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { unlinkSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import * as path from "node:path";
import { BusyError, LockLostError, UsageError } from "../core/errors";
import type { HolderRecord } from "./lock-holder";
import { holderText, liveness, parseRecord, processStart } from "./lock-holder";
import { ensureLockRoot, lockFilesOf } from "./lock-place";
import { textIfAny } from "./state-dir";

export const DEFAULT_WAIT_MS = 10_000;

export interface VaultLock {
  /** Where the lock file is (absolute). */
  readonly path: string;
  /** Releases the lock if it is still ours; never throws. */
  release: () => Promise<void>;
  /** Throws BusyError (exit 4) unless the lock is still ours: called before each write that commits. */
  check: () => void;
  /** Why the lock was found lost while held, or null while it is still ours. */
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

/** The text of `file`, or null when there is none. */
function readIfAny(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return null;
    throw error;
  }
}

/**
 * Creates `file` holding `text`, whole from its first moment (temp + hard link); false when it exists. Not
 * flushed (it would cost about 4 ms a call): after a power cut the file may come back empty, which reads as no
 * holder and is refused `busy` naming the file to remove, never taken by guess.
 */
function createWhole(file: string, text: string): boolean {
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    if (!["EPERM", "ENOTSUP", "EXDEV"].includes(codeOf(error) ?? "")) throw error;
    // No hard links here: exclusive create, then the text (a waiter reads the empty moment as "busy").
    try {
      writeFileSync(file, text, { flag: "wx", mode: 0o600 });
      return true;
    } catch (inner) {
      if (codeOf(inner) === "EEXIST") return false;
      throw inner;
    }
  } finally {
    unlinkSync(temp);
  }
}

/** Removes `file` if it still holds `text` (ours: no one else removes a live holder's file). */
function removeIfHolding(file: string, text: string): void {
  if (readIfAny(file) === text) unlinkSync(file);
}

/**
 * Removes the lock file `file`, read as `text`, whose holder is gone: under a claim on that very text, so that
 * exactly one waiter removes it, and only while it is still that text. A claim whose own claimant is gone is
 * removed the same way, a few levels deep at most. False when a live claimant is at it (then wait as for a holder).
 */
function removeGone(file: string, text: string, mine: string, depth = 0): boolean {
  const claim = `${file}.claim-${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
  if (!createWhole(claim, mine)) {
    const held = readIfAny(claim);
    const record = held === null ? null : parseRecord(held);
    if (held === null) return true; // the claimant is done: look again
    return record !== null && depth < 3 && liveness(record) === "gone" && removeGone(claim, held, mine, depth + 1);
  }
  try {
    removeIfHolding(file, text);
  } finally {
    removeIfHolding(claim, mine);
  }
  return true;
}

/**
 * Temp files of creators that are gone (killed between writing and linking), of the lock and of its claims
 * (`.<name>.<pid>.<hex>.tmp`): harmless, but not left to pile up.
 */
function sweepTemps(root: string, file: string): void {
  const prefix = `.${path.basename(file)}.`;
  for (const name of readdirSync(root)) {
    const parts = name.split(".");
    const pid = name.startsWith(prefix) && name.endsWith(".tmp") ? Number(parts[parts.length - 3]) : 0;
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if (codeOf(error) === "ESRCH") rmSync(path.join(root, name), { force: true });
    }
  }
}

/** This process's record, as its lock file will hold it. */
function ownRecord(): string {
  const start = processStart(process.pid);
  const record: HolderRecord = {
    pid: process.pid,
    host: hostname(),
    start: start === "gone" || start === null ? null : start.id,
    at: new Date().toISOString(),
    nonce: randomBytes(8).toString("hex"),
  };
  return `${JSON.stringify(record)}\n`;
}

/** The refusal after the whole wait: the lock file, its holder and its age. */
function busyError(file: string, text: string | null): BusyError {
  const record = text === null ? null : parseRecord(text);
  if (record === null) {
    return new BusyError(
      `another palee process is writing to this vault (the lock ${file} holds no readable holder: ` +
        "remove it if no palee process is running); try again",
    );
  }
  const elsewhere = record.host === hostname() ? "" : `: if that process is gone, remove ${file}`;
  return new BusyError(
    `another palee process is writing to this vault (the lock ${file}: ${holderText(record, Date.now())}` +
      `${elsewhere}); try again`,
  );
}

/**
 * Takes the lock of the vault at `vaultRoot`, waiting (polling with a little jitter, so waiters
 * do not move in step) while a live holder has it, at most the wait of `lockWaitMs`; a gone holder's lock is
 * taken over at once. Throws BusyError when the wait runs out.
 */
export async function lockVault(vaultRoot: string, env: NodeJS.ProcessEnv): Promise<VaultLock> {
  const waitMs = lockWaitMs(env);
  const realVault = realpathSync(vaultRoot);
  const root = ensureLockRoot(realVault);
  const files = lockFilesOf(realVault, root);
  const mine = ownRecord();
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      if (createWhole(files.lock, mine)) break;
      const text = readIfAny(files.lock);
      if (text === null) continue; // released meanwhile
      const record = parseRecord(text);
      if (record !== null && liveness(record) === "gone" && removeGone(files.lock, text, mine)) continue;
      const left = deadline - Date.now();
      if (left <= 0) throw busyError(files.lock, text);
      await sleep(Math.min(left, 20 + Math.floor(Math.random() * 40)));
    }
  } catch (error) {
    if (error instanceof BusyError) throw error;
    throw new UsageError(`cannot take the vault lock ${files.lock} (${codeOf(error) ?? String(error)})`, "cache_dir");
  }
  return held(files, mine, root);
}

/** The lock just taken: its token changed, its release hooked to the ways a process ends. */
function held(files: { lock: string; token: string }, mine: string, root: string): VaultLock {
  let lost: string | null = null;
  const releaseNow = (): void => {
    unhook();
    if (lost === null) {
      try {
        removeIfHolding(files.lock, mine);
      } catch {
        // Nothing to do on the way out: a lock we cannot remove is judged by our pid, which is gone then.
      }
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    releaseNow();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  const unhook = (): void => {
    for (const signal of signals) process.removeListener(signal, onSignal);
    process.removeListener("exit", releaseNow);
  };
  for (const signal of signals) process.once(signal, onSignal);
  process.once("exit", releaseNow);
  let before: string | null;
  try {
    before = writerToken(files.token);
    sweepTemps(root, files.lock);
  } catch (error) {
    releaseNow();
    throw new UsageError(
      `cannot write the writers' token ${files.token} (${codeOf(error) ?? String(error)})`,
      "cache_dir",
    );
  }
  const check = (): void => {
    if (lost === null) {
      let now: string | null;
      try {
        now = readIfAny(files.lock);
      } catch (error) {
        now = `cannot be read (${codeOf(error) ?? String(error)})`;
      }
      if (now === mine) return;
      const record = now === null ? null : parseRecord(now);
      if (record !== null) lost = `it now names ${holderText(record, Date.now())}`;
      else lost = now === null ? "its file was removed" : "its file now holds something else";
    }
    throw new LockLostError(files.lock, lost);
  };
  return {
    path: files.lock,
    token: { path: files.token, before },
    release: () => Promise.resolve(releaseNow()),
    check,
    compromised: () => lost,
  };
}

/**
 * The session folder, read as the process begins (issue 22, fifth step). With a long history the listing takes
 * the thread pool about as long as the main thread takes to compile and load the CLI; begun first
 * (src/cli/bin.ts, before dist/palee.js is loaded), the one waits for nothing but the other.
 *
 * A call that will find a folder summary reads the folder by its names; one that will not (a cold call), by its files
 * and subfolders, the one typed listing it then needs.
 *
 * It is begun on a guess: the vault and session folder from the arguments as chooseVault reads them, without
 * checking them. The store takes it only for the very folder it is asked (NodeStore `early`), so a wrong guess
 * costs the listing and nothing else. It is begun before the vault lock is taken, so a writing call takes it
 * only once it has proved that no writer held the lock since: the lock was free when the listing began, and the
 * writers' token (lock.ts writerToken) read then is the one the lock holds when this call takes it. A writer
 * without the lock (the plugin, a sync) is seen or missed as by any listing; that window is at most
 * EARLY_NAMES_MAX_MS longer (folder-reading.ts).
 */
import { existsSync, lstatSync, realpathSync } from "node:fs";
import * as fs from "../../node/async-fs";
import * as path from "node:path";
import { monotonicMs } from "../../node/monotonic";
import { DEFAULT_SESSION_FOLDER, layoutFor } from "../../core/records/layout";
import type { EarlyFolder } from "../../node/folder-reading";
import { readListing } from "../../node/folder-reading";
import { lockFilesOf } from "../lock-place";
import { cacheRoot, textIfAny, stateDirOf } from "../state-dir";
import { MEMORY_FILES } from "./file-names";
import { folderSetting, sessionFolderFor, settingsFile, vaultRootFor } from "../vault";

/** A listing begun early, and what the writers' token was when it began. */
export interface EarlyListing extends EarlyFolder {
  /** The token file and what it held (null: none yet); null as a whole when the lock was held then. */
  readonly token: { readonly path: string; readonly value: string | null } | null;
}

/** The value of `--name` in `argv` (`--name value` or `--name=value`), as the argument parser reads it. */
function optionIn(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "--") break;
    if (token === `--${name}` && i + 1 < argv.length) value = argv[++i];
    else if (token.startsWith(`--${name}=`)) value = token.slice(name.length + 3);
  }
  return value;
}

function savedFolder(root: string): string | null {
  const text = textIfAny(settingsFile(root));
  return text === null ? null : folderSetting(JSON.parse(text));
}

/**
 * Begins listing the session folder of a `palee session <action>` call, or returns null for any other call or
 * when the guess cannot be made (chooseVault then reports whatever is wrong).
 */
export function beginEarlyListing(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): EarlyListing | null {
  if (argv[0] !== "session" || argv.length < 2 || argv[1].startsWith("-")) return null;
  if (argv.some((a) => a === "--help" || a === "-h" || a === "--version")) return null;
  try {
    const root = vaultRootFor(optionIn(argv, "vault"), env, cwd);
    const folder = sessionFolderFor(optionIn(argv, "folder") ?? savedFolder(root) ?? DEFAULT_SESSION_FOLDER);
    const sessions = path.resolve(root, ...layoutFor(folder).sessions.split("/"));
    const realRoot = realpathSync(root);
    const state = stateDirOf(realRoot, cacheRoot(env));
    const lock = lockFilesOf(realRoot);
    // The token first, then whether the lock is held: a writer that took the lock after this saw it free
    // changes the token before it writes anything.
    const tokenPath = lock.token;
    const value = textIfAny(tokenPath);
    const held = lstatSync(lock.lock, { throwIfNoEntry: false }) !== undefined;
    // Without a folder summary the call reads the folder's files and subfolders (one typed listing), else its names.
    const typed = !existsSync(path.join(state, MEMORY_FILES.summary));
    const began = monotonicMs();
    const names = typed ? null : fs.readdir(sessions).catch(() => null);
    const listing = typed ? readListing(sessions).catch(() => null) : null;
    return { folder: sessions, began, names, listing, token: held ? null : { path: tokenPath, value } };
  } catch {
    return null;
  }
}

/**
 * `early` when the call may take it: always without the lock (a reading call, which holds none and sees the
 * folder as any listing does); with it, only when no writer has held the lock since the listing began.
 */
export function provedEarly(
  early: EarlyListing | null,
  lock: { readonly token: { readonly path: string; readonly before: string | null } } | null,
): EarlyFolder | null {
  if (early === null || lock === null) return early;
  const seen = early.token;
  return seen !== null && seen.path === lock.token.path && seen.value === lock.token.before ? early : null;
}

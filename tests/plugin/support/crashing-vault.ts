/**
 * A crash for the in-memory Obsidian of obsidian-harness.ts: lets the first `allowed` writes through, then
 * refuses every write, as an app that died (or a disk that stopped taking writes) would. A refused write
 * changes nothing: it throws before the file is touched, so nothing is ever half-written by it.
 *
 * Every write path a plugin can reach is wrapped — the Vault (create, createFolder, modify, process, append,
 * rename, copy, trash, delete), the FileManager (processFrontMatter, trashFile, renameFile) and the adapter
 * (write, mkdir, remove, rename, …, which the .palee import could use) — and one call of the plugin counts
 * as one write: the writes an API makes underneath (processFrontMatter's modify, create's adapter.write) are
 * part of it, not counted again. That is exact while the plugin's writes run one at a time, as they do (the
 * controller serializes every core call; the only other writer, processFrontMatter, runs under a modal).
 * A refused processFrontMatter still reads and calls back before its write fails (see READ_THEN_WRITE).
 *
 * The harness's own seeding and `h.write` / `h.remove` (sync, the user) go around the wrapped methods only
 * partly (`h.remove` uses the adapter): call `restore()` before using them after a crash.
 */
import type { ObsidianHarness } from "./obsidian-harness";

export interface CrashingVault {
  /** The writes the plugin attempted since the gate was installed, in order: "vault.create palee/hot.md". */
  readonly log: readonly string[];
  /** How many writes were attempted (the refused ones included). */
  readonly attempts: number;
  /** Whether a write was refused. */
  readonly crashed: boolean;
  /** Called once, synchronously, when the first write is refused (the moment of the crash). */
  onCrash(listener: () => void): void;
  /** Puts the original methods back: writes work again (a new app instance on the same vault). */
  restore(): void;
}

/** The error a refused write throws: what Obsidian would pass on from a file system that stopped writing. */
export const CRASH_MESSAGE = "simulated crash";

type Method = (...args: unknown[]) => unknown;

const VAULT_WRITES = [
  "create",
  "createBinary",
  "createFolder",
  "modify",
  "modifyBinary",
  "process",
  "append",
  "appendBinary",
  "rename",
  "copy",
  "trash",
  "delete",
];
const FILE_MANAGER_WRITES = ["processFrontMatter", "trashFile", "renameFile"];
const ADAPTER_WRITES = [
  "write",
  "writeBinary",
  "append",
  "appendBinary",
  "process",
  "mkdir",
  "remove",
  "rmdir",
  "rename",
  "copy",
  "trashLocal",
  "trashSystem",
];

/**
 * Writes that read the file and call the caller back before writing (Obsidian's processFrontMatter parses the
 * YAML first, and throws on YAML it cannot parse without calling back). A refused one still reads and calls
 * back; only its write fails, so the caller can tell a failed write from unreadable properties.
 */
const READ_THEN_WRITE = new Set(["fileManager.processFrontMatter"]);

/** The path a write names, for the log: the first argument's path (a TAbstractFile) or the string itself. */
function pathOf(args: unknown[]): string {
  const first = args[0];
  if (typeof first === "string") return first;
  const path = first !== null && typeof first === "object" && "path" in first ? first.path : null;
  return typeof path === "string" ? path : "?";
}

/**
 * Installs the gate on `h` (Infinity: count only, never refuse). Returns the handle; every wrapped method is
 * an own property of the app's objects until `restore()`.
 */
export function crashAfterWrites(h: ObsidianHarness, allowed: number): CrashingVault {
  const log: string[] = [];
  const listeners: Array<() => void> = [];
  let attempts = 0;
  let crashed = false;
  /** Writes in progress: a write made while another is in progress is that write's own doing. */
  let depth = 0;
  /** A refused write is running up to its own inner write (READ_THEN_WRITE), which must fail. */
  let refusingInside = false;
  const restorers: Array<() => void> = [];

  const wrap = (owner: object, label: string, name: string): void => {
    const target = owner as Record<string, unknown>;
    let original: unknown;
    try {
      original = target[name];
    } catch {
      return; // the mock's strict proxy: a method it does not have
    }
    if (typeof original !== "function") return;
    const inner = (original as Method).bind(owner);
    const hadOwn = Object.prototype.hasOwnProperty.call(owner, name);
    const writesAfterCallback = READ_THEN_WRITE.has(`${label}.${name}`);
    target[name] = async (...args: unknown[]): Promise<unknown> => {
      if (depth > 0) {
        if (refusingInside) throw new Error(CRASH_MESSAGE);
        return inner(...args);
      }
      log.push(`${label}.${name} ${pathOf(args)}`);
      if (attempts++ >= allowed) {
        if (!crashed) {
          crashed = true;
          for (const listener of listeners) listener();
        }
        if (writesAfterCallback) {
          // It reads, parses and calls back before it writes: the crash hits the write inside, as in the app.
          depth++;
          refusingInside = true;
          try {
            await inner(...args);
          } finally {
            depth--;
            refusingInside = false;
          }
        }
        throw new Error(CRASH_MESSAGE);
      }
      depth++;
      try {
        return await inner(...args);
      } finally {
        depth--;
      }
    };
    restorers.push(() => {
      if (hadOwn) target[name] = original;
      else delete target[name];
    });
  };

  const { vault, fileManager } = h.app;
  for (const name of VAULT_WRITES) wrap(vault, "vault", name);
  for (const name of FILE_MANAGER_WRITES) wrap(fileManager, "fileManager", name);
  for (const name of ADAPTER_WRITES) wrap(h.adapter, "adapter", name);

  return {
    log,
    get attempts() {
      return attempts;
    },
    get crashed() {
      return crashed;
    },
    onCrash(listener) {
      listeners.push(listener);
    },
    restore() {
      for (const undo of restorers.reverse()) undo();
      restorers.length = 0;
    },
  };
}

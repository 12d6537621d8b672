/**
 * Who holds a vault lock, and whether that process is still there (lock.ts). Liveness is judged by the process
 * itself, never by a clock or a file time: a holder that is paused (Ctrl-Z, a debugger, a suspended machine) or
 * whose clock differs is alive, and its lock is never taken; one that has exited, was killed, or whose pid now
 * belongs to another process (its start differs) is gone, and its lock is taken over at once.
 *
 * A process's start identity: on Linux the boot's id and the start time in clock ticks from /proc; elsewhere on
 * POSIX its start as `ps` prints it (to the second); on Windows none, so the pid alone decides there.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/** What a lock file holds: one JSON line. `at` (the holder's clock) only says how old it is, never decides. */
export interface HolderRecord {
  readonly pid: number;
  readonly host: string;
  /** The process's start identity (processStart), or null where the platform has none. */
  readonly start: string | null;
  /** When it was taken, ISO 8601 by the holder's clock. */
  readonly at: string;
  /** Makes every record unique: the holder knows its lock by the exact text. */
  readonly nonce: string;
}

export type Liveness = "alive" | "gone" | "unknown";

/** A process's start identity; "gone": it has exited; null: this platform or moment cannot tell. */
export type Start = { readonly id: string } | "gone" | null;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The Linux start identity of `pid`: "gone" when it has no /proc entry or is a zombie (it has exited). */
function linuxStart(pid: number): Start {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    return codeOf(error) === "ENOENT" ? "gone" : null;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count from the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return "gone";
  let boot = "";
  try {
    boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    // No boot id: the start ticks alone still tell one process from a later one with its pid.
  }
  return fields[19] ? { id: `linux:${boot}:${fields[19]}` } : null;
}

/**
 * `node:child_process`, loaded only where `ps` is asked (macOS, the BSDs): loading it costs every call on Linux
 * a few milliseconds of start-up for nothing.
 */
function childProcess(): typeof import("node:child_process") {
  // Required here, not imported (nor through node:module's createRequire, which costs every call its loading).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only where ps is asked
  return require("node:child_process") as typeof import("node:child_process");
}

/** The start identity by `ps` (macOS, the BSDs): "gone" when ps knows no such process or it is a zombie. */
function psStart(pid: number): Start {
  let out: string;
  try {
    out = childProcess()
      .execFileSync("ps", ["-o", "stat=,lstart=", "-p", String(pid)], {
        encoding: "utf8",
        env: { PATH: "/bin:/usr/bin", LC_ALL: "C" },
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 5_000,
      })
      .trim();
  } catch (error) {
    // ps exits 1 for a pid it does not know; anything else (no ps) cannot tell.
    return (error as { status?: unknown }).status === 1 ? "gone" : null;
  }
  if (out === "") return "gone";
  const [state, ...start] = out.split(/\s+/);
  return state.startsWith("Z") ? "gone" : { id: `ps:${start.join(" ")}` };
}

/** The start identity of `pid`. */
export function processStart(pid: number, platform: NodeJS.Platform = process.platform): Start {
  if (platform === "win32") return null;
  if (platform === "linux" || platform === "android") {
    const linux = linuxStart(pid);
    if (linux !== null) return linux;
  }
  return psStart(pid);
}

/** Whether a process with this pid exists (alive, paused, or a zombie not yet reaped). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === "EPERM";
  }
}

/**
 * Whether the holder of `record` is still there. A holder on another host (a lock folder shared between
 * machines or containers) cannot be judged from here: "unknown", which the lock treats as alive.
 */
export function liveness(record: HolderRecord, host: string = hostname()): Liveness {
  if (record.host !== host) return "unknown";
  if (!pidExists(record.pid)) return "gone";
  if (record.start === null) return "alive";
  const now = processStart(record.pid);
  if (now === "gone") return "gone";
  if (now === null) return "alive";
  return now.id === record.start ? "alive" : "gone";
}

/** The record in a lock file's text, or null when it is not one (never written so by palee). */
export function parseRecord(text: string): HolderRecord | null {
  try {
    const value = JSON.parse(text) as Partial<HolderRecord> | null;
    if (value === null || typeof value !== "object") return null;
    const { pid, host, start, at, nonce } = value;
    if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return null;
    if (typeof host !== "string" || typeof at !== "string" || typeof nonce !== "string") return null;
    if (start !== null && typeof start !== "string") return null;
    return { pid, host, start, at, nonce };
  } catch {
    return null;
  }
}

/** "12 s", "3 min", "1 h 5 min": a span for a message. */
export function spanText(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return min % 60 === 0 ? `${min / 60} h` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** The holder as a busy message names it: pid, host, and how long by this clock (or how far ahead it is dated). */
export function holderText(record: HolderRecord, now: number): string {
  const taken = Date.parse(record.at);
  let age = "taken at an unknown time";
  if (Number.isFinite(taken)) {
    age = taken <= now ? `held for ${spanText(now - taken)}` : `dated ${spanText(taken - now)} ahead of this clock`;
  }
  return `pid ${record.pid} on ${record.host}, ${age}`;
}

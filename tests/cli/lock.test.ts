/**
 * The vault lock in process (contract §4 "One at a time"): the device-local cache folder (state-dir.ts), the
 * lock's own place whatever the environment (lock-place.ts), how a holder is judged (lock-holder.ts), the wait,
 * and that `run()` releases it on every way out, so a second `run()` in the same process is not refused `busy`.
 * The lock between real processes is in vault-lock.test.ts, races in races.test.ts.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot, vaultStateDir } from "../../src/cli/state-dir";
import { DEFAULT_WAIT_MS, lockVault, lockWaitMs } from "../../src/cli/lock";
import { type HolderRecord, holderText, liveness, processStart, spanText } from "../../src/cli/lock-holder";
import { ensureLockRoot, lockFilesOf, lockRoot } from "../../src/cli/lock-place";
import { run } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/output";
import { tempFolders } from "../support/temp-folders";

describe("cacheRoot: the platform's cache folder", () => {
  it("Linux: $XDG_CACHE_HOME/palee when absolute, else ~/.cache/palee", () => {
    expect(cacheRoot({ XDG_CACHE_HOME: "/x/cache", HOME: "/home/u" }, "linux")).toBe("/x/cache/palee");
    expect(cacheRoot({ XDG_CACHE_HOME: "relative", HOME: "/home/u" }, "linux")).toBe("/home/u/.cache/palee");
    expect(cacheRoot({ HOME: "/home/u" }, "freebsd")).toBe("/home/u/.cache/palee");
  });

  it("macOS: ~/Library/Caches/palee, whatever XDG says", () => {
    expect(cacheRoot({ XDG_CACHE_HOME: "/x/cache", HOME: "/Users/u" }, "darwin")).toBe("/Users/u/Library/Caches/palee");
  });

  it("Windows: %LOCALAPPDATA%/palee/Cache, else under the profile", () => {
    const local = path.resolve("/appdata/local");
    expect(cacheRoot({ LOCALAPPDATA: local }, "win32")).toBe(path.join(local, "palee", "Cache"));
    const profile = path.resolve("/users/u");
    expect(cacheRoot({ USERPROFILE: profile }, "win32")).toBe(path.join(profile, "AppData", "Local", "palee", "Cache"));
  });

  it("PALEE_CACHE_DIR wins on every platform; a relative one is refused", () => {
    for (const platform of ["linux", "darwin", "win32"] as const) {
      expect(cacheRoot({ PALEE_CACHE_DIR: "/mine", HOME: "/home/u", LOCALAPPDATA: "/l" }, platform)).toBe(
        path.resolve("/mine"),
      );
    }
    expect(() => cacheRoot({ PALEE_CACHE_DIR: "mine" }, "linux")).toThrow(/absolute/);
  });
});

describe("vaultStateDir", () => {
  const temp = tempFolders();

  it("one folder per vault, the same through a symlink to it, created outside the vault", async () => {
    const cache = temp("palee-state-cache-");
    const a = temp("palee-state-a-");
    const b = temp("palee-state-b-");
    const link = path.join(temp("palee-state-link-"), "to-a");
    fs.symlinkSync(a, link);
    const env = { PALEE_CACHE_DIR: cache };
    const dirA = await vaultStateDir(a, env);
    expect(path.dirname(dirA)).toBe(path.join(cache, "vaults"));
    expect(path.basename(dirA)).toMatch(/^[0-9a-f]{16}$/);
    expect(fs.statSync(dirA).isDirectory()).toBe(true);
    expect(await vaultStateDir(link, env)).toBe(dirA);
    expect(await vaultStateDir(b, env)).not.toBe(dirA);
    expect(fs.readdirSync(a)).toEqual([]);
  });

  it("refuses a cache folder inside the vault", async () => {
    const vault = temp("palee-state-vault-");
    await expect(vaultStateDir(vault, { PALEE_CACHE_DIR: path.join(vault, "sub", "cache") })).rejects.toThrow(
      /inside the vault/,
    );
    expect(fs.readdirSync(vault)).toEqual([]);
  });
});

describe("lockWaitMs", () => {
  it("10 s unless PALEE_LOCK_WAIT_MS gives whole milliseconds", () => {
    expect(DEFAULT_WAIT_MS).toBe(10_000);
    expect(lockWaitMs({})).toBe(10_000);
    expect(lockWaitMs({ PALEE_LOCK_WAIT_MS: "250" })).toBe(250);
    expect(() => lockWaitMs({ PALEE_LOCK_WAIT_MS: "1.5" })).toThrow(/whole number/);
  });
});

describe("run() releases the lock on every way out", () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("after a success, a refusal and an error, the next writer in the same process gets the lock", async () => {
    const vault = fs.mkdtempSync(path.join(os.tmpdir(), "palee-inproc-vault-"));
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), "palee-inproc-cache-"));
    made.push(vault, cache);
    let stderr = "";
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
      stdin: process.stdin,
      // No real home: the lock goes to the temp cache; a short wait, so a lock left behind shows as busy.
      env: { PALEE_CACHE_DIR: cache, PALEE_DEVICE: "test-device", PALEE_LOCK_WAIT_MS: "300", TZ: "UTC" },
      cwd: vault,
    };
    const session = (...args: string[]): Promise<number> => run(["session", ...args, "--vault", vault], io);
    expect(await session("start", "--topic", "T-in")).toBe(0);
    expect(await session("start", "--topic", "T-in")).toBe(2); // refused: already open
    expect(await session("recover", "--draft", "DRAFT-S-00000000", "--action", "save")).toBe(2); // no such draft
    expect(await session("draft", "--note", "still mine")).toBe(0);
    expect(await session("end", "--summary", "done")).toBe(0);
    expect(stderr).not.toMatch(/busy|another palee process/);
    expect(fs.readdirSync(path.join(cache, "vaults"))).toHaveLength(1);
    const [state] = fs.readdirSync(path.join(cache, "vaults"));
    // No temp file: only the note times, the folder summary and the notes kept (issue 22); the lock is elsewhere.
    expect(fs.readdirSync(path.join(cache, "vaults", state)).sort()).toEqual([
      "folder-summary.txt",
      "note-fields.txt",
      "note-times.txt",
    ]);
    // No lock left behind; the writers' token beside where it was.
    const files = lockFilesOf(fs.realpathSync(vault));
    expect(fs.existsSync(files.lock)).toBe(false);
    expect(fs.readFileSync(files.token, "utf8")).toMatch(/^[0-9a-f]{32}$/);
    fs.rmSync(files.token);
  });
});

describe("the lock's place: one per vault and user, whatever the environment", () => {
  const temp = tempFolders();

  it("a fixed folder per user (no environment is read), a file per vault's real path", () => {
    expect(lockRoot("linux")).toBe(`/tmp/palee-${process.getuid?.() ?? 0}`);
    expect(lockRoot("darwin")).toBe(lockRoot("linux"));
    expect(lockRoot("win32")).toBe(path.join(os.userInfo().homedir, "AppData", "Local", "palee", "locks"));
    const a = lockFilesOf("/vaults/a", "/locks");
    expect(a.lock).toMatch(/^\/locks\/[0-9a-f]{16}\.lock$/);
    expect(a.token).toBe(a.lock.replace(/\.lock$/, ".token"));
    expect(lockFilesOf("/vaults/b", "/locks").lock).not.toBe(a.lock);
  });

  it("the same lock through a symlink to the vault and under any HOME, XDG_CACHE_HOME or PALEE_CACHE_DIR", async () => {
    const vault = temp("palee-place-vault-");
    const link = path.join(temp("palee-place-link-"), "to-vault");
    fs.symlinkSync(vault, link);
    const paths = new Set<string>();
    for (const [at, env] of [
      [vault, {}],
      [link, { HOME: temp("palee-place-home-") }],
      [vault, { XDG_CACHE_HOME: temp("palee-place-xdg-"), PALEE_CACHE_DIR: temp("palee-place-cache-") }],
    ] as const) {
      const lock = await lockVault(at, { ...env, PALEE_LOCK_WAIT_MS: "0" });
      paths.add(lock.path);
      await lock.release();
    }
    expect([...paths]).toEqual([lockFilesOf(fs.realpathSync(vault)).lock]);
    fs.rmSync(lockFilesOf(fs.realpathSync(vault)).token, { force: true });
  });

  it("refuses a lock folder that is a link, another's, or open to others; and one inside the vault", () => {
    const vault = fs.realpathSync(temp("palee-place-v-"));
    const open = path.join(temp("palee-place-open-"), "locks");
    fs.mkdirSync(open, { mode: 0o777 });
    fs.chmodSync(open, 0o777);
    expect(() => ensureLockRoot(vault, open)).toThrow(/is not this user's own \(owner \d+, mode 777\)/);
    const link = path.join(temp("palee-place-ln-"), "locks");
    fs.symlinkSync(open, link);
    expect(() => ensureLockRoot(vault, link)).toThrow(/is not a folder/);
    expect(() => ensureLockRoot(vault, path.join(vault, "locks"))).toThrow(/inside the vault/);
    const fine = path.join(temp("palee-place-ok-"), "locks");
    expect(ensureLockRoot(vault, fine)).toBe(fine);
    expect(fs.statSync(fine).mode & 0o777).toBe(0o700);
  });
});

describe("the holder: alive by its process, never by a clock", () => {
  const record = (over: Partial<HolderRecord>): HolderRecord => {
    const start = processStart(process.pid);
    return {
      pid: process.pid,
      host: os.hostname(),
      start: typeof start === "object" && start !== null ? start.id : null,
      at: "2026-12-05T10:00:00.000Z",
      nonce: "n",
      ...over,
    };
  };

  it("this process is alive, whatever time its record says", () => {
    expect(liveness(record({}))).toBe("alive");
    expect(liveness(record({ at: "2099-01-01T00:00:00.000Z" }))).toBe("alive");
    expect(liveness(record({ at: "1999-01-01T00:00:00.000Z" }))).toBe("alive");
  });

  it("a paused process (SIGSTOP) is alive; once it has exited, gone", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = child.pid as number;
    const start = processStart(pid);
    expect(typeof start === "object" && start !== null).toBe(true);
    const paused = record({ pid, start: (start as { id: string }).id });
    child.kill("SIGSTOP");
    expect(liveness(paused)).toBe("alive");
    child.kill("SIGCONT");
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    expect(liveness(paused)).toBe("gone");
  });

  it("a pid now another process's (its start differs) is gone", () => {
    expect(liveness(record({ start: "linux:another-boot:1" }))).toBe("gone");
  });

  it("a zombie (exited, not yet reaped by its parent) is gone", async () => {
    // `sh` backgrounds a short child, then becomes `sleep` before it exits: `sleep` never reaps it, a zombie.
    const shell = spawn("sh", ["-c", "sleep 0.5 & echo $!; exec sleep 8"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const line = await new Promise<string>((resolve) => shell.stdout.once("data", (d: Buffer) => resolve(String(d))));
      const zombie = Number(line.trim());
      const deadline = Date.now() + 5_000;
      while (!/\) Z /.test(fs.readFileSync(`/proc/${zombie}/stat`, "utf8")) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(fs.readFileSync(`/proc/${zombie}/stat`, "utf8")).toMatch(/\) Z /);
      expect(processStart(zombie)).toBe("gone");
      expect(liveness(record({ pid: zombie, start: null }))).toBe("alive"); // the pid alone cannot tell
    } finally {
      shell.kill("SIGKILL");
    }
  });

  it("a holder on another host cannot be judged from here: unknown (treated as alive)", () => {
    expect(liveness(record({ host: `${os.hostname()}-elsewhere`, pid: 999_999_999 }))).toBe("unknown");
  });

  it("names the holder with its age, or how far ahead it is dated", () => {
    const now = Date.parse("2026-12-05T10:00:00.000Z");
    expect(holderText(record({ pid: 42, host: "h", at: "2026-12-05T09:59:48.000Z" }), now)).toBe(
      "pid 42 on h, held for 12 s",
    );
    expect(holderText(record({ pid: 42, host: "h", at: "2026-12-05T11:00:00.000Z" }), now)).toBe(
      "pid 42 on h, dated 1 h ahead of this clock",
    );
    expect(holderText(record({ pid: 42, host: "h", at: "soon" }), now)).toBe("pid 42 on h, taken at an unknown time");
    expect([spanText(59_400), spanText(150_000), spanText(3_900_000)]).toEqual(["59 s", "3 min", "1 h 5 min"]);
  });
});

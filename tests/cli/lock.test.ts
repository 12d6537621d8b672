/**
 * The vault lock in process (contract §4 "One at a time"): where it lives (src/cli/state-dir.ts, the platform's
 * cache folder, never the vault), the wait, and that `run()` releases it on every way out, so a second `run()` in
 * the same process is not refused `busy`. Races between real processes are in races.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheRoot, vaultStateDir } from "../../src/cli/state-dir";
import { DEFAULT_WAIT_MS, lockWaitMs } from "../../src/cli/lock";
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
    // No lock left behind, no temp file: only the note times, the folder summary, the notes kept and the writers'
    // token (issue 22).
    expect(fs.readdirSync(path.join(cache, "vaults", state)).sort()).toEqual([
      "folder-summary.txt",
      "note-fields.txt",
      "note-times.txt",
      "write.token",
    ]);
  });
});

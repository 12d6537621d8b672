/**
 * The session folder listed as the process begins (device-memory/early-listing.ts, issue 22): the guess of
 * which folder, the proof that no writer held the lock since (the writers' token, lock.ts), and the store taking
 * it only for that folder, once, fresh and before any write (NodeStore `early`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { monotonicMs } from "../../src/node/monotonic";
import { beginEarlyListing, provedEarly } from "../../src/cli/device-memory/early-listing";
import type { EarlyListing } from "../../src/cli/device-memory/early-listing";
import { lockVault } from "../../src/cli/lock";
import { run } from "../../src/cli/main";
import type { CliIo } from "../../src/cli/output";
import { stateDirOf } from "../../src/cli/state-dir";
import { MEMORY_FILES } from "../../src/cli/device-memory/file-names";
import { chooseVault } from "../../src/cli/vault";
import { EARLY_NAMES_MAX_MS } from "../../src/node/folder-reading";
import { NodeStore } from "../../src/node/node-store";
import { tempFolders } from "../support/temp-folders";

const temp = tempFolders();

/**
 * A vault whose session folder (`folder`/sessions) holds `names`, and a cache folder of its own with a folder
 * summary in the vault's state folder (its content does not matter here: only whether there is one).
 */
function vaultWith(names: string[], folder = "palee", summary = true): { vault: string; env: NodeJS.ProcessEnv } {
  const vault = temp("palee-early-vault-");
  const sessions = path.join(vault, ...folder.split("/"), "sessions");
  fs.mkdirSync(sessions, { recursive: true });
  for (const name of names) fs.writeFileSync(path.join(sessions, name), "x");
  const cache = temp("palee-early-cache-");
  const state = stateDirOf(fs.realpathSync(vault), cache);
  fs.mkdirSync(state, { recursive: true });
  if (summary) fs.writeFileSync(path.join(state, MEMORY_FILES.summary), "a summary");
  return { vault, env: { PALEE_CACHE_DIR: cache, PALEE_LOCK_WAIT_MS: "2000" } };
}

describe("beginEarlyListing: which folder", () => {
  it("lists the folder chooseVault chooses, for --vault, --vault=, $PALEE_VAULT, the current folder", async () => {
    const { vault, env } = vaultWith(["S-20260101T000000-aaaa.md"]);
    const cases: [string[], NodeJS.ProcessEnv, string][] = [
      [["--vault", vault], env, "/"],
      [[`--vault=${vault}`], env, "/"],
      [[], { ...env, PALEE_VAULT: vault }, "/"],
      [[], env, vault],
      [["--vault", "."], env, vault],
    ];
    for (const [options, caseEnv, cwd] of cases) {
      const early = beginEarlyListing(["session", "start", ...options], caseEnv, cwd);
      const chosen = await chooseVault({ vault: options.length > 0 ? vaultOption(options) : undefined }, caseEnv, cwd);
      expect(early?.folder).toBe(path.join(chosen.root, ...chosen.layout.sessions.split("/")));
      expect(await early?.names).toEqual(["S-20260101T000000-aaaa.md"]);
    }
  });

  it("follows --folder and the plugin's saved sessionFolder as chooseVault does", async () => {
    const { vault, env } = vaultWith(["S-20260101T000000-bbbb.md"], "study/log");
    const byOption = beginEarlyListing(["session", "draft", "--folder", "study/log", "--vault", vault], env, "/");
    expect(byOption?.folder).toBe(path.join(vault, "study", "log", "sessions"));
    const settings = path.join(vault, ".obsidian", "plugins", "palee-sessions");
    fs.mkdirSync(settings, { recursive: true });
    fs.writeFileSync(path.join(settings, "data.json"), JSON.stringify({ sessionFolder: "study/log" }));
    const bySetting = beginEarlyListing(["session", "end", "--vault", vault], env, "/");
    const chosen = await chooseVault({ vault }, env, "/");
    expect(bySetting?.folder).toBe(path.join(vault, ...chosen.layout.sessions.split("/")));
    expect(await bySetting?.names).toEqual(["S-20260101T000000-bbbb.md"]);
  });

  it("begins nothing for other calls, and never throws on a guess it cannot make", async () => {
    const { vault, env } = vaultWith([]);
    for (const argv of [["mcp"], ["--version"], ["session"], ["session", "--help"], ["session", "start", "-h"]]) {
      expect(beginEarlyListing([...argv, "--vault", vault], env, "/")).toBeNull();
    }
    expect(beginEarlyListing(["session", "start", "--vault", path.join(vault, "nowhere")], env, "/")).toBeNull();
    expect(beginEarlyListing(["session", "start", "--vault", vault], { PALEE_CACHE_DIR: "relative" }, "/")).toBeNull();
    const settings = path.join(vault, ".obsidian", "plugins", "palee-sessions");
    fs.mkdirSync(settings, { recursive: true });
    fs.writeFileSync(path.join(settings, "data.json"), "{ not json");
    expect(beginEarlyListing(["session", "start", "--vault", vault], env, "/")).toBeNull();
  });

  it("reads the files and subfolders instead when the call will find no folder summary (a cold call)", async () => {
    const { vault, env } = vaultWith(["S-20260101T000000-ffff.md"], "palee", false);
    fs.mkdirSync(path.join(vault, "palee", "sessions", "moved"));
    const early = beginEarlyListing(["session", "end", "--vault", vault], env, "/");
    expect(early?.names).toBeNull();
    expect(await early?.listing).toEqual({ files: ["S-20260101T000000-ffff.md"], folders: ["moved"] });
    const store = new NodeStore(vault, early);
    const listed = await store.listing("palee/sessions");
    expect(listed).toBe(await early?.listing);
    expect(await store.listing("palee/sessions")).not.toBe(listed); // once
  });

  it("a folder that cannot be listed gives null names (the store then lists it and says why)", async () => {
    const { vault, env } = vaultWith([]);
    fs.rmSync(path.join(vault, "palee"), { recursive: true });
    expect(await beginEarlyListing(["session", "start", "--vault", vault], env, "/")?.names).toBeNull();
  });
});

function vaultOption(options: string[]): string {
  const at = options.indexOf("--vault");
  return at >= 0 ? options[at + 1] : options[0].slice("--vault=".length);
}

describe("provedEarly: no writer held the lock since the listing began", () => {
  const argvFor = (vault: string): string[] => ["session", "start", "--vault", vault];

  it("taken by the next holder of the lock when nobody held it meanwhile, also on a first use", async () => {
    const { vault, env } = vaultWith([]);
    for (let round = 0; round < 2; round++) {
      const early = beginEarlyListing(argvFor(vault), env, "/");
      const lock = await lockVault(vault, env);
      expect(provedEarly(early, lock)).toBe(early);
      await lock.release();
    }
  });

  it("refused once another writer has held the lock since, even if it left nothing visible", async () => {
    const { vault, env } = vaultWith([]);
    const early = beginEarlyListing(argvFor(vault), env, "/");
    await (await lockVault(vault, env)).release(); // another writer, in and out
    const lock = await lockVault(vault, env);
    expect(provedEarly(early, lock)).toBeNull();
    await lock.release();
  });

  it("refused when the lock was held as the listing began; a reading call (no lock) takes it", async () => {
    const { vault, env } = vaultWith([]);
    const holder = await lockVault(vault, env);
    const early = beginEarlyListing(argvFor(vault), env, "/");
    expect(early?.token).toBeNull();
    await holder.release();
    expect(provedEarly(early, null)).toBe(early);
    const lock = await lockVault(vault, env);
    expect(provedEarly(early, lock)).toBeNull();
    await lock.release();
  });

  it("refused for another vault's lock", async () => {
    const a = vaultWith([]);
    const b = vaultWith([]);
    const early = beginEarlyListing(argvFor(a.vault), b.env, "/");
    const lock = await lockVault(b.vault, b.env);
    expect(provedEarly(early, lock)).toBeNull();
    await lock.release();
  });
});

describe("NodeStore with an early listing", () => {
  const early = (folder: string, names: string[] | null, began = monotonicMs()): EarlyListing => ({
    folder,
    began,
    names: Promise.resolve(names),
    listing: null,
    token: null,
  });

  it("answers the first names of that folder from it, then lists the folder itself", async () => {
    const { vault } = vaultWith(["S-20260101T000000-cccc.md"]);
    const listed = ["S-as-listed.md"];
    const store = new NodeStore(vault, early(path.join(vault, "palee", "sessions"), listed));
    expect(await store.names("palee")).toEqual(["sessions"]); // another folder: not taken
    expect(await store.names("palee/sessions")).toBe(listed);
    expect(await store.names("palee/sessions")).toEqual(["S-20260101T000000-cccc.md"]);
  });

  it("drops it at the first write, when it is too old, and when the listing failed", async () => {
    const { vault } = vaultWith(["S-20260101T000000-dddd.md"]);
    const sessions = path.join(vault, "palee", "sessions");
    const written = new NodeStore(vault, early(sessions, ["S-as-listed.md"]));
    await written.create("palee/sessions/S-20260102T000000-eeee.md", "y");
    expect((await written.names("palee/sessions")).sort()).toEqual([
      "S-20260101T000000-dddd.md",
      "S-20260102T000000-eeee.md",
    ]);
    const old = new NodeStore(vault, early(sessions, ["S-as-listed.md"], monotonicMs() - EARLY_NAMES_MAX_MS - 1));
    expect(await old.names("palee/sessions")).not.toContain("S-as-listed.md");
    const failed = new NodeStore(vault, early(sessions, null));
    expect(await failed.names("palee/sessions")).toContain("S-20260101T000000-dddd.md");
  });
});

describe("run() with an early listing", () => {
  it("a session another writer opened after the listing began is seen: the second start is refused", async () => {
    const vault = temp("palee-early-run-");
    const env = { PALEE_CACHE_DIR: temp("palee-early-cache-"), PALEE_DEVICE: "test-device", TZ: "UTC" };
    let stderr = "";
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => (stderr += text),
      stdin: process.stdin,
      env,
      cwd: vault,
    };
    const session = (early: EarlyListing | null, ...args: string[]): Promise<number> =>
      run(["session", ...args, "--vault", vault], io, early);
    expect(await session(null, "start", "--topic", "T-one")).toBe(0);
    expect(await session(null, "end", "--summary", "first")).toBe(0);
    const argv = ["session", "start", "--topic", "T-three", "--vault", vault];
    const early = beginEarlyListing(argv, env, vault);
    await early?.names; // listed before the other writer came
    expect(await session(null, "start", "--topic", "T-two")).toBe(0);
    stderr = "";
    // Dated now, so that only the writers' token can refuse it, however slow the machine.
    const fresh = early && { ...early, began: monotonicMs() };
    expect(await session(fresh, "start", "--topic", "T-three")).toBe(2);
    expect(stderr).toMatch(/already open: T-two/);
  });
});

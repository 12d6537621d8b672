/**
 * `palee session hook --install claude-code` / `--uninstall claude-code` (contract §4b): this tool's hooks
 * merged into a Claude Code settings file, every other key and hook kept, twice the same as once; a file that
 * is not JSON, a symbolic link or not writable is refused with one line and left as it was.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunResult } from "./support";
import { DEVICE, cleanupVaults, lines, makeTempDir, makeVault, runRaw, testCacheDir } from "./support";

afterEach(cleanupVaults);

const EVENTS = ["SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"];

/** A project folder that is also the vault (the common case), with its settings file path. */
function project(): { dir: string; settings: string } {
  const dir = makeVault();
  return { dir, settings: path.join(dir, ".claude", "settings.json") };
}

function install(dir: string, args: string[] = []): RunResult {
  return runRaw(["session", "hook", "--install", "claude-code", ...args], { cwd: dir });
}

function uninstall(dir: string, args: string[] = []): RunResult {
  return runRaw(["session", "hook", "--uninstall", "claude-code", ...args], { cwd: dir });
}

type Settings = { hooks?: Record<string, { matcher?: string; hooks: { type: string; command: string }[] }[]> };
const readJson = (file: string): Settings => JSON.parse(fs.readFileSync(file, "utf8")) as Settings;

/** The learner's own settings: other keys, other hooks (one on an event palee uses too). */
const THEIRS = {
  permissions: { allow: ["Bash(npm test:*)"], deny: [] },
  env: { FOO: "1" },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 5 }] }],
    SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "cat NOTES.md" }] }],
  },
  model: "sonnet",
};
const THEIRS_TEXT = `${JSON.stringify(THEIRS, null, 2)}\n`;

describe("install", () => {
  it("creates .claude/settings.json with one hook per event, a command that names node, the CLI and the vault", () => {
    const { dir, settings } = project();
    const run = install(dir, ["--topic", "T-rust", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({ status: "installed", settings, events: EVENTS });
    const hooks = readJson(settings).hooks ?? {};
    expect(Object.keys(hooks)).toEqual(EVENTS);
    for (const event of EVENTS) {
      expect(hooks[event]).toHaveLength(1);
      const [entry] = hooks[event][0].hooks;
      expect(entry).toMatchObject({ type: "command", timeout: 30 });
      expect(entry.command).toContain(` session hook --vault ${dir} --topic T-rust`);
      expect(entry.command.startsWith(process.execPath)).toBe(true);
    }
  });

  it("keeps every other key and hook, and a second install changes nothing", () => {
    const { dir, settings } = project();
    fs.mkdirSync(path.dirname(settings));
    fs.writeFileSync(settings, THEIRS_TEXT);
    expect(install(dir).status).toBe(0);
    const after = readJson(settings) as typeof THEIRS & Settings;
    expect({ ...after, hooks: undefined }).toEqual({ ...THEIRS, hooks: undefined });
    expect(after.hooks?.PreToolUse).toEqual(THEIRS.hooks.PreToolUse);
    expect(after.hooks?.SessionStart?.[0]).toEqual(THEIRS.hooks.SessionStart[0]);
    expect(after.hooks?.SessionStart).toHaveLength(2);
    const once = fs.readFileSync(settings, "utf8");
    const again = install(dir, ["--json"]);
    expect(again.json()).toMatchObject({ status: "unchanged" });
    expect(fs.readFileSync(settings, "utf8")).toBe(once);
  });

  it("installed again with other options replaces its own hooks instead of adding", () => {
    const { dir, settings } = project();
    expect(install(dir, ["--topic", "T-rust"]).status).toBe(0);
    expect(install(dir, ["--topic", "T-sql"]).status).toBe(0);
    const hooks = readJson(settings).hooks ?? {};
    for (const event of EVENTS) {
      expect(hooks[event]).toHaveLength(1);
      expect(hooks[event][0].hooks[0].command).toContain("--topic T-sql");
    }
  });

  it("the command it installs is what a host can run: it answers a SessionStart from another folder", () => {
    const { dir, settings } = project();
    expect(install(dir, ["--topic", "T-rust"]).status).toBe(0);
    const command = readJson(settings).hooks?.SessionStart?.[0].hooks[0].command ?? "";
    const elsewhere = makeTempDir();
    const input = JSON.stringify({ hook_event_name: "SessionStart", session_id: "s-1", source: "startup" });
    const run = spawnSync("/bin/sh", ["-c", command], {
      cwd: elsewhere,
      input,
      encoding: "utf8",
      env: { PATH: "/nonexistent", PALEE_DEVICE: DEVICE, PALEE_CACHE_DIR: testCacheDir(), TZ: "UTC" },
    });
    expect(run.status).toBe(0);
    const doc = JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } };
    expect(doc.hookSpecificOutput.additionalContext).toContain("# Tutor brief: T-rust");
    expect(fs.readdirSync(path.join(dir, "palee", "sessions"))).toHaveLength(1);
  });

  it("a vault path with spaces and quotes is quoted for the shell", () => {
    const parent = makeTempDir();
    const dir = path.join(parent, "my 'study' vault");
    fs.mkdirSync(dir);
    expect(install(dir).status).toBe(0);
    const command = readJson(path.join(dir, ".claude", "settings.json")).hooks?.Stop?.[0].hooks[0].command ?? "";
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "s-1" });
    const run = spawnSync("sh", ["-c", command], {
      input,
      encoding: "utf8",
      env: { ...process.env, PALEE_CACHE_DIR: testCacheDir() },
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
  });
});

describe("uninstall", () => {
  it("removes only its own hooks: the file is as it was before the install", () => {
    const { dir, settings } = project();
    fs.mkdirSync(path.dirname(settings));
    fs.writeFileSync(settings, THEIRS_TEXT);
    expect(install(dir).status).toBe(0);
    const run = uninstall(dir, ["--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({ status: "uninstalled", events: EVENTS });
    expect(fs.readFileSync(settings, "utf8")).toBe(THEIRS_TEXT);
  });

  it("a file with no hooks of its own is not written", () => {
    const { dir, settings } = project();
    fs.mkdirSync(path.dirname(settings));
    fs.writeFileSync(settings, THEIRS_TEXT);
    const before = fs.statSync(settings).mtimeMs;
    const run = uninstall(dir, ["--json"]);
    expect(run.json()).toMatchObject({ status: "unchanged" });
    expect(fs.statSync(settings).mtimeMs).toBe(before);
    const none = project();
    expect(uninstall(none.dir).status).toBe(0);
    expect(fs.existsSync(none.settings)).toBe(false);
  });

  it("--settings names another file", () => {
    const { dir } = project();
    const file = path.join(makeTempDir(), "user-settings.json");
    expect(install(dir, ["--settings", file]).status).toBe(0);
    expect(Object.keys(readJson(file).hooks ?? {})).toEqual(EVENTS);
    expect(uninstall(dir, ["--settings", file]).status).toBe(0);
    expect(readJson(file)).toEqual({});
  });
});

describe("refusals: one line, exit 1, the file left as it was", () => {
  function expectRefused(run: RunResult, message: RegExp): void {
    expect(run.status).toBe(1);
    expect(lines(run.stderr)).toEqual([expect.stringMatching(message)]);
  }

  it.each([
    ["not JSON", '{ "hooks": { // a comment\n } }\n'],
    ["empty", ""],
    ["a list", "[]\n"],
    ["hooks not an object", '{"hooks": []}\n'],
    ["an event not a list", '{"hooks": {"Stop": {"type": "command"}}}\n'],
  ])("%s", (_name, text) => {
    const { dir, settings } = project();
    fs.mkdirSync(path.dirname(settings));
    fs.writeFileSync(settings, text);
    expectRefused(install(dir), /settings\.json/);
    expectRefused(uninstall(dir), /settings\.json/);
    expect(fs.readFileSync(settings, "utf8")).toBe(text);
    expect(fs.readdirSync(path.dirname(settings))).toEqual(["settings.json"]);
  });

  it("a symbolic link", () => {
    const { dir, settings } = project();
    const target = path.join(makeTempDir(), "real.json");
    fs.writeFileSync(target, THEIRS_TEXT);
    fs.mkdirSync(path.dirname(settings));
    fs.symlinkSync(target, settings);
    expectRefused(install(dir), /is a symbolic link: palee edits only a plain file/);
    expect(fs.lstatSync(settings).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(target, "utf8")).toBe(THEIRS_TEXT);
  });

  it("a file that cannot be written: read-only, or under a file", () => {
    const { dir, settings } = project();
    fs.mkdirSync(path.dirname(settings));
    fs.writeFileSync(settings, THEIRS_TEXT, { mode: 0o444 });
    expectRefused(install(dir), /settings\.json is read-only: nothing was changed$/);
    expect(fs.readFileSync(settings, "utf8")).toBe(THEIRS_TEXT);
    const blocker = path.join(dir, "not-a-folder");
    fs.writeFileSync(blocker, "x");
    const under = install(dir, ["--settings", path.join(blocker, "settings.json")]);
    expectRefused(under, /cannot (read|write) .*not-a-folder\/settings\.json \(ENOTDIR\): nothing was changed$/);
    expect(fs.readFileSync(blocker, "utf8")).toBe("x");
  });

  it("an unknown host, or both --install and --uninstall", () => {
    const { dir, settings } = project();
    expectRefused(runRaw(["session", "hook", "--install", "cursor"], { cwd: dir }), /unknown agent host "cursor"/);
    const both = ["session", "hook", "--install", "claude-code", "--uninstall", "claude-code"];
    expectRefused(runRaw(both, { cwd: dir }), /cannot be given together/);
    expect(fs.existsSync(settings)).toBe(false);
  });
});

/**
 * Bugs found in review (CLI end-to-end), each pinned by the test that would have caught it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  expectCleanError,
  makeTempDir,
  makeVault,
  palee,
  runRaw,
} from "./support";

afterEach(cleanupVaults);

describe("a session folder reached through a symlink that stays inside the vault", () => {
  it("starts and ends normally — never exit 5 after the note is written, leaving the vault stuck", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "Study", "palee"), { recursive: true });
    fs.symlinkSync(path.join(vault, "Study", "palee"), path.join(vault, "palee")); // accepted: it stays inside the vault
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const end = palee(vault, ["end", "--summary", "done"]);
    expect({ status: end.status, stderr: end.stderr }).toEqual({ status: 0, stderr: "" });
    expect(draftFiles(vault)).toEqual([]);
    expect(confirmedFiles(vault)).toHaveLength(1);
    // and the vault is not wedged: the next start works
    expect(palee(vault, ["start", "--topic", "T-b"]).status).toBe(0);
  });
});

describe("--vault edge cases", () => {
  it("an empty --vault (e.g. --vault \"$UNSET\") is a usage error, not the current directory", () => {
    const cwd = makeTempDir("palee-review-cwd-");
    const run = runRaw(["session", "start", "--topic", "T-a", "--vault", ""], { cwd });
    expectCleanError(run, 2);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });
});

describe("every error is one line on stderr (SPEC §5)", () => {
  it("a --draft value with a line break gives a one-line error", () => {
    const vault = makeVault();
    expectCleanError(palee(vault, ["recover", "--draft", "DRAFT-S-0000000a\nsecond line", "--action", "save"]), 2);
  });

  it("an unknown action with a line break gives a one-line error", () => {
    expectCleanError(runRaw(["session", "bo\ngus"]), 2);
  });
});

describe("session folder and end guards", () => {
  it("refuses a --folder that is a file with a usage error (exit 2)", () => {
    const vault = makeVault();
    fs.writeFileSync(path.join(vault, "notes.md"), "a note\n");
    const run = palee(vault, ["list", "--folder", "notes.md"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain("is not a folder");
  });

  it("refuses a second end without --topic instead of recording a 0-minute session", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", "once"]).status).toBe(0);
    const again = palee(vault, ["end", "--summary", "once"]);
    expectCleanError(again, 2);
    expect(again.stderr).toContain("no open session on T-a");
    expect(confirmedFiles(vault)).toHaveLength(1);
  });
});

/**
 * The CLI as people use it in a terminal (contract §5): output into a pipe that closes early, option values that
 * begin with "-" (Markdown bullets), unknown options, and odd files where the session folder's parts belong.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunResult } from "./support";
import {
  CLI,
  DEVICE,
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  expectCleanError,
  makeVault,
  palee,
  readRecord,
  runRaw,
  section,
  snapshot,
  writeFile,
} from "./support";

afterEach(cleanupVaults);

/** Runs the CLI with its stdout closed by the reader before anything is written (as `… | head -0` would). */
function intoClosedPipe(vault: string, args: readonly string[]): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, PALEE_DEVICE: DEVICE, TZ: "UTC" };
  delete env.PALEE_DEBUG;
  const child = spawn(process.execPath, [CLI, "session", ...args, "--vault", vault], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.destroy(); // the reader is gone: every write of the CLI meets EPIPE
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout: "", stderr, json: () => ({}) }));
  });
}

describe("output into a pipe the reader closed (palee session list | head -1)", () => {
  it("start ends quietly with exit 0 and has written its files", async () => {
    const vault = makeVault();
    // Observed before the fix: a Node stack trace ("Error: write EPIPE") and exit 1, although the session started.
    const run = await intoClosedPipe(vault, ["start", "--topic", "T-a"]);
    // The one line on stderr is the new-topic notice (contract §4 "finding a topic by name").
    expect(run).toMatchObject({ status: 0, stderr: "new topic T-a\n" });
    expect(draftFiles(vault)).toHaveLength(1);
  });

  it("list, status and --json documents end quietly with exit 0", async () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", "done"]).status).toBe(0);
    for (const args of [["list"], ["list", "--json"], ["status"], ["rebuild"]]) {
      expect(await intoClosedPipe(vault, args)).toMatchObject({ status: 0, stderr: "" });
    }
  });

  it("keeps the exit code of a refusal", async () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const run = await intoClosedPipe(vault, ["start", "--topic", "T-b", "--json"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("already open");
    expect(run.stderr).not.toMatch(/EPIPE|^\s+at /m);
  });
});

describe("option values that begin with a dash are text", () => {
  it("end --summary and --next take Markdown bullets and dashes as they are", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    // Observed before the fix: "Option '--summary' argument is ambiguous" (exit 2), the session not ended.
    const run = palee(vault, ["end", "--summary", "- borrowing rules\n- moves", "--next", "--read chapter 5"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const { body } = readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`);
    expect(section(body, "Summary")).toBe("- borrowing rules\n- moves");
    expect(section(body, "Next action")).toBe("--read chapter 5");
  });

  it("draft --note takes '-x is negation', and --note=-y works too", () => {
    const vault = makeVault();
    expect(palee(vault, ["draft", "--topic", "T-a", "--note", "-x is negation"]).status).toBe(0);
    expect(palee(vault, ["draft", "--topic", "T-a", "--note=-y too"]).status).toBe(0);
    const { body } = readRecord(vault, `palee/sessions/${draftFiles(vault)[0]}`);
    expect(body).toMatch(/^- \d\d:\d\d -x is negation\n\n- \d\d:\d\d -y too\n$/);
  });

  it("a value that looks like an option is the value, not the option (--summary --json)", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const run = palee(vault, ["end", "--summary", "--json"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Saved S-/);
    const { body } = readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`);
    expect(section(body, "Summary")).toBe("--json");
  });

  it("an option without its value is a usage error naming it", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const run = runRaw(["session", "end", "--vault", vault, "--summary"]);
    expectCleanError(run, 2);
    expect(run.stderr).toBe("palee: --summary needs a value\n");
    expect(draftFiles(vault)).toHaveLength(1);
  });
});

describe("unknown options", () => {
  it.each([
    [["list", "--bogus"], "palee: unknown option --bogus (see palee session --help)\n"],
    [["list", "--bogus=1"], "palee: unknown option --bogus (see palee session --help)\n"],
    [["start", "-z"], 'palee: unknown option -z in "-z" (see palee session --help)\n'],
    [["list", "--json=yes"], "palee: --json takes no value\n"],
  ])("%j gets our own one-line message (exit 2) and changes nothing", (args, message) => {
    const vault = makeVault();
    const run = palee(vault, args);
    expectCleanError(run, 2);
    expect(run.stderr).toBe(message);
    expect(snapshot(vault)).toEqual({});
  });

  it("with --json, the error document names the option", () => {
    const vault = makeVault();
    const run = palee(vault, ["list", "--json", "--bogus"]);
    expectCleanError(run, 2, { json: true, code: "usage" });
    expect(run.json().message).toBe("unknown option --bogus (see palee session --help)");
  });

  it("-i and -h still work, also grouped", () => {
    const vault = makeVault();
    expect(palee(vault, ["-h"]).stdout).toMatch(/^Usage: palee session/);
    expect(palee(vault, ["start", "--topic", "T-a", "-ih"]).stdout).toMatch(/^Usage: palee session/);
  });
});

describe("odd files where the session folder's parts belong", () => {
  it("a file where palee/sessions should be: exit 2 naming it (not exit 5 ENOTDIR)", () => {
    const vault = makeVault();
    writeFile(vault, "palee/sessions", "not a folder\n");
    const before = snapshot(vault);
    for (const args of [
      ["list"],
      ["start", "--topic", "T-a"],
      ["end", "--topic", "T-a"],
      ["rebuild"],
      ["draft", "--topic", "T-a"],
    ]) {
      const run = palee(vault, [...args, "--json"]);
      expectCleanError(run, 2, { json: true, code: "usage" });
      expect(run.stderr).toBe("palee: palee/sessions is a file, but a folder belongs there: move it out of the way\n");
    }
    expect(snapshot(vault)).toEqual(before);
  });

  it("a folder where hot.md should be: exit 2 naming it (not exit 5 EISDIR)", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "palee", "hot.md"), { recursive: true });
    for (const args of [
      ["status"],
      ["start", "--topic", "T-a"],
      ["draft", "--topic", "T-a"],
      ["end", "--topic", "T-a"],
      ["rebuild"],
      ["list"],
    ]) {
      const run = palee(vault, [...args, "--json"]);
      expectCleanError(run, 2, { json: true, code: "usage" });
      expect(run.stderr).toBe("palee: palee/hot.md is a folder, but a file belongs there: move it out of the way\n");
    }
    expect(draftFiles(vault)).toEqual([]);
  });

  it("a folder where index.md should be: exit 2 naming it", () => {
    const vault = makeVault();
    fs.mkdirSync(path.join(vault, "palee", "index.md"), { recursive: true });
    const run = palee(vault, ["rebuild"]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain("palee/index.md is a folder");
  });
});

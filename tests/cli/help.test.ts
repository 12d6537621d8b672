/** Per-action help, a bare `palee`, and --version: what the commands table prints about itself. */
import * as fs from "node:fs";
import * as path from "node:path";
import { runRaw } from "./support";

const ACTIONS =
  "start|draft|end|list|status|recover|rebuild|pause|continue|log|stats|export|context|show|latest|hook|goal|year|next";
const USAGE_LINE = new RegExp(`^Usage: palee session <${ACTIONS.replace(/\|/g, "\\|")}> \\[options\\]\n`);

describe("per-action help", () => {
  it("prints what end does, its options and an example after the usage, and exits 0", () => {
    const run = runRaw(["session", "end", "--help"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(USAGE_LINE);
    const own = run.stdout.slice(run.stdout.indexOf("\npalee session end: "));
    expect(own).toMatch(/^\npalee session end: Ends the open session/);
    const options = ["--topic <id>", "--summary <text>", "--next <text>", "--at <now|last|HH:MM|ISO>", "--note <text>"];
    for (const option of [...options, "--agent <id>", "--outcome <completed|interrupted>"]) {
      expect(own).toContain(`  ${option}`);
    }
    // Only the options end takes (contract §4b): not start's.
    expect(own).not.toContain("--interactive");
    expect(own).toMatch(/\nExample:\n {2}palee session end --summary .*\n$/);
  });

  it.each([
    "start",
    "draft",
    "end",
    "list",
    "status",
    "recover",
    "rebuild",
    "pause",
    "continue",
    "log",
    "stats",
    "export",
    "context",
    "show",
    "latest",
    "hook",
    "goal",
    "year",
    "next",
  ])("has a description and an example for %s", (action) => {
    const run = runRaw(["session", action, "-h"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`\npalee session ${action}: `);
    expect(run.stdout).toContain(`\nExample:\n  palee session ${action}`);
  });

  it("lists only the options the action accepts", () => {
    const run = runRaw(["session", "stats", "--help"]);
    const own = run.stdout.slice(run.stdout.indexOf("\npalee session stats: "));
    expect(own.match(/^ {2}--\S+/gm)).toEqual(["  --since", "  --until", "  --as-of"]);
  });
});

describe("bare palee", () => {
  it("prints the usage on stderr and exits 2, as a missing command does", () => {
    const run = runRaw([]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(USAGE_LINE);
    expect(run.stderr).toMatch(/\n\npalee: missing command: palee session <action>\n$/);
  });
});

describe("--version", () => {
  const version = (
    JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as {
      version: string;
    }
  ).version;

  it("prints the version of package.json and exits 0", () => {
    const run = runRaw(["--version"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
    expect(run.stderr).toBe("");
  });

  it("is refused after an action, like any option the action does not take", () => {
    const run = runRaw(["session", "list", "--version"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('palee: --version does not apply to "session list"\n');
  });
});

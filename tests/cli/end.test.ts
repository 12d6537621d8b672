/**
 * `palee session end` run again after a crash or a conflict (contract §4 end): the session is reported as saved,
 * and the summary and next action are said to be lost only when the saved note lacks them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  draftId,
  makeVault,
  palee,
  readText,
  sessionIdFor,
  writeConfirmed,
  writeHot,
  expectCleanError,
  snapshot,
} from "./support";

afterEach(cleanupVaults);

const DRAFT = draftId("0000000c");

/** end wrote the confirmed note and trashed the draft, then was cut before clearing hot.md's pointer. */
function vaultCutBeforeEndsLastWrite(): { vault: string; saved: string } {
  const vault = makeVault();
  const started = ago(40);
  const id = sessionIdFor(Date.parse(started), "abcd");
  writeHot(vault, { activeTopic: "T-a", startedAt: started, openDraft: DRAFT, device: "test-device" });
  const saved = writeConfirmed(vault, {
    id,
    topic: "T-a",
    startedAt: started,
    endedAt: ago(10),
    duration: 30,
    absorbed: [DRAFT],
    summary: "- cc",
    next: "nn",
  });
  return { vault, saved };
}

describe("the same end --summary run again after a crash", () => {
  it("reports the saved session and warns about nothing", () => {
    const { vault, saved } = vaultCutBeforeEndsLastWrite();
    const before = readText(vault, saved);
    // Before the fix it warned "this end's summary and next action were not recorded: add them to … by hand".
    const run = palee(vault, ["end", "--summary", "- cc", "--next", "nn"]);
    expect(run.status).toBe(0);
    expect(run.stderr).not.toMatch(/not recorded/);
    expect(run.stdout).toMatch(/already saved/);
    expect(readText(vault, saved)).toBe(before);
    expect(confirmedFiles(vault)).toHaveLength(1);
  });

  it("with another summary, warns that this summary was not recorded", () => {
    const { vault, saved } = vaultCutBeforeEndsLastWrite();
    const run = palee(vault, ["end", "--summary", "something else", "--next", "nn", "--json"]);
    expect(run.status).toBe(0);
    const warnings = run.json().warnings as string[];
    expect(warnings.filter((w) => w.includes("not recorded"))).toEqual([
      `this end's summary was not recorded: add it to ${saved} by hand`,
    ]);
  });
});

describe("a second end of a session already ended", () => {
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

describe("end with nothing open (contract §4 end, version 3)", () => {
  it("refuses --topic too, writing nothing, and points to log instead of recording a session from now", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", "Borrowing"]).status).toBe(0);
    const before = snapshot(vault);
    for (let i = 0; i < 4; i++) {
      const hook = palee(vault, ["end", "--topic", "T-a", "--json"]);
      expectCleanError(hook, 2, { json: true, code: "nothing_open" });
      expect(hook.stderr).toContain("palee session log --topic T-a");
      expect(hook.stderr).not.toMatch(/from now/);
    }
    expect(snapshot(vault)).toEqual(before);
  });

  it("--if-none ignore is a success that writes nothing: exit 0, {status: nothing_open}, one plain line", () => {
    const vault = makeVault();
    const json = palee(vault, ["end", "--topic", "T-a", "--if-none", "ignore", "--json"]);
    expect([json.status, json.stderr]).toEqual([0, ""]);
    expect(json.json()).toEqual({ status: "nothing_open" });
    const text = palee(vault, ["end", "--topic", "T-a", "--if-none", "ignore"]);
    expect([text.status, text.stderr, text.stdout]).toEqual([
      0,
      "",
      "No open session: nothing to end, nothing was written.\n",
    ]);
    expect(snapshot(vault)).toEqual({});
  });

  it("--if-none ignore still ends an open session, and --if-none refuse is the default", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    const ended = palee(vault, ["end", "--if-none", "ignore", "--json"]);
    expect(ended.status).toBe(0);
    expect(ended.json()).toMatchObject({ status: "ended", session: { topic_id: "T-a" } });
    expectCleanError(palee(vault, ["end", "--if-none", "refuse", "--json"]), 2, { json: true, code: "nothing_open" });
  });

  it("refuses any other --if-none value, and only end takes it", () => {
    const vault = makeVault();
    const bad = palee(vault, ["end", "--topic", "T-a", "--if-none", "skip", "--json"]);
    expectCleanError(bad, 2, { json: true, code: "usage" });
    expect(bad.stderr).toContain("--if-none must be refuse or ignore");
    expectCleanError(palee(vault, ["start", "--topic", "T-a", "--if-none", "ignore"]), 2);
    expect(snapshot(vault)).toEqual({});
  });

  it("lists --if-none in the help", () => {
    expect(palee(makeVault(), ["end", "--help"]).stdout).toMatch(/--if-none <refuse\|ignore>\s+with no open session/);
  });
});

describe("a failure after the session note is saved", () => {
  it("says first that the session is saved (index.md cannot be written: exit 5)", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    // A folder where index.md belongs: any write of it fails, as a full disk would.
    fs.mkdirSync(path.join(vault, "palee", "index.md"), { recursive: true });
    const run = palee(vault, ["end", "--summary", "done", "--json"]);
    expectCleanError(run, 5, { json: true, code: "saved_incomplete" });
    expect(run.stderr).toMatch(/^palee: Saved S-\d{8}T\d{6}-[0-9a-f]{4} \(T-a, 0 min\), but /);
    expect(run.stderr).not.toContain("unexpected error");
    expect(confirmedFiles(vault)).toHaveLength(1);
  });
});

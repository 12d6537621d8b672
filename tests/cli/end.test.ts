/**
 * `palee session end` run again after a crash or a conflict (contract §4 end): the session is reported as saved,
 * and the summary and next action are said to be lost only when the saved note lacks them.
 */
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

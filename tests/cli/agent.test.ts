/**
 * `palee session start|end --agent`, `end --outcome`, `end --note`, `--summary -` / `--next -` and status's
 * `agent` / `draft_path` (contract §4b agent-safe options, §5 JSON): what an agent host's hooks rely on.
 */
import {
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  expectCleanError,
  makeVault,
  palee,
  readRecord,
  section,
  snapshot,
} from "./support";

afterEach(cleanupVaults);

const AGENT = "claude-code:5f1c-aa";

function learnerStarted(): string {
  const vault = makeVault();
  expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
  return vault;
}

function agentStarted(agent = AGENT): string {
  const vault = makeVault();
  expect(palee(vault, ["start", "--topic", "T-rust", "--agent", agent]).status).toBe(0);
  return vault;
}

describe("an agent never ends the learner's session", () => {
  it("end --agent with the learner's session open: not_this_agent, exit 2, nothing written", () => {
    const vault = learnerStarted();
    const before = snapshot(vault);
    const run = palee(vault, ["end", "--agent", AGENT, "--summary", "agent's", "--json"]);
    expectCleanError(run, 2, { json: true, code: "not_this_agent" });
    expect(run.stderr).toMatch(/opened by the learner, not claude-code:5f1c-aa/);
    expect(snapshot(vault)).toEqual(before);
  });

  it("with --if-none ignore: exit 0, nothing written", () => {
    const vault = learnerStarted();
    const before = snapshot(vault);
    const run = palee(vault, ["end", "--agent", AGENT, "--if-none", "ignore", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toEqual({ status: "not_this_agent" });
    expect(snapshot(vault)).toEqual(before);
    const text = palee(vault, ["end", "--agent", AGENT, "--if-none", "ignore"]);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/left alone and nothing was written/);
    expect(snapshot(vault)).toEqual(before);
  });

  it("another agent's session is left alone too", () => {
    const vault = agentStarted("codex:1");
    const before = snapshot(vault);
    expectCleanError(palee(vault, ["end", "--agent", AGENT]), 2);
    expect(snapshot(vault)).toEqual(before);
  });

  it("with no topic, nothing open and --if-none ignore: nothing_open, exit 0 (not topic required)", () => {
    const vault = makeVault();
    const before = snapshot(vault);
    const run = palee(vault, ["end", "--if-none", "ignore", "--json"]);
    expect({ status: run.status, doc: run.json() }).toEqual({ status: 0, doc: { status: "nothing_open" } });
    expect(snapshot(vault)).toEqual(before);
  });

  it("with nothing open and --if-none ignore: nothing_open, exit 0", () => {
    const vault = makeVault();
    const run = palee(vault, ["end", "--agent", AGENT, "--if-none", "ignore", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toEqual({ status: "nothing_open" });
    expect(confirmedFiles(vault)).toEqual([]);
  });
});

describe("an agent's own session", () => {
  it("records agent in the draft, status, and the confirmed note; end --agent ends it", () => {
    const vault = agentStarted();
    const [draft] = draftFiles(vault);
    expect(readRecord(vault, `palee/sessions/${draft}`).fields.agent).toBe(AGENT);
    const status = palee(vault, ["status", "--json"]).json().open as Record<string, unknown>;
    expect(status.agent).toBe(AGENT);
    expect(status.draft_path).toBe(`palee/sessions/${draft}`);
    expect(palee(vault, ["status"]).stdout).toContain(`\nOpened by agent ${AGENT}\n`);
    const run = palee(vault, ["end", "--agent", AGENT, "--outcome", "interrupted", "--note", "n", "--json"]);
    expect(run.status).toBe(0);
    const session = run.json().session as Record<string, unknown>;
    expect(session.agent).toBe(AGENT);
    expect(session.outcome).toBe("interrupted");
    const [note] = confirmedFiles(vault);
    const record = readRecord(vault, `palee/sessions/${note}`);
    expect(record.fields.agent).toBe(AGENT);
    expect(record.fields.outcome).toBe("interrupted");
    expect(draftFiles(vault)).toEqual([]);
  });

  it("the learner's status has agent null and its draft_path", () => {
    const vault = learnerStarted();
    const open = palee(vault, ["status", "--json"]).json().open as Record<string, unknown>;
    expect(open.agent).toBeNull();
    expect(open.draft_path).toBe(`palee/sessions/${draftFiles(vault)[0]}`);
    expect(palee(vault, ["status"]).stdout).not.toContain("Opened by agent");
  });

  it("end --note adds a timed last note to the Notes", () => {
    const vault = agentStarted();
    expect(palee(vault, ["end", "--agent", AGENT, "--note", "stopped at 4.2"]).status).toBe(0);
    const [note] = confirmedFiles(vault);
    expect(section(readRecord(vault, `palee/sessions/${note}`).body, "Notes")).toMatch(/^- \d\d:\d\d stopped at 4\.2$/);
  });
});

describe("--summary - and --next - read standard input", () => {
  it("takes the summary from stdin, with its Markdown kept", () => {
    const vault = agentStarted();
    const input = "- borrowing rules\n- lifetimes: 'a\n";
    const run = palee(vault, ["end", "--agent", AGENT, "--summary", "-", "--next", "exercises 4.1"], { input });
    expect(run.status).toBe(0);
    const body = readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).body;
    expect(section(body, "Summary")).toBe("- borrowing rules\n- lifetimes: 'a");
    expect(section(body, "Next action")).toBe("exercises 4.1");
  });

  it("takes the next action from stdin", () => {
    const vault = learnerStarted();
    expect(palee(vault, ["end", "--next", "-"], { input: "read chapter 5\n" }).status).toBe(0);
    const body = readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).body;
    expect(section(body, "Next action")).toBe("read chapter 5");
  });

  it("empty stdin is no summary", () => {
    const vault = learnerStarted();
    expect(palee(vault, ["end", "--summary", "-"], { input: "  \n" }).status).toBe(0);
    const body = readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).body;
    expect(section(body, "Summary")).toBeNull();
  });

  it("refuses both from stdin, and more than 100 KB, writing nothing", () => {
    const vault = learnerStarted();
    const before = snapshot(vault);
    expectCleanError(palee(vault, ["end", "--summary", "-", "--next", "-"], { input: "x" }), 2);
    const big = palee(vault, ["end", "--summary", "-"], { input: "x".repeat(100 * 1024 + 1) });
    expectCleanError(big, 2);
    expect(big.stderr).toMatch(/more than 100 KB/);
    expect(snapshot(vault)).toEqual(before);
  });
});

describe("bad agent IDs and outcomes are refused with one line", () => {
  it.each([
    ["start", "--agent", ""],
    ["start", "--agent", "two words"],
    ["start", "--agent", "claude-code:x\nstatus: completed"],
    ["start", "--agent", "x".repeat(201)],
    ["end", "--agent", "bad\u0007"],
    ["end", "--outcome", "logged"],
    ["end", "--outcome", ""],
  ])("session %s %s %j", (action, option, value) => {
    const vault = learnerStarted();
    const before = snapshot(vault);
    const run = palee(vault, [action, option, value, "--json"]);
    expectCleanError(run, 2, { json: true, code: "usage" });
    expect(snapshot(vault)).toEqual(before);
  });
});

describe("small defects (issue 35 §4)", () => {
  it("start refused by an agent's open session names the agent", () => {
    const vault = agentStarted();
    const run = palee(vault, ["start", "--topic", "T-rust"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`opened by agent ${AGENT}`);
  });

  it("end --summary - with empty standard input says so", () => {
    const vault = learnerStarted();
    const run = palee(vault, ["end", "--summary", "-"], { input: "" });
    expect(run.status).toBe(0);
    expect(run.stderr).toContain("warning: --summary -: standard input was empty");
  });

  it("the hook reads an event after a UTF-8 byte-order mark", () => {
    const vault = makeVault();
    const event = JSON.stringify({ hook_event_name: "SessionStart", session_id: "bom-1", source: "startup" });
    const run = palee(vault, ["hook", "--topic", "T-rust"], { input: `\uFEFF${event}` });
    expect(run.status).toBe(0);
    expect(draftFiles(vault)).toHaveLength(1);
  });
});

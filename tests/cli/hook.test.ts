/**
 * `palee session hook` (contract §4b): one Claude Code hook event on stdin. SessionStart starts or keeps the
 * conversation's own session and prints the brief for the host; UserPromptSubmit, Stop and PreCompact
 * checkpoint only that session; SessionEnd ends it at its last sign of life. It never touches a session its
 * agent did not open and never exits 2.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RunResult } from "./support";
import {
  CLI,
  DEVICE,
  MINUTE,
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  iso,
  lines,
  makeVault,
  palee,
  readRecord,
  snapshot,
  testCacheDir,
} from "./support";

afterEach(cleanupVaults);

const ID = "5f1c2d3e-aaaa-4bbb-8ccc-0123456789ab";
const AGENT = `claude-code:${ID}`;

function event(name: string, extra: Record<string, unknown> = {}, sessionId: string = ID): string {
  return JSON.stringify({
    session_id: sessionId,
    transcript_path: "/home/learner/.claude/projects/x/transcript.jsonl",
    cwd: "/home/learner/vault",
    permission_mode: "default",
    hook_event_name: name,
    ...extra,
  });
}

function hook(vault: string, input: string, args: string[] = []): RunResult {
  return palee(vault, ["hook", ...args], { input });
}

/**
 * The hook as a host runs it, asynchronously: `input` is written and stdin is closed after it unless `keepOpen`
 * (a host that never closes it). A hook that stops reading early (bounded input) is no error of the writer.
 */
function hostRuns(
  vault: string,
  input: string,
  options: { keepOpen?: boolean } = {},
): Promise<RunResult & { ms: number }> {
  const env = { ...process.env, PALEE_DEVICE: DEVICE, TZ: "UTC", PALEE_CACHE_DIR: testCacheDir() };
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, "session", "hook", "--vault", vault], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout += t));
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  child.stdin.on("error", () => undefined);
  if (options.keepOpen) child.stdin.write(input);
  else child.stdin.end(input);
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({
        status,
        stdout,
        stderr,
        ms: Date.now() - started,
        json: () => JSON.parse(stdout) as Record<string, unknown>,
      });
    });
  });
}

/** The additionalContext of a SessionStart answer, after checking the document's shape. */
function contextOf(run: RunResult): string {
  expect(run.status).toBe(0);
  const doc = run.json() as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(Object.keys(doc)).toEqual(["hookSpecificOutput"]);
  expect(doc.hookSpecificOutput.hookEventName).toBe("SessionStart");
  return doc.hookSpecificOutput.additionalContext;
}

function openDraft(vault: string): { file: string; fields: Record<string, unknown> } {
  const [file] = draftFiles(vault);
  return { file, fields: readRecord(vault, `palee/sessions/${file}`).fields };
}

/** Moves the open session's start back by `startMin` minutes and its last checkpoint to `lastMin` ago. */
function age(vault: string, startMin: number, lastMin: number): { started: string; last: string } {
  const { file, fields } = openDraft(vault);
  const oldStart = fields.started_at as string;
  const started = iso(Date.now() - startMin * MINUTE);
  const last = iso(Date.now() - lastMin * MINUTE);
  const draftPath = path.join(vault, "palee", "sessions", file);
  const draft = fs.readFileSync(draftPath, "utf8").split(`"${oldStart}"`);
  fs.writeFileSync(draftPath, `${draft[0]}"${started}"${draft[1]}"${last}"${draft.slice(2).join(`"${oldStart}"`)}`);
  const hotPath = path.join(vault, "palee", "hot.md");
  fs.writeFileSync(hotPath, fs.readFileSync(hotPath, "utf8").split(oldStart).join(started));
  return { started, last };
}

function agentStarted(): string {
  const vault = makeVault();
  expect(hook(vault, event("SessionStart", { source: "startup" }), ["--topic", "T-rust"]).status).toBe(0);
  return vault;
}

describe("SessionStart", () => {
  it("starts the conversation's session and gives the host the brief", () => {
    const vault = makeVault();
    const run = hook(vault, event("SessionStart", { source: "startup" }), ["--topic", "T-rust"]);
    const context = contextOf(run);
    expect(context).toMatch(/^PALEE: a study session on T-rust started for this conversation \(agent claude-code:/);
    // The tests run palee from the repository, not from the vault: the end names the vault, and node and the
    // CLI by absolute path (bare `palee` is not on the PATH after npm install).
    expect(context).toContain(`${process.execPath} ${CLI} session end --vault ${vault} --agent ${AGENT} --summary`);
    expect(context).toContain("# Tutor brief: T-rust");
    expect(openDraft(vault).fields.agent).toBe(AGENT);
    expect(palee(vault, ["status", "--json"]).json().open).toMatchObject({ agent: AGENT, topic_id: "T-rust" });
  });

  it("gives an end command that runs as written, from another folder with an empty PATH", () => {
    const vault = makeVault();
    const context = contextOf(hook(vault, event("SessionStart", { source: "startup" }), ["--topic", "T-rust"]));
    const written = /To end it yourself with what was covered: (.*)$/m.exec(context)?.[1] ?? "";
    const line = written.replace("<what was covered>", "borrows").replace("<the next step>", "ex 4.1");
    const env = { PATH: "", PALEE_DEVICE: DEVICE, TZ: "UTC", PALEE_CACHE_DIR: testCacheDir() };
    const run = spawnSync("/bin/sh", ["-c", line], { cwd: path.dirname(vault), env, encoding: "utf8" });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(confirmedFiles(vault)).toHaveLength(1);
  });

  it("after a compaction or a resume keeps that session: no second draft", () => {
    const vault = agentStarted();
    const before = snapshot(vault);
    const context = contextOf(hook(vault, event("SessionStart", { source: "compact" }), ["--topic", "T-rust"]));
    expect(context).toMatch(/^PALEE: this conversation's study session on T-rust is open\./);
    expect(draftFiles(vault)).toHaveLength(1);
    expect(snapshot(vault)).toEqual(before);
  });

  it("keeps its own session on its topic when started again with another --topic, and briefs that one", () => {
    const vault = agentStarted();
    const context = contextOf(hook(vault, event("SessionStart", { source: "resume" }), ["--topic", "T-sql"]));
    expect(context).toMatch(/^PALEE: this conversation's study session on T-rust is open\./);
    expect(context).toContain("# Tutor brief: T-rust\n");
    expect(openDraft(vault).fields.topic_id).toBe("T-rust");
  });

  it("with the learner's own session open changes nothing and still briefs the tutor", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    const before = snapshot(vault);
    const context = contextOf(hook(vault, event("SessionStart", { source: "startup" })));
    expect(context).toMatch(/^PALEE: the learner's own session on T-rust is open \(since .+\); this conversation/);
    expect(context).toContain("## Open session");
    expect(snapshot(vault)).toEqual(before);
    expect(openDraft(vault).fields.agent).toBeUndefined();
  });

  it('says "new topic" only when a session began on it', () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    const kept = hook(vault, event("SessionStart"), ["--topic", "T-brand-new"]);
    expect({ status: kept.status, stderr: kept.stderr }).toEqual({ status: 0, stderr: "" });
    const fresh = makeVault();
    const started = hook(fresh, event("SessionStart"), ["--topic", "T-brand-new"]);
    expect(started.stderr).toMatch(/new topic T-brand-new/);
  });

  it("defaults to the active topic", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-sql"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", "joins"]).status).toBe(0);
    const context = contextOf(hook(vault, event("SessionStart")));
    expect(context).toMatch(/session on T-sql started/);
    expect(context).toContain("joins");
  });

  it("with unfinished drafts pending starts nothing and tells the tutor", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    const hotPath = path.join(vault, "palee", "hot.md");
    // hot.md lost its pointer (a crash of another tool): the draft is pending, not open.
    fs.writeFileSync(hotPath, fs.readFileSync(hotPath, "utf8").replace(/open_draft: .*/, "open_draft: null"));
    const before = snapshot(vault);
    const context = contextOf(hook(vault, event("SessionStart"), ["--topic", "T-rust"]));
    expect(context).toMatch(/^PALEE: no study session was started: 1 unfinished session draft\(s\) wait/);
    expect(snapshot(vault)).toEqual(before);
  });
});

describe("signs of life", () => {
  it.each(["UserPromptSubmit", "Stop", "PreCompact"])("%s checkpoints the agent's own session, silently", (name) => {
    const vault = agentStarted();
    const { last } = age(vault, 30, 20);
    const run = hook(vault, event(name, name === "UserPromptSubmit" ? { prompt: "what is a borrow?" } : {}));
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: "",
      stderr: "",
    });
    const checkpoint = openDraft(vault).fields.last_checkpoint_at as string;
    expect(checkpoint).not.toBe(last);
    expect(Math.abs(Date.parse(checkpoint) - Date.now())).toBeLessThan(60_000);
    expect(draftFiles(vault)).toHaveLength(1);
  });

  it("never touches the learner's session, another agent's, or creates one", () => {
    const learner = makeVault();
    expect(palee(learner, ["start", "--topic", "T-rust"]).status).toBe(0);
    const other = makeVault();
    expect(hook(other, event("SessionStart", {}, "other-conversation"), ["--topic", "T-rust"]).status).toBe(0);
    const empty = makeVault();
    for (const vault of [learner, other, empty]) {
      const before = snapshot(vault);
      const run = hook(vault, event("UserPromptSubmit", { prompt: "hi" }));
      expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: "" });
      expect(snapshot(vault)).toEqual(before);
    }
    expect(draftFiles(empty)).toEqual([]);
  });
});

describe("SessionEnd", () => {
  it("ends the agent's session at its last sign of life, completed on a normal exit", () => {
    const vault = agentStarted();
    const { started, last } = age(vault, 60, 20);
    const run = hook(vault, event("SessionEnd", { reason: "prompt_input_exit" }));
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: "" });
    const [note] = confirmedFiles(vault);
    const fields = readRecord(vault, `palee/sessions/${note}`).fields;
    expect(fields).toMatchObject({ started_at: started, ended_at: last, duration_minutes: 40, agent: AGENT });
    expect(fields.outcome).toBe("completed");
    expect(draftFiles(vault)).toEqual([]);
  });

  it("discards a conversation opened and closed with no prompt: no session, the real one's summary kept", () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    expect(palee(vault, ["end", "--summary", "- the real summary"]).status).toBe(0);
    for (let i = 0; i < 5; i++) {
      const id = `empty-${i}`;
      expect(hook(vault, event("SessionStart", { source: "startup" }, id), ["--topic", "T-rust"]).status).toBe(0);
      const run = hook(vault, event("SessionEnd", { reason: "prompt_input_exit" }, id));
      expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: "" });
    }
    expect(confirmedFiles(vault)).toHaveLength(1);
    expect(draftFiles(vault)).toEqual([]);
    expect(palee(vault, ["status", "--json"]).json()).toEqual({ open: null });
    expect(fs.readFileSync(path.join(vault, "palee", "hot.md"), "utf8")).toContain("- the real summary");
  });

  it("end --agent of the agent's empty session answers discarded_empty and saves nothing", () => {
    const vault = agentStarted();
    const draft = openDraft(vault).file.replace(/\.md$/, "");
    const run = palee(vault, ["end", "--agent", AGENT, "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toEqual({ status: "discarded_empty", draft_id: draft });
    expect(confirmedFiles(vault)).toEqual([]);
    expect(draftFiles(vault)).toEqual([]);
  });

  it.each(["other", "bypass_permissions_disabled", "something_new"])("reason %s: outcome interrupted", (reason) => {
    const vault = agentStarted();
    age(vault, 30, 10);
    expect(hook(vault, event("SessionEnd", { reason })).status).toBe(0);
    const [note] = confirmedFiles(vault);
    expect(readRecord(vault, `palee/sessions/${note}`).fields.outcome).toBe("interrupted");
  });

  it("leaves the learner's session and another agent's alone, and is quiet with nothing open", () => {
    const learner = makeVault();
    expect(palee(learner, ["start", "--topic", "T-rust"]).status).toBe(0);
    const other = makeVault();
    expect(hook(other, event("SessionStart", {}, "other-conversation"), ["--topic", "T-rust"]).status).toBe(0);
    const empty = makeVault();
    for (const vault of [learner, other, empty]) {
      const before = snapshot(vault);
      const run = hook(vault, event("SessionEnd", { reason: "prompt_input_exit" }));
      expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: "" });
      expect(snapshot(vault)).toEqual(before);
      expect(confirmedFiles(vault)).toEqual([]);
    }
  });
});

describe("an odd session_id", () => {
  it("becomes a valid agent ID, the same one at every event", () => {
    const vault = makeVault();
    const odd = 'a b\n../c\u0007 "x"';
    expect(hook(vault, event("SessionStart", {}, odd), ["--topic", "T-rust"]).status).toBe(0);
    const agent = openDraft(vault).fields.agent as string;
    expect(agent).toBe("claude-code:a@0020b@000a..@002fc@0007@0020@0022x@0022");
    age(vault, 30, 5);
    expect(hook(vault, event("SessionEnd", { reason: "logout" }, odd)).status).toBe(0);
    expect(readRecord(vault, `palee/sessions/${confirmedFiles(vault)[0]}`).fields.agent).toBe(agent);
  });
});

describe("bad input: one line on stderr, nothing written, exit 1 (never 2)", () => {
  const cases: [string, string, RegExp][] = [
    ["empty", "", /standard input is empty/],
    ["blank", "  \n", /standard input is empty/],
    ["not JSON", "SessionStart please", /is not JSON \(it begins "SessionStart please"\)/],
    ["a JSON list", '["SessionStart"]', /is not a JSON object/],
    ["no event name", JSON.stringify({ session_id: ID }), /has no hook_event_name/],
    ["an unknown event", event("PreToolUse", { tool_name: "Bash" }), /unknown hook event "PreToolUse"/],
    ["no session_id", JSON.stringify({ hook_event_name: "SessionStart" }), /SessionStart event has no session_id/],
  ];
  it.each(cases)("%s", (_name, input, message) => {
    const vault = agentStarted();
    const before = snapshot(vault);
    const run = hook(vault, input);
    expect(run.status).toBe(1);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe("");
    expect(snapshot(vault)).toEqual(before);
  });

  it("5 MB: refused after reading 1 MB, however much the host writes", async () => {
    const vault = agentStarted();
    const before = snapshot(vault);
    const run = await hostRuns(vault, event("UserPromptSubmit", { prompt: "x".repeat(5 * 1024 * 1024) }));
    expect(run.status).toBe(1);
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/larger than 1 MB: nothing was done$/)]);
    expect(run.stdout).toBe("");
    expect(snapshot(vault)).toEqual(before);
  });

  it.each([[["--bogus"]], [["--words", "0"]], [["--settings", "x.json"]], [["--topic", "T-bad topic[["]], [["extra"]]])(
    "usage error %j: exit 1",
    (args) => {
      const vault = makeVault();
      const run = hook(vault, event("SessionStart"), args);
      expect(run.status).toBe(1);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(fs.readdirSync(vault)).toEqual([]);
    },
  );

  it("with --json the error document says exit_code 1", () => {
    const vault = makeVault();
    const run = hook(vault, "", ["--json"]);
    expect(run.status).toBe(1);
    expect(run.json()).toMatchObject({ status: "error", exit_code: 1 });
  });
});

describe("a host that never closes standard input", () => {
  it("the hook answers as soon as the event is whole", async () => {
    const vault = agentStarted();
    age(vault, 30, 20);
    const run = await hostRuns(vault, event("Stop", { stop_hook_active: false }), { keepOpen: true });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(run.ms).toBeLessThan(10_000);
    expect(Math.abs(Date.parse(openDraft(vault).fields.last_checkpoint_at as string) - Date.now())).toBeLessThan(
      60_000,
    );
  });

  it("and one that sends nothing: refused after 2 s without input, nothing written", async () => {
    const vault = agentStarted();
    const before = snapshot(vault);
    const run = await hostRuns(vault, '{"hook_event_name": "Stop",', { keepOpen: true });
    expect(run.status).toBe(1);
    expect(lines(run.stderr)).toEqual([
      expect.stringMatching(/the hook event did not end on standard input within 2 s/),
    ]);
    expect(snapshot(vault)).toEqual(before);
  });
});

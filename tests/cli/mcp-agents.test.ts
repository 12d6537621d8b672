/**
 * `palee mcp` on behalf of an agent (contract §5 version 4): every writing tool takes `agent` with the CLI's
 * rules, an answer without it names whose session it ended, and messages name the tool's arguments, not flags.
 */
import { call, servedPerTest } from "./mcp-support";
import { confirmedFiles, draftFiles, makeVault, palee, snapshot } from "./support";

jest.setTimeout(30_000);

const serve = servedPerTest();

const AGENT = "tutor:42";
const WRITING = ["start_session", "checkpoint", "pause", "continue_session", "end_session", "log_session"];

describe("palee mcp: agent", () => {
  it("is an argument of every writing tool", async () => {
    const { client } = await serve(makeVault());
    const { tools } = await client.listTools();
    for (const name of WRITING) {
      expect(Object.keys(tools.find((t) => t.name === name)?.inputSchema.properties ?? {})).toContain("agent");
    }
  });

  it("end_session, checkpoint, pause with agent leave the learner's session alone: not_this_agent", async () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    const before = snapshot(vault);
    const { client } = await serve(vault);
    for (const [name, args] of [
      ["end_session", { summary: "the tutor's" }],
      ["checkpoint", { note: "the tutor's" }],
      ["pause", {}],
      ["continue_session", {}],
    ] as const) {
      const answer = await call(client, name, { ...args, agent: AGENT });
      expect(answer).toMatchObject({ isError: true, doc: { code: "not_this_agent" } });
      expect(answer.text).toContain("opened by the learner, not tutor:42");
    }
    expect(snapshot(vault)).toEqual(before);
  });

  it("start_session records the agent; its checkpoint and end act on its own session", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    expect((await call(client, "start_session", { topic: "T-rust", agent: AGENT })).isError).toBe(false);
    expect((await call(client, "checkpoint", { note: "asked about borrows", agent: AGENT })).isError).toBe(false);
    const ended = await call(client, "end_session", { agent: AGENT, summary: "- borrows" });
    expect(ended).toMatchObject({ isError: false, doc: { status: "ended", ended_session_of: AGENT } });
    expect(confirmedFiles(vault)).toHaveLength(1);
  });

  it("an agent's empty session ended by end_session is discarded_empty", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    expect((await call(client, "start_session", { topic: "T-rust", agent: AGENT })).isError).toBe(false);
    const ended = await call(client, "end_session", { agent: AGENT });
    expect(ended).toMatchObject({ isError: false, doc: { status: "discarded_empty" } });
    expect(confirmedFiles(vault)).toEqual([]);
    expect(draftFiles(vault)).toEqual([]);
  });

  it("log_session with agent records it on the note", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    const logged = await call(client, "log_session", { topic: "T-rust", minutes: 30, agent: AGENT });
    expect(logged).toMatchObject({ isError: false, doc: { session: { agent: AGENT } } });
  });

  it("an invalid agent is refused and nothing is written", async () => {
    const vault = makeVault();
    const { client } = await serve(vault);
    const before = snapshot(vault);
    for (const name of WRITING) {
      const minutes = name === "log_session" ? { minutes: 5 } : {};
      const answer = await call(client, name, { topic: "T-rust", ...minutes, agent: "has space" });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/invalid agent ID/);
    }
    expect(snapshot(vault)).toEqual(before);
  });
});

describe("palee mcp: without agent", () => {
  it("end_session names whose session it ended: the learner's, or the agent's that opened it", async () => {
    const vault = makeVault();
    expect(palee(vault, ["start", "--topic", "T-rust"]).status).toBe(0);
    const { client } = await serve(vault);
    const mine = await call(client, "end_session", { summary: "- x" });
    expect(mine.doc).toMatchObject({ status: "ended", ended_session_of: "learner" });
    expect(mine.doc.message).toMatch(/^Ended the learner's own session \(S-/);
    expect(palee(vault, ["start", "--topic", "T-rust", "--agent", "claude-code:abc"]).status).toBe(0);
    const theirs = await call(client, "end_session", { summary: "- y" });
    expect(theirs.doc).toMatchObject({ status: "ended", ended_session_of: "claude-code:abc" });
    expect(theirs.doc.message).toMatch(/^Ended the session opened by claude-code:abc/);
  });
});

describe("palee mcp: messages name the tool's arguments", () => {
  it("nothing_open points to the log_session tool, long words of flags gone", async () => {
    const { client } = await serve(makeVault());
    const answer = await call(client, "end_session", { topic: "T-rust" });
    expect(answer.doc.code).toBe("nothing_open");
    expect(answer.text).toContain("the log_session tool with topic=T-rust from=HH:MM to=HH:MM");
    expect(answer.text).not.toMatch(/--[a-z]/);
    expect(answer.text).not.toContain("palee session log");
  });

  it("a bad minutes value names minutes, not --minutes", async () => {
    const { client } = await serve(makeVault());
    const answer = await call(client, "log_session", { topic: "T-rust", from: "10:00", minutes: 5 });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain("give `from` and `to`, or `minutes`, not both");
  });
});

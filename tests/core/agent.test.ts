/**
 * Agent-safe options (contract §4b): start --agent records who opened the session, end --agent ends only a
 * session that agent opened (never the learner's, never another agent's, never absorbing their drafts), and
 * end's outcome and last note.
 */
import { PaleeError } from "../../src/core/errors";
import { draftText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT, S, confirmedPaths, draftPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const TOPIC = "T-rust";
const AGENT = "claude-code:5f1c-aa";

async function refusal(promise: Promise<unknown>): Promise<PaleeError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PaleeError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("start --agent", () => {
  it("records the agent in the draft, and end copies it to the confirmed note and S", async () => {
    const { core, store, clock } = harness();
    const started = await core.start({ topic: TOPIC, agent: AGENT });
    if (started.status !== "started") throw new Error(started.status);
    expect(fields(store, S(started.draftId)).agent).toBe(AGENT);
    expect((await core.status()).open?.agent).toBe(AGENT);
    clock.advance(30);
    const ended = await core.end({ agent: AGENT, summary: "- borrowing" });
    expect(ended.session.agent).toBe(AGENT);
    expect(fields(store, ended.session.path).agent).toBe(AGENT);
  });

  it("writes no agent key for the learner's own session", async () => {
    const { core, store } = harness();
    const started = await core.start({ topic: TOPIC });
    if (started.status !== "started") throw new Error(started.status);
    expect(fields(store, S(started.draftId))).not.toHaveProperty("agent");
    expect((await core.status()).open?.agent).toBeNull();
    const ended = await core.end({});
    expect(fields(store, ended.session.path)).not.toHaveProperty("agent");
  });

  it.each([
    ["empty", ""],
    ["a space", "claude code"],
    ["a line break", "claude-code:x\nstatus: completed"],
    ["a control character", "claude-code:\u0007"],
    ["201 characters", `a${"b".repeat(200)}`],
    ["a leading dash", "-x"],
  ])("refuses an agent ID with %s and writes nothing", async (_what, agent) => {
    const { core, store } = harness();
    const error = await refusal(core.start({ topic: TOPIC, agent }));
    expect(error.kind).toBe("usage");
    expect(error.message).toMatch(/^invalid agent ID /);
    expect(error.message).not.toContain("\n");
    expect(store.files.size).toBe(0);
  });

  it("accepts an agent ID of 200 characters", async () => {
    const { core } = harness();
    const agent = `a${"b".repeat(199)}`;
    expect((await core.start({ topic: TOPIC, agent })).status).toBe("started");
  });
});

describe("end --agent never ends a session the agent did not open", () => {
  it("leaves the learner's open session alone: not_this_agent, nothing written", async () => {
    const { core, store, clock } = harness();
    expect((await core.start({ topic: TOPIC })).status).toBe("started");
    clock.advance(20);
    const before = store.snapshot();
    const error = await refusal(core.end({ agent: AGENT, summary: "agent's summary" }));
    expect(error.kind).toBe("not_this_agent");
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(/opened by the learner, not claude-code:5f1c-aa/);
    expect(store.snapshot()).toEqual(before);
  });

  it("leaves another agent's session alone", async () => {
    const { core, store } = harness();
    expect((await core.start({ topic: TOPIC, agent: "claude-code:other" })).status).toBe("started");
    const before = store.snapshot();
    const error = await refusal(core.end({ agent: AGENT }));
    expect(error.kind).toBe("not_this_agent");
    expect(error.message).toMatch(/opened by claude-code:other/);
    expect(store.snapshot()).toEqual(before);
  });

  it("with nothing open, refuses nothing_open", async () => {
    const { core } = harness();
    expect((await refusal(core.end({ agent: AGENT }))).kind).toBe("nothing_open");
  });

  it("absorbs only its own drafts, never the learner's drafts of the same topic", async () => {
    // The learner's interrupted draft of this morning, left pending; the agent then starts on the same topic,
    // and a draft of the learner's on it appears during the agent's session (synced, or written by hand).
    const morning = "DRAFT-S-0000000a";
    const during = "DRAFT-S-0000000b";
    const store = new MemoryStore({
      [S(morning)]: draftText(
        {
          session_id: morning,
          topic_id: TOPIC,
          started_at: "2026-08-14T11:40:00Z",
          last_checkpoint_at: "2026-08-14T11:50:00Z",
        },
        "the learner's morning notes\n",
      ),
    });
    const { core, clock } = harness({ store });
    const started = await core.start({ topic: TOPIC, agent: AGENT, ignorePending: true });
    if (started.status !== "started") throw new Error(started.status);
    store.files.set(
      S(during),
      draftText(
        {
          session_id: during,
          topic_id: TOPIC,
          started_at: "2026-08-14T12:05:00Z",
          last_checkpoint_at: "2026-08-14T12:10:00Z",
        },
        "the learner's notes meanwhile\n",
      ),
    );
    clock.advance(15);
    const ended = await core.end({ agent: AGENT });
    expect(ended.absorbedDrafts).toEqual([started.draftId]);
    expect(draftPaths(store).sort()).toEqual([S(morning), S(during)]);
    expect(store.files.get(ended.session.path)).not.toContain("the learner's");
  });

  it("a learner's end (no --agent) may still end an agent's session", async () => {
    const { core } = harness();
    expect((await core.start({ topic: TOPIC, agent: AGENT })).status).toBe("started");
    const ended = await core.end({});
    expect(ended.session.agent).toBe(AGENT);
  });
});

describe("end --agent run again after a crash", () => {
  it("reports its session saved when the end was cut after trashing the draft, before tidying hot.md", async () => {
    const { core, store, clock } = harness();
    await core.start({ topic: TOPIC, agent: AGENT });
    clock.advance(20);
    const pointer = store.files.get(HOT) ?? "";
    const first = await core.end({ agent: AGENT, summary: "- done" });
    // The crash: hot.md still names the open session, whose draft is already in the trash.
    store.files.set(HOT, pointer);
    const confirmed = confirmedPaths(store);
    const again = await core.end({ agent: AGENT, summary: "- done" });
    expect(again.alreadySaved).toBe(true);
    expect(again.session.sessionId).toBe(first.session.sessionId);
    expect(confirmedPaths(store)).toEqual(confirmed);
  });

  it("a learner's session whose draft is gone is still not this agent's", async () => {
    const { core, store } = harness();
    const started = await core.start({ topic: TOPIC });
    if (started.status !== "started") throw new Error(started.status);
    store.files.delete(S(started.draftId));
    const before = store.snapshot();
    const error = await refusal(core.end({ agent: AGENT }));
    expect(error.kind).toBe("not_this_agent");
    expect(error.message).toMatch(/its draft is missing or unreadable/);
    expect(store.snapshot()).toEqual(before);
  });
});

describe("end --outcome and --note", () => {
  it("records outcome interrupted", async () => {
    const { core, store } = harness();
    await core.start({ topic: TOPIC, agent: AGENT });
    const ended = await core.end({ agent: AGENT, outcome: "interrupted" });
    expect(ended.session.outcome).toBe("interrupted");
    expect(fields(store, ended.session.path).outcome).toBe("interrupted");
  });

  it("refuses an unknown outcome and writes nothing", async () => {
    const { core, store } = harness();
    await core.start({ topic: TOPIC });
    const before = store.snapshot();
    const outcome = "logged" as "completed";
    const error = await refusal(core.end({ outcome }));
    expect(error.message).toBe('outcome must be completed or interrupted (got "logged")');
    expect(store.snapshot()).toEqual(before);
  });

  it("merges the last note after the checkpoints' notes, timed and separated as a checkpoint's", async () => {
    const { core, store, clock } = harness({ offset: 120 });
    await core.start({ topic: TOPIC, agent: AGENT });
    clock.advance(10);
    await core.checkpoint({ notes: "first note" });
    clock.advance(10);
    const ended = await core.end({ agent: AGENT, note: "last note\nsecond line" });
    const text = store.files.get(ended.session.path) ?? "";
    // 12:00 UTC + 20 min, at UTC+2: 14:10 and 14:20 local.
    expect(text.slice(text.indexOf("## Notes"))).toBe(
      "## Notes\n\n- 14:10 first note\n\n- 14:20 last note\n  second line\n",
    );
    expect(confirmedPaths(store)).toHaveLength(1);
    expect(store.files.has(HOT)).toBe(true);
  });

  it("a last note alone makes the Notes section", async () => {
    const { core, store } = harness();
    await core.start({ topic: TOPIC });
    const ended = await core.end({ note: "only note" });
    expect(store.files.get(ended.session.path)).toMatch(/\n## Notes\n\n- 12:00 only note\n$/);
  });
});

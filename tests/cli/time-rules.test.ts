/**
 * CLI end-to-end: the time rules of contract §4 against the real clock — the three tiers of `end`'s start time,
 * and when a new checkpoint (`draft`) inherits hot.md's start.
 */
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  DEVICE,
  draftFiles,
  draftId,
  expectNearNow,
  indexLines,
  makeVault,
  palee,
  readRecord,
  trashFiles,
  utcCompact,
  writeDraft,
  writeHot,
} from "./support";

afterEach(cleanupVaults);

interface Ended {
  vault: string;
  session: Record<string, unknown>;
  fields: Record<string, unknown>;
  absorbed: unknown;
}

/** Runs end; `warning` is the one warning line expected on stderr when the start had to fall back to now. */
function end(vault: string, args: string[] = ["--topic", "T-a"], warning?: RegExp): Ended {
  const run = palee(vault, ["end", ...args, "--json"]);
  expect(run.status).toBe(0);
  if (warning) expect(run.stderr).toMatch(new RegExp(`^warning: ${warning.source}.*\n$`));
  else expect(run.stderr).toBe("");
  const doc = run.json();
  const session = doc.session as Record<string, unknown>;
  const files = confirmedFiles(vault);
  expect(files).toContain(`${String(session.session_id)}.md`);
  const fields = readRecord(vault, String(session.path)).fields;
  return { vault, session, fields, absorbed: doc.absorbed_drafts };
}

/** The confirmed note agrees with the JSON, and its ID is its started_at in UTC. */
function expectConsistent({ session, fields }: Ended, minutes: number): void {
  expect(session.duration_minutes).toBe(minutes);
  expect(fields.duration_minutes).toBe(minutes);
  expect(fields.started_at).toBe(session.started_at);
  expect(fields.ended_at).toBe(session.ended_at);
  expect(String(session.session_id)).toMatch(
    new RegExp(`^S-${utcCompact(Date.parse(String(fields.started_at)))}-[0-9a-f]{4}$`),
  );
  expectNearNow(fields.ended_at);
}

describe("end: the three tiers of the start time", () => {
  it("tier 1: a draft of the topic started 90 min ago gives 90 min, started_at from the draft", () => {
    const vault = makeVault();
    const id = draftId("90909090");
    const started = ago(90);
    writeDraft(vault, { id, topic: "T-a", startedAt: started, lastCheckpointAt: ago(5), body: "draft notes\n" });
    // hot.md points elsewhere in time: the draft wins.
    writeHot(vault, { activeTopic: "T-a", startedAt: ago(30), openDraft: id, device: DEVICE });
    const ended = end(vault);
    expectConsistent(ended, 90);
    expect(ended.fields.started_at).toBe(started);
    expect(ended.absorbed).toEqual([id]);
    expect(ended.fields.absorbed_drafts).toEqual([id]);
    expect(draftFiles(vault)).toEqual([]);
    expect(trashFiles(vault)).toEqual([`${id}.md`]);
    expect(indexLines(vault)).toEqual([
      `- [[${String(ended.session.session_id)}]] - Topic: T-a (${started.slice(0, 10)}, 90 min)`,
    ]);
  });

  it("tier 1: with several drafts of the topic, the earliest start wins and every draft is absorbed", () => {
    const vault = makeVault();
    const a = draftId("aaaa0001");
    const b = draftId("bbbb0002");
    const earliest = ago(75);
    writeDraft(vault, { id: b, topic: "T-a", startedAt: ago(30), lastCheckpointAt: ago(20), body: "second\n" });
    writeDraft(vault, { id: a, topic: "T-a", startedAt: earliest, lastCheckpointAt: ago(40), body: "first\n" });
    const other = draftId("cccc0003");
    writeDraft(vault, { id: other, topic: "T-other", startedAt: ago(200), lastCheckpointAt: ago(100) });
    const ended = end(vault);
    expectConsistent(ended, 75);
    expect(ended.fields.started_at).toBe(earliest);
    expect([...(ended.absorbed as string[])].sort()).toEqual([a, b]);
    expect(draftFiles(vault)).toEqual([`${other}.md`]);
  });

  it("tier 2: no draft, hot.md with the matching active_topic started 40 min ago gives 40 min", () => {
    const vault = makeVault();
    const started = ago(40);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    const ended = end(vault, []);
    expectConsistent(ended, 40);
    expect(ended.fields.started_at).toBe(started);
    expect(ended.fields.topic_id).toBe("T-a");
  });

  it("tier 2 has no age limit: hot.md started 30 hours ago gives 1800 min", () => {
    const vault = makeVault();
    const started = ago(30 * 60);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    // Version 2: nothing says when it ended, so the learner says it (without --at: long_silence).
    const ended = end(vault, ["--topic", "T-a", "--at", "now"]);
    expectConsistent(ended, 1800);
    expect(ended.fields.started_at).toBe(started);
  });

  it("tier 2 ignores hot.md when its active_topic is another topic: 0 min", () => {
    const vault = makeVault();
    writeHot(vault, { activeTopic: "T-b", startedAt: ago(40) });
    const ended = end(vault, undefined, /no start was recorded for T-a/);
    expectConsistent(ended, 0);
    expectNearNow(ended.fields.started_at);
  });

  it("tier 2: hot.md started_at 30 s in the future is clamped to now: 0 min, started_at ≈ now", () => {
    const vault = makeVault();
    const future = ago(-0.5);
    writeHot(vault, { activeTopic: "T-a", startedAt: future });
    const ended = end(vault);
    expectConsistent(ended, 0);
    expectNearNow(ended.fields.started_at);
    expect(Date.parse(String(ended.fields.started_at))).toBeLessThanOrEqual(Date.parse(String(ended.fields.ended_at)));
  });

  it("tier 2: hot.md started_at 10 min in the future is ignored: 0 min, started_at ≈ now", () => {
    const vault = makeVault();
    const future = ago(-10);
    writeHot(vault, { activeTopic: "T-a", startedAt: future });
    const ended = end(vault, undefined, /hot\.md's started_at \(.*\) is in the future; ignored/);
    expectConsistent(ended, 0);
    expect(ended.fields.started_at).not.toBe(future);
    expectNearNow(ended.fields.started_at);
    expect(Date.parse(String(ended.fields.started_at))).toBeLessThanOrEqual(Date.parse(String(ended.fields.ended_at)));
  });

  it("tier 3: nothing (no draft, no hot.md) gives 0 min with started_at = ended_at ≈ now, and says so", () => {
    const vault = makeVault();
    const ended = end(
      vault,
      undefined,
      /no start was recorded for T-a \(no draft, no open session\); saved as a 0-minute session/,
    );
    expectConsistent(ended, 0);
    expectNearNow(ended.fields.started_at);
    expect(ended.absorbed).toEqual([]);
    expect(ended.fields.absorbed_drafts).toEqual([]);
  });
});

describe("draft (checkpoint): when a new draft inherits hot.md's start", () => {
  function checkpoint(vault: string, topic = "T-a"): Record<string, unknown> {
    const run = palee(vault, ["draft", "--topic", topic, "--json"]);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    const doc = run.json();
    expect(doc.status).toBe("checkpointed");
    expect(doc.created).toBe(true);
    const draft = doc.draft as Record<string, unknown>;
    expect(draftFiles(vault)).toEqual([`${String(draft.draft_id)}.md`]);
    const fields = readRecord(vault, String(draft.path)).fields;
    expect(fields.started_at).toBe(draft.started_at);
    expect(fields.device).toBe(DEVICE);
    expectNearNow(fields.last_checkpoint_at);
    return fields;
  }

  it("inherits hot.md's started_at when active_topic matches and it is 2 h old", () => {
    const vault = makeVault();
    const started = ago(120);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    expect(checkpoint(vault).started_at).toBe(started);
  });

  it("uses now when hot.md's started_at is 25 h old", () => {
    const vault = makeVault();
    const started = ago(25 * 60);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    const fields = checkpoint(vault);
    expect(fields.started_at).not.toBe(started);
    expectNearNow(fields.started_at);
  });

  it("uses now when hot.md's started_at is 5 min in the future", () => {
    const vault = makeVault();
    const started = ago(-5);
    writeHot(vault, { activeTopic: "T-a", startedAt: started });
    const fields = checkpoint(vault);
    expect(fields.started_at).not.toBe(started);
    expectNearNow(fields.started_at);
    expect(Date.parse(String(fields.started_at))).toBeLessThanOrEqual(Date.now());
  });

  it("uses now when hot.md's active_topic is a different topic", () => {
    const vault = makeVault();
    const started = ago(120);
    writeHot(vault, { activeTopic: "T-b", startedAt: started });
    const fields = checkpoint(vault, "T-a");
    expect(fields.topic_id).toBe("T-a");
    expect(fields.started_at).not.toBe(started);
    expectNearNow(fields.started_at);
  });

  it("a checkpoint of the open session updates its draft in place, keeping the learner's body byte for byte", () => {
    const vault = makeVault();
    const id = draftId("0badcafe");
    const started = ago(50);
    const body = "My own notes,\n  with *formatting*\n\nand a blank line.\n";
    writeDraft(vault, { id, topic: "T-a", startedAt: started, lastCheckpointAt: ago(45), body });
    writeHot(vault, { activeTopic: "T-a", startedAt: started, openDraft: id, device: DEVICE });
    const run = palee(vault, ["draft", "--note", "appended", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({
      status: "checkpointed",
      created: false,
      draft: { draft_id: id, started_at: started },
    });
    expect(draftFiles(vault)).toEqual([`${id}.md`]);
    const { fields, body: after } = readRecord(vault, `palee/sessions/${id}.md`);
    expect(fields.started_at).toBe(started);
    expectNearNow(fields.last_checkpoint_at);
    expect(after.startsWith(body)).toBe(true);
    expect(after.slice(body.length).trim()).toMatch(/^- \d\d:\d\d appended$/); // timed (contract §4 checkpoint)
  });
});

import { ConflictError, PaleeError } from "../../src/core/errors";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { countWords } from "../../src/core/records/hot-memory";
import type { SessionStore } from "../../src/core/ports";
import { confirmedText, draftText, hotText } from "../support/builders";
import { FixedRandom, SeededRandom, harness } from "../support/fakes";
import { HOT, INDEX, S, confirmedPaths, draftPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

async function expectError(promise: Promise<unknown>, kind: string, exitCode: number): Promise<PaleeError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaleeError);
  expect((error as PaleeError).kind).toBe(kind);
  expect((error as PaleeError).exitCode).toBe(exitCode);
  return error as PaleeError;
}

describe("start", () => {
  it("records the open session in hot.md and writes its first checkpoint as a draft with the same start", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    const result = await core.start({ topic: "T-rust-ownership" });
    expect(result.status).toBe("started");
    if (result.status !== "started") return;
    const hot = fields(store, HOT);
    expect(hot).toMatchObject({
      palee_schema: 1,
      memory_id: "H-active",
      active_topic: "T-rust-ownership",
      started_at: "2026-08-14T12:00:00+00:00",
      open_draft: result.draftId,
      device: "laptop",
      last_session: null,
      updated_at: "2026-08-14",
    });
    expect(result.draftId).toMatch(/^DRAFT-S-[0-9a-f]{8}$/);
    expect(fields(store, S(result.draftId))).toMatchObject({
      session_id: result.draftId,
      topic_id: "T-rust-ownership",
      started_at: "2026-08-14T12:00:00+00:00",
      ended_at: null,
      status: "draft",
      last_checkpoint_at: "2026-08-14T12:00:00+00:00",
      device: "laptop",
    });
    expect(result.hotBody).toBe(
      "No sessions on T-rust-ownership yet: end a session on it to start its working memory.",
    );
  });

  it("reports the last session and its working memory", async () => {
    const { core, store } = harness();
    store.files.set(
      S("S-20260813T100000-aaaa"),
      confirmedText({ session_id: "S-20260813T100000-aaaa" }, { summary: "Moves and borrows", next: "Lifetimes" }),
    );
    const result = await core.start({ topic: "T-rust-ownership" });
    if (result.status !== "started") throw new Error(result.status);
    expect(result.lastSession).toBe("S-20260813T100000-aaaa");
    expect(result.hotBody).toContain("Moves and borrows");
    expect(result.hotBody).toContain("Source: [[S-20260813T100000-aaaa]]");
  });

  it("refuses a second start without replacing the open session, and keeps it with ifOpen keep", async () => {
    const { core, store, clock } = harness();
    const first = await core.start({ topic: "T-a" });
    const before = store.snapshot();
    clock.advance(5);
    const second = await core.start({ topic: "T-b" });
    expect(second).toMatchObject({
      status: "already_open",
      open: { topicId: "T-a", device: "laptop", elapsedSeconds: 300 },
    });
    const kept = await core.start({ topic: "T-b", ifOpen: "keep" });
    expect(kept.status).toBe("kept");
    expect(store.snapshot()).toEqual(before);
    expect(first.status).toBe("started");
  });

  it("stops with drafts_pending when a draft does not belong to the open session", async () => {
    const { core, store } = harness();
    store.files.set(S("DRAFT-S-00000001"), draftText({ session_id: "DRAFT-S-00000001" }, "my notes\n"));
    const before = store.snapshot();
    const result = await core.start({ topic: "T-a" });
    expect(result.status).toBe("drafts_pending");
    if (result.status === "drafts_pending") expect(result.drafts.map((d) => d.draftId)).toEqual(["DRAFT-S-00000001"]);
    expect(store.snapshot()).toEqual(before);
  });

  it("starts when the user chose to ignore the pending drafts, leaving them untouched", async () => {
    const { core, store } = harness();
    const draft = draftText({ session_id: "DRAFT-S-00000001" }, "my notes\n");
    store.files.set(S("DRAFT-S-00000001"), draft);
    const result = await core.start({ topic: "T-a", ignoreDrafts: new Set(["DRAFT-S-00000001"]) });
    expect(result.status).toBe("started");
    expect(store.files.get(S("DRAFT-S-00000001"))).toBe(draft);
  });

  it("starts with ignorePending, leaving every pending draft untouched", async () => {
    const { core, store } = harness();
    const draft = draftText({ session_id: "DRAFT-S-00000001" }, "my notes\n");
    store.files.set(S("DRAFT-S-00000001"), draft);
    const result = await core.start({ topic: "T-a", ignorePending: true });
    expect(result.status).toBe("started");
    expect(store.files.get(S("DRAFT-S-00000001"))).toBe(draft);
  });

  it("refuses an invalid explicit topic before answering kept, already_open or drafts_pending", async () => {
    const { core, store } = harness();
    await core.start({ topic: "T-a" });
    const before = store.snapshot();
    await expectError(core.start({ topic: "t-lower", ifOpen: "keep" }), "invalid_topic", 2);
    await expectError(core.start({ topic: "t-lower" }), "invalid_topic", 2);
    store.files.set(S("DRAFT-S-00000001"), draftText({ session_id: "DRAFT-S-00000001" }, "my notes\n"));
    await expectError(core.start({ topic: "t-lower" }), "invalid_topic", 2);
    store.files.delete(S("DRAFT-S-00000001"));
    expect(store.snapshot()).toEqual(before);
  });

  it("requires a topic: explicit, then the active note, then hot.md's active topic", async () => {
    const { core, store } = harness();
    await expectError(core.start(), "topic_required", 2);
    await expectError(core.start({ topic: "T-../etc" }), "invalid_topic", 2);
    await expectError(core.start({ topic: "rust" }), "invalid_topic", 2);
    store.files.set(HOT, hotText({ active_topic: "T-from-hot" }));
    const fromNote = await core.start({ activeNoteTopic: "T-from-note" });
    expect(fromNote).toMatchObject({ status: "started", topicId: "T-from-note" });
  });

  it.each(["(none)", " (NONE) ", "   "])("treats the active topic %j in hot.md as no topic", async (value) => {
    const { core, store } = harness();
    store.files.set(HOT, hotText({ active_topic: value }));
    await expectError(core.start(), "topic_required", 2);
  });

  it.each([
    ["corrupt", "---\nactive_topic: [unclosed\n---\nbody\n"],
    ["schema-invalid", hotText({ palee_schema: 2, active_topic: "T-old" })],
  ])("rebuilds a %s hot.md from the newest confirmed session and ignores its topic", async (_state, text) => {
    const { core, store } = harness();
    store.files.set(HOT, text);
    store.files.set(
      S("S-20260813T100000-aaaa"),
      confirmedText({ session_id: "S-20260813T100000-aaaa" }, { summary: "Newest summary" }),
    );
    await expectError(core.start(), "topic_required", 2);
    // The started topic's memory (contract §2 hot.md): the newest session is on it.
    const result = await core.start({ topic: "T-rust-ownership" });
    expect(result.status).toBe("started");
    expect(fields(store, HOT)).toMatchObject({
      palee_schema: 1,
      active_topic: "T-rust-ownership",
      last_session: "S-20260813T100000-aaaa",
    });
    expect(store.files.get(HOT)).toContain("Newest summary");
  });

  it("keeps a hot.md without frontmatter byte for byte below the frontmatter it adds", async () => {
    const { core, store } = harness();
    store.files.set(HOT, "My own working notes.\nSecond line.\n");
    await core.start({ topic: "T-a" });
    const text = store.files.get(HOT) ?? "";
    expect(text.endsWith("---\nMy own working notes.\nSecond line.\n")).toBe(true);
    expect(fields(store, HOT)).toMatchObject({ active_topic: "T-a" });
  });

  it("draws a new draft ID when the random one names an existing draft", async () => {
    const store = new MemoryStore();
    store.files.set(S("DRAFT-S-abababab"), draftText({ session_id: "DRAFT-S-abababab" }));
    let calls = 0;
    const random = { bytes: (n: number) => new FixedRandom(calls++ === 0 ? 0xab : 0xcd).bytes(n) };
    const { core } = harness({ store, random });
    const result = await core.start({ topic: "T-a", ignoreDrafts: new Set(["DRAFT-S-abababab"]) });
    expect(result).toMatchObject({ status: "started", draftId: "DRAFT-S-cdcdcdcd" });
  });

  it("never reuses the ID of a draft a confirmed session absorbed (reconcile would trash the new draft)", async () => {
    const store = new MemoryStore();
    store.files.set(
      S("S-20260813T100000-abab"),
      confirmedText({ session_id: "S-20260813T100000-abab", absorbed_drafts: ["DRAFT-S-abababab"] }),
    );
    let calls = 0;
    const seeded = new SeededRandom(7);
    // Draws: start's draft ID (taken: ab…), start's second try (cd…), end's session ID, checkpoint (taken: ab…,
    // cd…), then anything.
    const script = [0xab, 0xcd, 0x01, 0xab, 0xcd];
    const random = {
      bytes: (n: number) => (calls < script.length ? new FixedRandom(script[calls++]).bytes(n) : seeded.bytes(n)),
    };
    const { core } = harness({ store, random });
    const started = await core.start({ topic: "T-a" });
    expect(started).toMatchObject({ status: "started", draftId: "DRAFT-S-cdcdcdcd" });
    await core.end();
    const checkpoint = await core.checkpoint({ topic: "T-b" });
    expect(checkpoint.draft.draftId).not.toMatch(/^DRAFT-S-(abababab|cdcdcdcd)$/);
    expect(calls).toBe(script.length);
  });
});

describe("checkpoint", () => {
  it("updates only the open draft's last_checkpoint_at and keeps the learner's edits", async () => {
    const { core, store, clock } = harness();
    const started = await core.start({ topic: "T-a" });
    if (started.status !== "started") throw new Error();
    const path = S(started.draftId);
    store.files.set(path, `${store.files.get(path) ?? ""}Typed in Obsidian.\n  indented line\n`);
    clock.advance(10);
    const result = await core.checkpoint();
    expect(result.created).toBe(false);
    const text = store.files.get(path) ?? "";
    expect(text.endsWith("---\nTyped in Obsidian.\n  indented line\n")).toBe(true);
    expect(fields(store, path)).toMatchObject({
      last_checkpoint_at: "2026-08-14T12:10:00+00:00",
      started_at: "2026-08-14T12:00:00+00:00",
    });
    expect(draftPaths(store)).toHaveLength(1);
  });

  it("appends notes to the draft body, each headed by the checkpoint's local time", async () => {
    const { core, store, clock } = harness();
    const started = await core.start({ topic: "T-a" });
    if (started.status !== "started") throw new Error();
    await core.checkpoint({ notes: "first note" });
    clock.advance(10);
    await core.checkpoint({ notes: "second note" });
    expect(store.files.get(S(started.draftId))).toMatch(/---\n- 12:00 first note\n\n- 12:10 second note\n$/);
  });

  it("creates a draft that inherits hot.md's start for the same topic within 24 h", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(HOT, hotText({ active_topic: "T-a", started_at: "2026-08-14T10:00:00+00:00" }));
    const result = await core.checkpoint();
    expect(result).toMatchObject({ created: true, draft: { startedAt: "2026-08-14T10:00:00+00:00", topicId: "T-a" } });
    // No session was open: this draft is now the open one.
    expect(fields(store, HOT)).toMatchObject({
      open_draft: result.draft.draftId,
      started_at: "2026-08-14T10:00:00+00:00",
    });
  });

  it.each([
    ["more than 24 h old", "2026-08-13T11:59:00+00:00", "T-a"],
    ["in the future", "2026-08-14T12:01:00+00:00", "T-a"],
    ["for another topic", "2026-08-14T11:00:00+00:00", "T-b"],
  ])("does not inherit a start %s", async (_why, startedAt, activeTopic) => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(HOT, hotText({ active_topic: activeTopic, started_at: startedAt }));
    const result = await core.checkpoint({ topic: "T-a" });
    expect(result.draft.startedAt).toBe("2026-08-14T12:00:00+00:00");
  });

  it("opens the session on a new draft when hot.md points at a draft that is gone", async () => {
    const { core, store } = harness();
    store.files.set(
      HOT,
      hotText({
        active_topic: "T-a",
        started_at: "2026-08-14T11:00:00+00:00",
        open_draft: "DRAFT-S-0000dead",
        device: "laptop",
      }),
    );
    const result = await core.checkpoint({ notes: "still studying" });
    expect(result.created).toBe(true);
    expect(result.draft.startedAt).toBe("2026-08-14T11:00:00+00:00");
    expect(fields(store, HOT)).toMatchObject({ open_draft: result.draft.draftId });
    const ended = await core.end();
    expect(ended.absorbedDrafts).toEqual([result.draft.draftId]);
  });

  it("refuses to checkpoint a session that is alive on another device", async () => {
    const { core, store, clock } = harness({ device: "phone" });
    store.files.set(
      HOT,
      hotText({
        active_topic: "T-a",
        started_at: "2026-08-14T11:00:00+00:00",
        open_draft: "DRAFT-S-0000000a",
        device: "laptop",
      }),
    );
    const draft = draftText({
      session_id: "DRAFT-S-0000000a",
      topic_id: "T-a",
      last_checkpoint_at: "2026-08-14T11:55:00+00:00",
    });
    store.files.set(S("DRAFT-S-0000000a"), draft);
    await expectError(core.checkpoint(), "session_open_elsewhere", 2);
    expect(store.files.get(S("DRAFT-S-0000000a"))).toBe(draft);
    clock.advance(30); // the laptop went silent beyond the grace period
    await expect(core.checkpoint()).resolves.toMatchObject({ created: false });
  });
});

describe("end", () => {
  it("writes the confirmed note, merges and trashes the drafts, and rebuilds hot.md and index.md", async () => {
    const { core, store, clock } = harness({ at: "2026-08-14T12:00:00Z" });
    const started = await core.start({ topic: "T-rust-ownership" });
    if (started.status !== "started") throw new Error();
    await core.checkpoint({ notes: "Borrowing: one &mut or many &" });
    clock.advance(45);
    const result = await core.end({ summary: "Ownership and borrowing", nextAction: "Lifetimes chapter" });

    expect(result.session).toMatchObject({
      topicId: "T-rust-ownership",
      startedAt: "2026-08-14T12:00:00+00:00",
      endedAt: "2026-08-14T12:45:00+00:00",
      durationMinutes: 45,
      outcome: "completed",
      absorbedDrafts: [started.draftId],
    });
    expect(result.session.sessionId).toMatch(/^S-20260814T120000-[0-9a-f]{4}$/);
    const note = store.files.get(result.session.path) ?? "";
    expect(note).toContain(
      `# Session: ${result.session.sessionId}\n\n## Summary\n\nOwnership and borrowing\n\n## ` +
        `Next action\n\nLifetimes chapter\n\n## Notes\n\n- 12:00 Borrowing: one &mut or many &\n`,
    );
    expect(fields(store, result.session.path)).toMatchObject({
      status: "completed",
      absorbed_drafts: [started.draftId],
      duration_minutes: 45,
    });
    expect(draftPaths(store)).toEqual([]);
    expect(store.trashed.map((t) => t.path)).toEqual([S(started.draftId)]);
    expect(fields(store, HOT)).toMatchObject({
      active_topic: "T-rust-ownership",
      started_at: null,
      open_draft: null,
      device: null,
      last_session: result.session.sessionId,
    });
    expect(store.files.get(HOT)).toMatch(/Source: \[\[S-20260814T120000-[0-9a-f]{4}\]\]\n$/);
    expect(store.files.get(INDEX)).toContain(
      `Total sessions: 1\n\n- [[${result.session.sessionId}]] - Topic: T-rust-ownership (2026-08-14, 45 min)\n`,
    );
  });

  it("takes the earliest start among the topic's drafts (tier 1)", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      S("DRAFT-S-00000001"),
      draftText({ session_id: "DRAFT-S-00000001", topic_id: "T-a", started_at: "2026-08-14T11:00:00+00:00" }, "one\n"),
    );
    store.files.set(
      S("DRAFT-S-00000002"),
      draftText({ session_id: "DRAFT-S-00000002", topic_id: "T-a", started_at: "2026-08-14T10:30:00+00:00" }, "two\n"),
    );
    store.files.set(
      S("DRAFT-S-00000003"),
      draftText({ session_id: "DRAFT-S-00000003", topic_id: "T-b" }, "other topic\n"),
    );
    const result = await core.end({ topic: "T-a" });
    expect(result.session).toMatchObject({ startedAt: "2026-08-14T10:30:00+00:00", durationMinutes: 90 });
    expect(result.absorbedDrafts.sort()).toEqual(["DRAFT-S-00000001", "DRAFT-S-00000002"]);
    expect(store.files.get(result.session.path)).toContain("## Notes\n\ntwo\n\none\n");
    expect(draftPaths(store)).toEqual([S("DRAFT-S-00000003")]);
  });

  it("uses hot.md's start for the same topic with no age limit (tier 2)", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(HOT, hotText({ active_topic: "T-a", started_at: "2026-08-12T12:00:00+00:00" }));
    // Version 2: with nothing saying when it ended, the learner says so (without `at`: long_silence).
    await expectError(core.end(), "long_silence", 2);
    const result = await core.end({ endAt: { kind: "now" } });
    expect(result.session).toMatchObject({ startedAt: "2026-08-12T12:00:00+00:00", durationMinutes: 2880 });
  });

  it("a hot.md start 30 s in the future is clamped to now", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(HOT, hotText({ active_topic: "T-a", started_at: "2026-08-14T12:00:30+00:00" }));
    const result = await core.end();
    expect(result.session).toMatchObject({ startedAt: "2026-08-14T12:00:00+00:00", durationMinutes: 0 });
    expect(result.warnings).toEqual([]);
  });

  it("a hot.md start 10 min in the future, and no draft, is nothing studied: nothing_open (issue 35 §4)", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(HOT, hotText({ active_topic: "T-a", started_at: "2026-08-14T12:10:00+00:00" }));
    await expectError(core.end(), "nothing_open", 2);
    expect(confirmedPaths(store)).toEqual([]);
  });

  it("refuses nothing_open when tier 3 would be the start, and rounds durations to whole minutes", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    // Version 3: an explicit topic does not invent a 0-minute session; the refusal points to log.
    const refused = await expectError(core.end({ topic: "T-a" }), "nothing_open", 2);
    expect(refused.message).toContain("palee session log --topic T-a");
    expect(refused.message).not.toContain("from now");
    expect(store.writes).toEqual([]);
    const h = harness({ at: "2026-08-14T12:00:00Z" });
    h.store.files.set(HOT, hotText({ active_topic: "T-a", started_at: "2026-08-14T11:59:30+00:00" }));
    expect((await h.core.end()).session.durationMinutes).toBe(1); // 30 s rounds up
    const h2 = harness({ at: "2026-08-14T12:00:00Z" });
    h2.store.files.set(HOT, hotText({ active_topic: "T-a", started_at: "2026-08-14T11:59:31+00:00" }));
    expect((await h2.core.end()).session.durationMinutes).toBe(0); // 29 s rounds down
  });

  it("leaves a draft that is alive on another device alone", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z", device: "laptop" });
    const phoneDraft = draftText({
      session_id: "DRAFT-S-0000000f",
      topic_id: "T-a",
      device: "phone",
      last_checkpoint_at: "2026-08-14T11:58:00+00:00",
    });
    store.files.set(S("DRAFT-S-0000000f"), phoneDraft);
    // Nothing of this device to end: the session runs on the phone, and is ended there.
    const refused = await expectError(core.end({ topic: "T-a" }), "session_open_elsewhere", 2);
    expect(refused.message).toContain("open on phone");
    expect(confirmedPaths(store)).toEqual([]);
    expect(store.files.get(S("DRAFT-S-0000000f"))).toBe(phoneDraft);
  });

  it("does not save a draft twice after a crash between writing the note and trashing the draft", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(S("DRAFT-S-00000001"), draftText({ session_id: "DRAFT-S-00000001", topic_id: "T-a" }, "notes\n"));
    store.files.set(
      S("S-20260814T110000-aaaa"),
      confirmedText(
        { session_id: "S-20260814T110000-aaaa", topic_id: "T-a", absorbed_drafts: ["DRAFT-S-00000001"] },
        { notes: "notes" },
      ),
    );
    // Reconcile trashes the finished draft; then nothing is open, so nothing new is recorded.
    await expectError(core.end({ topic: "T-a" }), "nothing_open", 2);
    expect(confirmedPaths(store)).toEqual([S("S-20260814T110000-aaaa")]);
    expect(draftPaths(store)).toEqual([]);
  });

  it("never overwrites an existing confirmed note when the ID collides", async () => {
    const store = new MemoryStore();
    const existing = confirmedText({ session_id: "S-20260814T120000-abab" });
    store.files.set(S("S-20260814T120000-abab"), existing);
    let calls = 0;
    const random = { bytes: (n: number) => new FixedRandom(calls++ === 0 ? 0xab : 0xcd).bytes(n) };
    const { core } = harness({ store, random, at: "2026-08-14T12:00:00Z" });
    const now = "2026-08-14T12:00:00+00:00";
    const draft = { session_id: "DRAFT-S-00000001", topic_id: "T-a", started_at: now, last_checkpoint_at: now };
    store.files.set(S("DRAFT-S-00000001"), draftText(draft));
    const result = await core.end({ topic: "T-a" });
    expect(result.session.sessionId).toBe("S-20260814T120000-cdcd");
    expect(store.files.get(S("S-20260814T120000-abab"))).toBe(existing);
  });

  it("refuses to end while the open session's draft cannot be read, naming the file and leaving it alone", async () => {
    // Recording the session without the draft would record it twice once the learner repairs the draft.
    const { core, store } = harness();
    store.files.set(
      HOT,
      hotText({
        active_topic: "T-a",
        started_at: "2026-08-14T11:00:00+00:00",
        open_draft: "DRAFT-S-0000000c",
        device: "laptop",
      }),
    );
    store.files.set(S("DRAFT-S-0000000c"), "---\nbroken: [\n---\nnotes\n");
    const error = await expectError(core.end(), "usage", 2);
    expect(error.message).toContain("palee/sessions/DRAFT-S-0000000c.md cannot be read");
    expect(confirmedPaths(store)).toEqual([]);
    expect(store.files.get(S("DRAFT-S-0000000c"))).toBe("---\nbroken: [\n---\nnotes\n");
    // Once the learner moves the broken file away, the session ends from hot.md's start.
    store.files.delete(S("DRAFT-S-0000000c"));
    await expect(core.end()).resolves.toMatchObject({ session: { topicId: "T-a", durationMinutes: 60 } });
  });

  it("leaves drafts of the topic that started before the open session alone (the learner chose Ignore)", async () => {
    const { core, store, clock } = harness({ at: "2026-08-14T12:00:00Z" });
    const old = draftText(
      {
        session_id: "DRAFT-S-000000aa",
        topic_id: "T-a",
        started_at: "2026-08-12T09:00:00+00:00",
        last_checkpoint_at: "2026-08-12T09:40:00+00:00",
      },
      "old notes\n",
    );
    store.files.set(S("DRAFT-S-000000aa"), old);
    const started = await core.start({ topic: "T-a", ignoreDrafts: new Set(["DRAFT-S-000000aa"]) });
    if (started.status !== "started") throw new Error(started.status);
    clock.advance(30);
    const result = await core.end({ summary: "today" });
    expect(result.session).toMatchObject({
      startedAt: "2026-08-14T12:00:00+00:00",
      durationMinutes: 30,
      absorbedDrafts: [started.draftId],
    });
    expect(result.warnings.join("\n")).toContain("left DRAFT-S-000000aa alone");
    expect(store.files.get(S("DRAFT-S-000000aa"))).toBe(old);
  });

  it("refuses an end without an explicit topic when nothing records a start", async () => {
    const { core, store } = harness();
    store.files.set(HOT, hotText({ active_topic: "T-a" }));
    await expectError(core.end({ summary: "nothing was open" }), "nothing_open", 2);
    expect(store.writes).toEqual([]);
  });

  it("makes the ended topic the active one, so the next start needs no topic", async () => {
    const { core, store } = harness();
    await core.start({ topic: "T-a" });
    await core.end({ summary: "first" });
    expect(fields(store, HOT)).toMatchObject({ active_topic: "T-a", open_draft: null });
    await expect(core.start()).resolves.toMatchObject({ status: "started", topicId: "T-a" });
  });

  it("keeps the hot.md body within 250 words for a huge summary", async () => {
    const { core, store } = harness();
    const summary = Array.from({ length: 100_000 }, (_, i) => `word${i}`).join(" ");
    await core.start({ topic: "T-a" });
    await core.end({ summary, nextAction: "next step" });
    const hot = classifyRecord(store.files.get(HOT) ?? null);
    if (hot.state !== "ok") throw new Error(hot.state);
    expect(countWords(hot.body)).toBeLessThanOrEqual(250);
    expect(hot.body.trimEnd()).toMatch(/Source: \[\[S-[^\]]+\]\]$/);
  });
});

describe("recover", () => {
  const at = "2026-08-14T12:00:00Z";
  function withInterrupted() {
    const h = harness({ at });
    h.store.files.set(
      S("DRAFT-S-00000001"),
      draftText(
        {
          session_id: "DRAFT-S-00000001",
          topic_id: "T-a",
          started_at: "2026-08-14T09:00:00+00:00",
          last_checkpoint_at: "2026-08-14T10:00:00+00:00",
          device: "laptop",
        },
        "interrupted notes\n",
      ),
    );
    return h;
  }

  it(
    "save ends at the last checkpoint, records outcome interrupted, trashes the draft and " + "rebuilds the views",
    async () => {
      const { core, store } = withInterrupted();
      const result = await core.recover("DRAFT-S-00000001", "save");
      if (result.status !== "saved") throw new Error(result.status);
      expect(result.session).toMatchObject({
        startedAt: "2026-08-14T09:00:00+00:00",
        endedAt: "2026-08-14T10:00:00+00:00",
        durationMinutes: 60,
        outcome: "interrupted",
        absorbedDrafts: ["DRAFT-S-00000001"],
      });
      expect(store.files.get(result.session.path)).toContain("## Notes\n\ninterrupted notes\n");
      expect(draftPaths(store)).toEqual([]);
      expect(store.files.get(INDEX)).toContain("(2026-08-14, 60 min)");
    },
  );

  it("save is idempotent: a draft already named in absorbed_drafts is not saved twice", async () => {
    const { core, store } = withInterrupted();
    const first = await core.recover("DRAFT-S-00000001", "save");
    if (first.status !== "saved") throw new Error();
    // A crash left the draft behind (e.g. the trash never happened).
    store.files.set(S("DRAFT-S-00000001"), store.trashed[0]?.content ?? "");
    const second = await core.recover("DRAFT-S-00000001", "save");
    expect(second).toMatchObject({
      status: "saved",
      alreadySaved: true,
      session: { sessionId: first.session.sessionId },
    });
    expect(confirmedPaths(store)).toHaveLength(1);
    expect(draftPaths(store)).toEqual([]);
  });

  it("resume makes the draft the open session, continuing from its original start", async () => {
    const { core, store } = withInterrupted();
    const result = await core.recover("DRAFT-S-00000001", "resume");
    // Version 2: the two silent hours since its last checkpoint are time away, not study time.
    expect(result).toMatchObject({
      status: "resumed",
      open: { topicId: "T-a", startedAt: "2026-08-14T09:00:00+00:00", elapsedSeconds: 3600, breakMinutes: 120 },
      away: { minutes: 120 },
    });
    expect(fields(store, HOT)).toMatchObject({
      open_draft: "DRAFT-S-00000001",
      started_at: "2026-08-14T09:00:00+00:00",
      device: "laptop",
    });
    expect(store.files.get(S("DRAFT-S-00000001"))).toContain("interrupted notes");
    const status = await core.status();
    expect(status.open?.draftId).toBe("DRAFT-S-00000001");
  });

  it("resume is refused while another session is open", async () => {
    const { core } = withInterrupted();
    await core.start({ topic: "T-b", ignoreDrafts: new Set(["DRAFT-S-00000001"]) });
    await expectError(core.recover("DRAFT-S-00000001", "resume"), "usage", 2);
  });

  it("discard moves the draft to the trash; ignore leaves it byte-identical", async () => {
    const { core, store } = withInterrupted();
    const before = store.files.get(S("DRAFT-S-00000001"));
    await expect(core.recover("DRAFT-S-00000001", "ignore")).resolves.toEqual({
      status: "ignored",
      draftId: "DRAFT-S-00000001",
      warnings: [],
    });
    expect(store.files.get(S("DRAFT-S-00000001"))).toBe(before);
    expect(store.writes).toEqual([]);
    await core.recover("DRAFT-S-00000001", "discard");
    expect(draftPaths(store)).toEqual([]);
    expect(store.trashed.map((t) => t.content)).toEqual([before]);
    expect(confirmedPaths(store)).toEqual([]);
  });

  it("reports an unknown draft as no such draft", async () => {
    const { core } = harness();
    await expectError(core.recover("DRAFT-S-99999999", "save"), "no_such_draft", 2);
    await expectError(core.recover("../hot", "discard"), "no_such_draft", 2);
  });
});

describe("reconcile at start", () => {
  it("trashes drafts already absorbed and closes an open session whose draft was absorbed", async () => {
    const { core, store } = harness();
    store.files.set(
      HOT,
      hotText({
        active_topic: "T-a",
        started_at: "2026-08-14T11:00:00+00:00",
        open_draft: "DRAFT-S-00000001",
        device: "laptop",
      }),
    );
    store.files.set(S("DRAFT-S-00000001"), draftText({ session_id: "DRAFT-S-00000001", topic_id: "T-a" }));
    store.files.set(
      S("S-20260814T110000-aaaa"),
      confirmedText({ session_id: "S-20260814T110000-aaaa", topic_id: "T-a", absorbed_drafts: ["DRAFT-S-00000001"] }),
    );
    const result = await core.start({ topic: "T-b" });
    expect(result.status).toBe("started");
    expect(store.trashed.map((t) => t.path)).toEqual([S("DRAFT-S-00000001")]);
    expect(confirmedPaths(store)).toEqual([S("S-20260814T110000-aaaa")]);
  });

  it("closes an open session whose draft no longer exists", async () => {
    const { core, store } = harness();
    store.files.set(
      HOT,
      hotText({
        active_topic: "T-a",
        started_at: "2026-08-14T11:00:00+00:00",
        open_draft: "DRAFT-S-00000009",
        device: "laptop",
      }),
    );
    const result = await core.start({ topic: "T-a" });
    expect(result.status).toBe("started");
    if (result.status === "started") expect(result.warnings.join()).toContain("DRAFT-S-00000009");
  });
});

describe("reading never writes", () => {
  it("list, status and a failed start write nothing; rebuild writes only hot.md and index.md", async () => {
    const { core, store } = harness();
    store.files.set(HOT, "---\nbroken: [\n---\n");
    store.files.set(S("S-20260813T100000-aaaa"), confirmedText({ session_id: "S-20260813T100000-aaaa" }));
    store.files.set(S("S-20260813T110000-bbbb"), "");
    store.files.set(
      S("S-20260813T120000-cccc"),
      confirmedText({ session_id: "S-20260813T120000-cccc", palee_schema: 2 }),
    );
    store.files.set(S("DRAFT-S-00000001"), draftText({ session_id: "DRAFT-S-00000001" }));
    const list = await core.list();
    expect(list.skipped.map((s) => s.path)).toEqual([S("S-20260813T110000-bbbb"), S("S-20260813T120000-cccc")]);
    expect(list.skipped[0]?.reason).toBe("file is empty");
    expect(list.skipped[1]?.reason).toContain("unsupported palee_schema 2");
    await core.status();
    await core.start({ topic: "T-a" });
    expect(store.writes).toEqual([]);
    const confirmedBefore = confirmedPaths(store).map((p) => store.files.get(p));
    await core.rebuild();
    expect(store.writes).toEqual([`replace ${INDEX}`, `replace ${HOT}`]);
    expect(confirmedPaths(store).map((p) => store.files.get(p))).toEqual(confirmedBefore);
  });
});

describe("unreadable files", () => {
  it("skips a session file that cannot be read, names it, and still lists and indexes the rest", async () => {
    const { core, store } = harness();
    store.files.set(S("S-20260813T100000-aaaa"), confirmedText({ session_id: "S-20260813T100000-aaaa" }));
    store.files.set(S("S-20260813T110000-bbbb"), confirmedText({ session_id: "S-20260813T110000-bbbb" }));
    const read = store.read.bind(store);
    store.read = (path) =>
      path === S("S-20260813T110000-bbbb") ? Promise.reject(new Error("EACCES: permission denied")) : read(path);
    const list = await core.list();
    expect(list.confirmed.map((s) => s.sessionId)).toEqual(["S-20260813T100000-aaaa"]);
    expect(list.skipped).toEqual([
      { path: S("S-20260813T110000-bbbb"), reason: "cannot be read (EACCES: permission denied)" },
    ]);
    await core.rebuild();
    expect(store.files.get(INDEX)).toContain("Total sessions: 1");
  });
});

describe("ordering", () => {
  it("orders by recorded started_at across offsets, ties by session_id, never by listing order", async () => {
    const { core, store } = harness();
    // 10:00+05:30 is 04:30Z: earlier than 06:00Z.
    store.files.set(
      S("S-20260814T060000-zzzz"),
      confirmedText({
        session_id: "S-20260814T060000-zzzz",
        started_at: "2026-08-14T06:00:00+00:00",
        ended_at: "2026-08-14T07:00:00+00:00",
      }),
    );
    store.files.set(
      S("S-20260814T043000-aaaa"),
      confirmedText({
        session_id: "S-20260814T043000-aaaa",
        started_at: "2026-08-14T10:00:00+05:30",
        ended_at: "2026-08-14T11:00:00+05:30",
      }),
    );
    store.files.set(
      S("S-20260814T060000-bbbb"),
      confirmedText({
        session_id: "S-20260814T060000-bbbb",
        started_at: "2026-08-14T06:00:00Z",
        ended_at: "2026-08-14T07:00:00Z",
      }),
    );
    const list = await core.list();
    expect(list.confirmed.map((s) => s.sessionId)).toEqual([
      "S-20260814T060000-zzzz",
      "S-20260814T060000-bbbb",
      "S-20260814T043000-aaaa",
    ]);
    await core.rebuild();
    const index = store.files.get(INDEX) ?? "";
    expect(index.indexOf("zzzz")).toBeLessThan(index.indexOf("bbbb"));
    expect(index.indexOf("bbbb")).toBeLessThan(index.indexOf("aaaa"));
    expect(index).toContain("- [[S-20260814T043000-aaaa]] - Topic: T-rust-ownership (2026-08-14, 45 min)");
  });

  it("keeps one of two files claiming the same session_id and reports the other", async () => {
    const { core, store } = harness();
    const text = confirmedText({ session_id: "S-20260814T060000-aaaa" });
    store.files.set(S("S-20260814T060000-aaaa"), text);
    store.files.set(S("S-20260814T060000-aaaa (conflict 2026-08-15)"), text);
    const list = await core.list();
    expect(list.confirmed.map((s) => s.path)).toEqual([S("S-20260814T060000-aaaa")]);
    expect(list.skipped).toEqual([
      {
        path: S("S-20260814T060000-aaaa (conflict 2026-08-15)"),
        reason: expect.stringContaining("duplicate session_id") as unknown,
      },
    ]);
  });
});

describe("concurrent changes", () => {
  /** A store where hot.md changes underneath the first `times` writes to it. */
  function racing(times: number): { store: SessionStore & MemoryStore } {
    const store = new MemoryStore();
    const original = store.replace.bind(store);
    let left = times;
    store.replace = async (path, expected, content) => {
      if (path === HOT && left > 0) {
        left--;
        store.files.set(HOT, hotText({ active_topic: "T-other-device" }, `edit ${left}\n`));
      }
      return original(path, expected, content);
    };
    return { store };
  }

  it("retries a derived-view write once from a fresh read", async () => {
    const { store } = racing(1);
    const { core } = harness({ store });
    await expect(core.rebuild()).resolves.toMatchObject({ totalConfirmed: 0 });
    expect(fields(store, HOT)).toMatchObject({ active_topic: "T-other-device" });
  });

  it("reports a conflict (exit 4) when the file keeps changing, and leaves the other device's content", async () => {
    const { store } = racing(2);
    const { core } = harness({ store });
    const error = await core.rebuild().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).exitCode).toBe(4);
    expect(store.files.get(HOT)).toContain("edit 0");
  });
});

describe("time zones", () => {
  it("writes timestamps with a non-whole-hour offset and names sessions in UTC (Asia/Kolkata, +05:30)", async () => {
    const { core, store, clock } = harness({ at: "2026-08-14T20:00:00Z", offset: 330 });
    const started = await core.start({ topic: "T-a" });
    expect(started).toMatchObject({ status: "started", startedAt: "2026-08-15T01:30:00+05:30" });
    clock.advance(30);
    const ended = await core.end({ summary: "late night" });
    expect(ended.session).toMatchObject({
      startedAt: "2026-08-15T01:30:00+05:30",
      endedAt: "2026-08-15T02:00:00+05:30",
      durationMinutes: 30,
    });
    expect(ended.session.sessionId).toMatch(/^S-20260814T200000-/);
    expect(store.files.get(INDEX)).toContain("(2026-08-15, 30 min)");
    expect(fields(store, HOT)).toMatchObject({ updated_at: "2026-08-15" });
  });
});

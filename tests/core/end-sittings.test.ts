/**
 * end takes one sitting and invents nothing (contract §4 end, version 3): drafts far apart are never merged,
 * also when hot.md cannot say which one is open; a late sync copy of an ended draft is recognised as saved;
 * identical copies carry their notes once; a failure after the save says the session is saved; "newest" ties
 * are broken by session_id as rebuild breaks them.
 */
import { PaleeError, afterSaveError } from "../../src/core/errors";
import type { SessionStore } from "../../src/core/ports";
import { chooseSitting, sittingsOf } from "../../src/core/recovery";
import { interpretDraft } from "../../src/core/records/records";
import { classifyRecord } from "../../src/core/records/frontmatter";
import { confirmedText, draftText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import { ForwardingStore } from "../support/forwarding-store";
import { HOT, INDEX, S, confirmedPaths, draftPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const TOPIC = "T-rust";
const MONDAY = "DRAFT-S-0000000a";
const WEDNESDAY = "DRAFT-S-0000000b";

async function refusal(promise: Promise<unknown>, kind: string): Promise<PaleeError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaleeError);
  expect((error as PaleeError).kind).toBe(kind);
  return error as PaleeError;
}

function draft(id: string, start: string, checkpoint: string, body = "", extra: Record<string, string> = {}) {
  return draftText(
    { session_id: id, topic_id: TOPIC, started_at: start, last_checkpoint_at: checkpoint, ...extra },
    body,
  );
}

/** Monday's 40-minute interrupted draft and Wednesday's 60-minute session, ended on Wednesday at 11:00. */
function mondayAndWednesday(hot: string | null) {
  const h = harness({ at: "2026-08-19T11:00:00Z" });
  h.store.files.set(S(MONDAY), draft(MONDAY, "2026-08-17T09:00:00+00:00", "2026-08-17T09:40:00+00:00", "Monday\n"));
  h.store.files.set(
    S(WEDNESDAY),
    draft(WEDNESDAY, "2026-08-19T10:00:00+00:00", "2026-08-19T10:58:00+00:00", "Wednesday\n"),
  );
  if (hot !== null) h.store.files.set(HOT, hot);
  return h;
}

describe("end takes the open session's sitting only", () => {
  it.each([
    ["missing", null],
    ["corrupt", "---\nactive_topic: [T-rust\n---\n"],
    ["of schema 2", hotText({ palee_schema: 2, active_topic: TOPIC })],
    ["hand-written", "My plan for the week: T-rust\n"],
    ["closed (no open session)", hotText({ active_topic: TOPIC })],
  ])("with hot.md %s: Monday's interrupted draft is not merged into Wednesday's 60 minutes", async (_name, hot) => {
    const { core, store } = mondayAndWednesday(hot);
    const monday = store.files.get(S(MONDAY));
    const result = await core.end({ topic: TOPIC, endAt: { kind: "now" } });
    expect(result.session).toMatchObject({
      startedAt: "2026-08-19T10:00:00+00:00",
      durationMinutes: 60,
      absorbedDrafts: [WEDNESDAY],
    });
    expect(result.warnings).toContainEqual(expect.stringMatching(new RegExp(`^left ${MONDAY} alone: .*interrupted`)));
    expect(store.files.get(S(MONDAY))).toBe(monday);
    expect(store.files.get(result.session.path)).not.toContain("Monday");
  });

  it("with hot.md pointing at Wednesday's session, Monday's draft is left alone too", async () => {
    const hot = hotText({
      active_topic: TOPIC,
      started_at: "2026-08-19T10:00:00+00:00",
      open_draft: WEDNESDAY,
      device: "laptop",
    });
    const { core } = mondayAndWednesday(hot);
    const result = await core.end({});
    expect(result.session).toMatchObject({ durationMinutes: 60, absorbedDrafts: [WEDNESDAY] });
  });

  it("never reaches back days: 50 drafts a day apart, --at now and no open session, give one sitting", async () => {
    const h = harness({ at: "2026-09-30T12:00:00Z" });
    const day = 24 * 3_600_000;
    const first = Date.parse("2026-08-12T11:00:00Z");
    for (let i = 0; i < 50; i++) {
      const id = `DRAFT-S-${(0x100 + i).toString(16).padStart(8, "0")}`;
      const start = new Date(first + i * day).toISOString().replace(".000Z", "+00:00");
      const checkpoint = new Date(first + i * day + 20 * 60_000).toISOString().replace(".000Z", "+00:00");
      h.store.files.set(S(id), draft(id, start, checkpoint, `day ${i}\n`));
    }
    // The newest draft: today 11:00–11:20, so it may still be the open session.
    const result = await h.core.end({ topic: TOPIC, endAt: { kind: "now" } });
    expect(result.session).toMatchObject({ startedAt: "2026-09-30T11:00:00+00:00" });
    expect(result.session.absorbedDrafts).toHaveLength(1);
    expect(result.session.durationMinutes).toBe(60);
    expect(draftPaths(h.store)).toHaveLength(49);
    // A month later nothing may still be running: refused, naming three of the 50 and counting the rest.
    h.clock.advance(30 * 24 * 60);
    const error = await refusal(h.core.end({ topic: TOPIC, endAt: { kind: "now" } }), "nothing_open");
    expect(error.message).toContain("; and 46 more)");
  });

  it("refuses nothing_open, naming them, when the only drafts went silent long ago (no open session)", async () => {
    const h = harness({ at: "2026-08-19T11:00:00Z" });
    h.store.files.set(S(MONDAY), draft(MONDAY, "2026-08-17T09:00:00+00:00", "2026-08-17T09:40:00+00:00"));
    const before = h.store.snapshot();
    const error = await refusal(h.core.end({ topic: TOPIC, endAt: { kind: "now" } }), "nothing_open");
    expect(error.message).toContain(`left ${MONDAY} alone`);
    expect(h.store.snapshot()).toEqual(before);
  });

  it("merges drafts whose spans follow each other within the grace period (one sitting)", async () => {
    const h = harness({ at: "2026-08-19T11:00:00Z" });
    h.store.files.set(S(MONDAY), draft(MONDAY, "2026-08-19T09:00:00+00:00", "2026-08-19T09:50:00+00:00", "a\n"));
    h.store.files.set(S(WEDNESDAY), draft(WEDNESDAY, "2026-08-19T10:00:00+00:00", "2026-08-19T10:58:00+00:00"));
    const result = await h.core.end({ topic: TOPIC });
    expect(result.session).toMatchObject({ startedAt: "2026-08-19T09:00:00+00:00", durationMinutes: 120 });
    expect([...result.absorbedDrafts].sort()).toEqual([MONDAY, WEDNESDAY]);
  });

  it("groups by sign of life, not by start alone (the sittings planner)", () => {
    const read = (text: string, id: string) => {
      const result = interpretDraft(S(id), classifyRecord(text), () => 0);
      if (!("record" in result)) throw new Error(result.reason);
      return result.record;
    };
    const a = read(
      draft("DRAFT-S-00000001", "2026-08-19T09:00:00+00:00", "2026-08-19T10:00:00+00:00"),
      "DRAFT-S-00000001",
    );
    const b = read(
      draft("DRAFT-S-00000002", "2026-08-19T10:14:00+00:00", "2026-08-19T10:30:00+00:00"),
      "DRAFT-S-00000002",
    );
    const c = read(
      draft("DRAFT-S-00000003", "2026-08-19T10:46:00+00:00", "2026-08-19T11:00:00+00:00"),
      "DRAFT-S-00000003",
    );
    const grace = 15 * 60_000;
    expect(sittingsOf([c, a, b], grace).sittings.map((s) => s.drafts.map((d) => d.draftId))).toEqual([
      ["DRAFT-S-00000001", "DRAFT-S-00000002"],
      ["DRAFT-S-00000003"],
    ]);
    const now = Date.parse("2026-08-19T11:05:00Z");
    expect(chooseSitting([a, b, c], a, { now, graceMs: grace, aliveMs: grace }).taken).toEqual([a, b]);
    expect(chooseSitting([a, b, c], null, { now, graceMs: grace, aliveMs: grace }).taken).toEqual([c]);
    expect(chooseSitting([a, b], null, { now, graceMs: grace, aliveMs: grace }).taken).toEqual([]);
  });
});

describe("end never invents a session", () => {
  it("four ends with --topic and nothing open record nothing and keep the working memory", async () => {
    const { core, store, clock } = harness();
    await core.start({ topic: TOPIC });
    clock.advance(30);
    await core.end({ summary: "Borrowing" });
    const after = store.snapshot();
    for (let i = 0; i < 4; i++) {
      clock.advance(1);
      const error = await refusal(core.end({ topic: TOPIC, summary: "stop hook" }), "nothing_open");
      expect(error.message).toContain("palee session log --topic T-rust");
    }
    expect(store.snapshot()).toEqual(after);
    expect(confirmedPaths(store)).toHaveLength(1);
    expect(store.files.get(HOT)).toContain("Borrowing");
  });
});

describe("a late sync copy of an ended draft", () => {
  const X = "DRAFT-S-12345678";
  /** X ended 09:00–09:45; its sync copy (keeping X's session_id and start, checkpointed 09:40) arrives later. */
  function endedThenCopy(copyCheckpoint = "2026-08-14T09:40:00+00:00") {
    const h = harness({ at: "2026-08-14T12:00:00Z" });
    h.store.files.set(
      S("S-20260814T090000-abcd"),
      confirmedText({
        session_id: "S-20260814T090000-abcd",
        topic_id: TOPIC,
        started_at: "2026-08-14T09:00:00+00:00",
        ended_at: "2026-08-14T09:45:00+00:00",
        duration_minutes: 45,
        absorbed_drafts: [X],
      }),
    );
    h.store.files.set(HOT, hotText({ active_topic: TOPIC, last_session: "S-20260814T090000-abcd" }));
    h.store.files.set(
      S(`${X} 2`),
      draftText({
        session_id: X,
        topic_id: TOPIC,
        started_at: "2026-08-14T09:00:00+00:00",
        last_checkpoint_at: copyCheckpoint,
      }),
    );
    return h;
  }

  it("is not offered, is moved to the trash as saved, and saving it records nothing twice", async () => {
    const { core, store } = endedThenCopy();
    const opened = await core.triageOnOpen();
    expect(opened.pending).toEqual([]);
    expect(draftPaths(store)).toEqual([]);
    expect(store.trashed.map((t) => t.path)).toEqual([S(`${X} 2`)]);

    const again = endedThenCopy();
    await expect(again.core.recover(`${X} 2`, "save")).resolves.toMatchObject({
      status: "saved",
      alreadySaved: true,
      session: { sessionId: "S-20260814T090000-abcd" },
    });
    expect(confirmedPaths(again.store)).toEqual([S("S-20260814T090000-abcd")]);
    const started = await again.core.start({ topic: TOPIC });
    expect(started.status).toBe("started");
  });

  it("a copy that went on after the note ended holds time the note lacks: it is offered, not trashed", async () => {
    const { core, store } = endedThenCopy("2026-08-14T10:30:00+00:00");
    const opened = await core.triageOnOpen();
    expect(opened.pending.map((d) => d.draftId)).toEqual([`${X} 2`]);
    expect(draftPaths(store)).toEqual([S(`${X} 2`)]);
  });

  it("the original arriving after its copy was saved is recognised the same way", async () => {
    const h = harness({ at: "2026-08-14T12:00:00Z" });
    h.store.files.set(
      S("S-20260814T090000-abcd"),
      confirmedText({
        session_id: "S-20260814T090000-abcd",
        topic_id: TOPIC,
        started_at: "2026-08-14T09:00:00+00:00",
        ended_at: "2026-08-14T09:45:00+00:00",
        absorbed_drafts: [`${X} 2`],
      }),
    );
    h.store.files.set(
      S(X),
      draftText({
        session_id: X,
        topic_id: TOPIC,
        started_at: "2026-08-14T09:00:00+00:00",
        last_checkpoint_at: "2026-08-14T09:30:00+00:00",
      }),
    );
    expect((await h.core.triageOnOpen()).pending).toEqual([]);
    expect(draftPaths(h.store)).toEqual([]);
  });
});

describe("end of a draft with an identical sync copy", () => {
  it("carries the notes once", async () => {
    const X = "DRAFT-S-12345678";
    const h = harness({ at: "2026-08-14T12:00:00Z" });
    const text = draftText(
      { session_id: X, topic_id: TOPIC, last_checkpoint_at: "2026-08-14T11:58:00+00:00" },
      "Same notes.\n",
    );
    h.store.files.set(S(X), text);
    h.store.files.set(S(`${X} 2`), text);
    const result = await h.core.end({ topic: TOPIC });
    expect([...result.absorbedDrafts].sort()).toEqual([X, `${X} 2`]);
    const note = h.store.files.get(result.session.path) ?? "";
    expect(note.split("Same notes.").length - 1).toBe(1);
  });
});

/** A store whose writes of one path fail as a full disk does. */
class FullDiskFor extends ForwardingStore<MemoryStore> {
  constructor(
    inner: MemoryStore,
    private readonly path: string,
  ) {
    super(inner);
  }
  override replace(path: string, expected: string | null, next: string): Promise<void> {
    if (path === this.path)
      return Promise.reject(
        Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: "ENOSPC" }),
      );
    return super.replace(path, expected, next);
  }
  override create(path: string, content: string): Promise<void> {
    if (path === this.path) return Promise.reject(new Error(`ENOSPC: no space left on device, write '${path}'`));
    return super.create(path, content);
  }
}

describe("a failure after the session note is saved", () => {
  it.each([INDEX, HOT])("writing %s on a full disk says first that the session is saved (exit 5)", async (path) => {
    const inner = new MemoryStore();
    const store: SessionStore = new FullDiskFor(inner, path);
    const { core, clock } = harness({ store: inner });
    await core.start({ topic: TOPIC });
    clock.advance(45);
    const ending = harness({ store, at: new Date(clock.now()).toISOString() });
    const error = await ending.core.end({ summary: "done" }).then(
      () => null,
      (e: unknown) => e,
    );
    const [note] = confirmedPaths(inner);
    expect(note).toBeDefined();
    const reported = afterSaveError(error);
    expect(reported).not.toBeNull();
    expect(reported?.exitCode).toBe(5);
    expect(reported?.kind).toBe("saved_incomplete");
    expect(reported?.message).toMatch(
      new RegExp(`^Saved S-\\d{8}T\\d{6}-[0-9a-f]{4} \\(T-rust, 45 min\\), but .*ENOSPC`),
    );
    expect(note).toContain(reported?.savedSession ?? "?");
    // The next end reports the saved session, never a second one.
    const retried = await core.end({});
    expect(retried.alreadySaved).toBe(true);
    expect(confirmedPaths(inner)).toHaveLength(1);
  });

  it("an error before the save is not reported as saved", async () => {
    expect(afterSaveError(new Error("ENOSPC"))).toBeNull();
  });
});

describe("two sessions started in the same second", () => {
  it("end and rebuild agree on active_topic: the newest by session_id", async () => {
    for (const [other, expected] of [
      ["S-20260814T110000-ffff", "T-other"], // sorts after any ID end draws: the newest
      ["S-20260814T110000-0000", TOPIC], // sorts before: the ended session is the newest
    ] as const) {
      const { core, store, clock } = harness({ at: "2026-08-14T11:00:00Z" });
      store.files.set(
        S(other),
        confirmedText({
          session_id: other,
          topic_id: "T-other",
          started_at: "2026-08-14T11:00:00+00:00",
          ended_at: "2026-08-14T11:30:00+00:00",
        }),
      );
      await core.start({ topic: TOPIC });
      clock.advance(30);
      const result = await core.end({});
      expect(result.session.startedAt).toBe("2026-08-14T11:00:00+00:00");
      const afterEnd = fields(store, HOT).active_topic;
      await core.rebuild();
      expect([other, afterEnd]).toEqual([other, fields(store, HOT).active_topic]);
      expect([other, afterEnd]).toEqual([other, expected]);
    }
  });
});

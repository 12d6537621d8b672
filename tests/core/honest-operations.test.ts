/** The honest-time operations of the core (contract §4 version 2): pause, continue, time away, end at, log. */
import { PaleeError } from "../../src/core/errors";
import { confirmedText, draftText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT, INDEX, S, confirmedPaths, draftPaths, fields } from "../support/inspect";

async function refusal(promise: Promise<unknown>, kind: string): Promise<PaleeError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaleeError);
  expect((error as PaleeError).kind).toBe(kind);
  expect((error as PaleeError).exitCode).toBe(2);
  return error as PaleeError;
}

async function started(at = "2026-08-14T12:00:00Z") {
  const h = harness({ at });
  const result = await h.core.start({ topic: "T-a" });
  if (result.status !== "started") throw new Error(result.status);
  return { ...h, draftId: result.draftId };
}

describe("pause and continue", () => {
  it("pause records paused_at and nothing else; status freezes the time studied", async () => {
    const { core, store, clock, draftId } = await started();
    clock.advance(20);
    const before = store.files.get(S(draftId)) ?? "";
    await expect(core.pause()).resolves.toEqual({ draftId, pausedAt: "2026-08-14T12:20:00+00:00" });
    expect(store.files.get(S(draftId))).toBe(
      `${before.replace(/---\n$/, "")}paused_at: "2026-08-14T12:20:00+00:00"\n---\n`,
    );
    clock.advance(30);
    const status = await core.status();
    expect(status.open).toMatchObject({
      pausedAt: "2026-08-14T12:20:00+00:00",
      elapsedSeconds: 20 * 60,
      breakMinutes: 0,
    });
  });

  it("continue adds the pause to break_minutes, clears paused_at and checkpoints", async () => {
    const { core, store, clock, draftId } = await started();
    clock.advance(20);
    await core.pause();
    clock.advance(30);
    await expect(core.continueSession()).resolves.toEqual({ draftId, breakMinutes: 30 });
    expect(fields(store, S(draftId))).toMatchObject({
      paused_at: null,
      break_minutes: 30,
      last_checkpoint_at: "2026-08-14T12:50:00+00:00",
    });
    clock.advance(10);
    expect((await core.status()).open).toMatchObject({ pausedAt: null, breakMinutes: 30, elapsedSeconds: 30 * 60 });
    const ended = await core.end({ summary: "done" });
    expect(ended.session).toMatchObject({ durationMinutes: 30, breakMinutes: 30 });
    expect(fields(store, S(ended.session.sessionId))).toMatchObject({ duration_minutes: 30, break_minutes: 30 });
  });

  it("refuses pause with nothing open, pause when paused, continue when not paused, writing nothing", async () => {
    const empty = harness();
    await refusal(empty.core.pause(), "nothing_open");
    await refusal(empty.core.continueSession(), "nothing_open");
    expect(empty.store.writes).toEqual([]);
    const { core, store } = await started();
    await refusal(core.continueSession(), "not_paused");
    await core.pause();
    const writes = store.writes.length;
    await refusal(core.pause(), "already_paused");
    await refusal(core.pause({ topic: "T-other" }), "nothing_open");
    expect(store.writes.length).toBe(writes);
  });

  it("a checkpoint keeps a paused session paused and records no time away", async () => {
    const { core, store, clock, draftId } = await started();
    await core.pause();
    clock.advance(120);
    const result = await core.checkpoint({ notes: "reading" });
    expect(result.away).toBeNull();
    expect(fields(store, S(draftId))).toMatchObject({ paused_at: "2026-08-14T12:00:00+00:00" });
  });

  it("end of a paused session ends at paused_at, even after a long silence", async () => {
    const { core, clock } = await started();
    clock.advance(40);
    await core.pause();
    clock.advance(13 * 60);
    const ended = await core.end();
    expect(ended.session).toMatchObject({ endedAt: "2026-08-14T12:40:00+00:00", durationMinutes: 40, breakMinutes: 0 });
  });

  it("end of a paused session at a later chosen time counts the pause up to then as a break", async () => {
    const { core, clock } = await started();
    clock.advance(40);
    await core.pause();
    clock.advance(60);
    const ended = await core.end({ endAt: { kind: "now" } });
    expect(ended.session).toMatchObject({
      endedAt: "2026-08-14T13:40:00+00:00",
      durationMinutes: 40,
      breakMinutes: 60,
    });
  });
});

describe("end at a chosen time", () => {
  it(
    "refuses a long silence without at (nothing written), and ends at the last sign of life " + "with at last",
    async () => {
      const { core, store, clock } = await started("2026-08-13T20:00:00Z");
      clock.advance(30);
      await core.checkpoint();
      clock.advance(12 * 60 + 30); // 09:00 the next morning
      const before = store.snapshot();
      const error = await refusal(core.end({ summary: "x" }), "long_silence");
      expect(error.message).toMatch(/12 h 30 min ago.*13 h ago.*--at now, --at last or --at HH:MM/);
      expect(store.snapshot()).toEqual(before);
      const ended = await core.end({ endAt: { kind: "last" } });
      expect(ended.session).toMatchObject({ endedAt: "2026-08-13T20:30:00+00:00", durationMinutes: 30 });
    },
  );

  it("ends at HH:MM, and refuses a time before the start or unreadable", async () => {
    const { core, store, clock } = await started("2026-08-14T12:00:00Z");
    clock.advance(90);
    await refusal(core.end({ endAt: { kind: "given", text: "11:00" } }), "invalid_time");
    await refusal(core.end({ endAt: { kind: "given", text: "25:99" } }), "invalid_time");
    expect(confirmedPaths(store)).toEqual([]);
    const ended = await core.end({ endAt: { kind: "given", text: "13:15" } });
    expect(ended.session).toMatchObject({ endedAt: "2026-08-14T13:15:00+00:00", durationMinutes: 75 });
    expect(draftPaths(store)).toEqual([]);
  });

  it("a short silence ends now without asking", async () => {
    const { core, clock } = await started();
    clock.advance(100);
    await core.checkpoint();
    clock.advance(30);
    await expect(core.end()).resolves.toMatchObject({ session: { durationMinutes: 130 } });
  });
});

describe("time away", () => {
  it("a checkpoint after a gap longer than the grace period records it as a break in the same write", async () => {
    const { core, store, clock, draftId } = await started("2026-08-13T20:00:00Z");
    clock.advance(30);
    await core.checkpoint();
    clock.advance(10 * 60);
    const writes = store.writes.length;
    const result = await core.checkpoint();
    expect(store.writes.length).toBe(writes + 1);
    expect(result.away).toEqual({ fromMs: Date.parse("2026-08-13T20:30:00Z"), toMs: clock.ms, minutes: 600 });
    expect(fields(store, S(draftId))).toMatchObject({
      break_minutes: 600,
      last_checkpoint_at: "2026-08-14T06:30:00+00:00",
    });
    clock.advance(15);
    const ended = await core.end();
    expect(ended.session).toMatchObject({ durationMinutes: 45, breakMinutes: 600 });
  });

  it("the caller's own sign of life (aliveAt) is not time away; a gap between its ticks is", async () => {
    const { core, clock } = await started();
    clock.advance(60);
    expect((await core.checkpoint({ aliveAt: clock.ms - 1000 })).away).toBeNull();
    clock.advance(20);
    const result = await core.checkpoint({ aliveAt: clock.ms - 20 * 60_000 });
    expect(result.away).toMatchObject({ minutes: 20 });
  });

  it("without aliveAt (the CLI) only a silence longer than 2 h is time away", async () => {
    const { core, clock } = await started();
    clock.advance(100);
    expect((await core.checkpoint()).away).toBeNull();
    clock.advance(121);
    expect((await core.checkpoint()).away).toMatchObject({ minutes: 121 });
  });

  it("countAwayBack removes that interval from breaks, and only once", async () => {
    const { core, store, clock, draftId } = await started();
    clock.advance(60);
    const { away } = await core.checkpoint({ aliveAt: clock.ms - 60 * 60_000 });
    expect(away?.minutes).toBe(60);
    if (!away) return;
    expect(fields(store, S(draftId))).toMatchObject({
      breaks: ["2026-08-14T12:00:00+00:00/2026-08-14T13:00:00+00:00"],
      break_minutes: 60,
    });
    await expect(core.countAwayBack({ draftId, ...away })).resolves.toEqual({ breakMinutes: 0, countedMinutes: 60 });
    expect(fields(store, S(draftId))).toMatchObject({ breaks: [], break_minutes: 0 });
    await expect(core.countAwayBack({ draftId, ...away })).resolves.toEqual({ breakMinutes: 0, countedMinutes: 0 });
    await refusal(core.countAwayBack({ draftId, fromMs: away.toMs, toMs: away.fromMs }), "usage");
    await core.end();
    await refusal(core.countAwayBack({ draftId, ...away }), "no_such_draft");
  });

  it("save of an interrupted paused draft ends at paused_at with its breaks", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      S("DRAFT-S-00000001"),
      draftText({
        session_id: "DRAFT-S-00000001",
        started_at: "2026-08-14T09:00:00+00:00",
        last_checkpoint_at: "2026-08-14T09:50:00+00:00",
        paused_at: "2026-08-14T10:00:00+00:00",
        break_minutes: 10,
      }),
    );
    const result = await core.recover("DRAFT-S-00000001", "save");
    if (result.status !== "saved") throw new Error(result.status);
    expect(result.session).toMatchObject({
      endedAt: "2026-08-14T10:00:00+00:00",
      durationMinutes: 50,
      breakMinutes: 10,
    });
  });
});

describe("damaged honest-time fields", () => {
  it("a garbage or future paused_at and a negative break_minutes are reported and read as absent", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      HOT,
      hotText({
        active_topic: "T-rust-ownership",
        started_at: "2026-08-14T11:00:00+00:00",
        open_draft: "DRAFT-S-00000001",
        device: "laptop",
      }),
    );
    store.files.set(
      S("DRAFT-S-00000001"),
      draftText({
        session_id: "DRAFT-S-00000001",
        paused_at: "tomorrow",
        break_minutes: -5,
        last_checkpoint_at: "2026-08-14T11:55:00+00:00",
      }),
    );
    store.files.set(
      S("S-20260813T100000-aaaa"),
      confirmedText({ session_id: "S-20260813T100000-aaaa", break_minutes: "ten" }),
    );
    const listed = await core.list();
    expect(listed.warnings).toEqual([
      expect.stringContaining('S-20260813T100000-aaaa.md: break_minutes "ten"'),
      expect.stringContaining("DRAFT-S-00000001.md: break_minutes -5"),
      expect.stringContaining('DRAFT-S-00000001.md: paused_at "tomorrow"'),
    ]);
    expect(listed.drafts[0]).toMatchObject({ pausedAt: null, breakMinutes: 0 });
    expect(listed.confirmed[0]).toMatchObject({ breakMinutes: 0, durationMinutes: 45 });
    const ended = await core.end();
    expect(ended.session).toMatchObject({ durationMinutes: 60, breakMinutes: 0 });
    expect(ended.warnings.some((w) => w.includes("paused_at"))).toBe(true);
  });

  it("pause repairs a damaged paused_at", async () => {
    const { core, store, draftId } = await started();
    store.files.set(
      S(draftId),
      (store.files.get(S(draftId)) ?? "").replace(
        "device: laptop\n",
        "device: laptop\npaused_at: 2099-01-01T00:00:00Z\n",
      ),
    );
    await expect(core.pause()).resolves.toMatchObject({ pausedAt: "2026-08-14T12:00:00+00:00" });
  });
});

describe("log", () => {
  it("writes a create-only confirmed note with outcome logged and refreshes the views", async () => {
    const { core, store } = harness({ at: "2026-08-14T20:00:00Z" });
    const result = await core.log({ topic: "T-a", from: "14:00", to: "14:45", summary: "Read chapter 4" });
    expect(result.session).toMatchObject({
      topicId: "T-a",
      startedAt: "2026-08-14T14:00:00+00:00",
      endedAt: "2026-08-14T14:45:00+00:00",
      durationMinutes: 45,
      outcome: "logged",
      absorbedDrafts: [],
      breakMinutes: 0,
    });
    expect(fields(store, S(result.session.sessionId))).toMatchObject({ outcome: "logged", absorbed_drafts: [] });
    expect(store.files.get(INDEX)).toContain(`[[${result.session.sessionId}]] - Topic: T-a (2026-08-14, 45 min)`);
    expect(fields(store, HOT)).toMatchObject({ active_topic: "T-a", last_session: result.session.sessionId });
  });

  it("minutes end at --to (default now)", async () => {
    const { core } = harness({ at: "2026-08-14T20:00:00Z" });
    await expect(core.log({ topic: "T-a", minutes: "30" })).resolves.toMatchObject({
      session: { startedAt: "2026-08-14T19:30:00+00:00", durationMinutes: 30 },
    });
  });

  it("refuses the future, bad input and overlaps, writing nothing; a retried log counts nothing twice", async () => {
    const { core, store } = harness({ at: "2026-08-14T20:00:00Z" });
    await core.log({ topic: "T-a", from: "14:00", to: "15:00" });
    const before = store.snapshot();
    await refusal(core.log({ topic: "T-a", from: "14:00", to: "15:00" }), "overlap");
    await refusal(core.log({ topic: "T-a", from: "14:50", to: "15:30" }), "overlap");
    await refusal(core.log({ topic: "T-a", from: "2026-08-14T21:00:00Z", to: "2026-08-14T22:00:00Z" }), "invalid_time");
    await refusal(core.log({ topic: "T-a", from: "2026-08-14T16:00:00Z", to: "2026-08-14T15:30:00Z" }), "invalid_time");
    await refusal(core.log({ topic: "T-a", minutes: "-5" }), "usage");
    await refusal(core.log({ topic: "T-a", minutes: "abc" }), "usage");
    expect(store.snapshot()).toEqual(before);
    await expect(core.log({ topic: "T-a", from: "14:59", to: "15:30" })).resolves.toMatchObject({
      session: { durationMinutes: 31 },
    });
  });

  it("refuses an overlap with the open session", async () => {
    const { core, store, clock, draftId } = await started("2026-08-14T12:00:00Z");
    clock.advance(60);
    await refusal(core.log({ topic: "T-b", from: "12:30", to: "12:45" }), "overlap");
    await expect(core.log({ topic: "T-b", from: "11:00", to: "12:00" })).resolves.toMatchObject({
      session: { durationMinutes: 60 },
    });
    expect(fields(store, HOT)).toMatchObject({ open_draft: draftId, active_topic: "T-a" });
  });
});

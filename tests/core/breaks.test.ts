/** Breaks as intervals (contract §2 `breaks`, §4 honest time, version 3; invariants 11–12). */
import { readDraftBreaks, resolveEndAt } from "../../src/core/honest-time";
import type { EndTime } from "../../src/core/honest-time";
import { draftText } from "../support/builders";
import { harness } from "../support/fakes";
import { S, confirmedPaths, fields } from "../support/inspect";

const MIN = 60_000;
const at = (iso: string): number => Date.parse(iso);
const given = (text: string): EndTime => ({ kind: "given", text });
const utc = (): number => 0;
const PATH = "palee/sessions/DRAFT-S-00000001.md";

async function started(iso: string) {
  const h = harness({ at: iso });
  const result = await h.core.start({ topic: "T-a" });
  if (result.status !== "started") throw new Error(result.status);
  return { ...h, draftId: result.draftId };
}

describe("ending at a chosen time subtracts only the breaks before it", () => {
  it("a night away after 23:30 takes nothing from a session ended at 23:30 (90 min)", async () => {
    const { core, store, clock } = await started("2026-08-13T22:00:00Z");
    clock.advance(90);
    await core.checkpoint(); // 23:30, then the machine sleeps
    clock.ms = at("2026-08-14T07:05:00Z");
    const { away } = await core.checkpoint(); // the CLI: a silence longer than 2 h is time away
    expect(away).toMatchObject({ fromMs: at("2026-08-13T23:30:00Z"), toMs: clock.ms, minutes: 455 });
    const { session } = await core.end({ endAt: given("2026-08-13T23:30:00Z") });
    expect(session).toMatchObject({ durationMinutes: 90, breakMinutes: 0, endedAt: "2026-08-13T23:30:00+00:00" });
    const note = fields(store, S(session.sessionId));
    expect(note.duration_minutes).toBe(90);
    expect(note).not.toHaveProperty("break_minutes");
    expect(note).not.toHaveProperty("breaks");
  });

  it("away 23:10–07:05, ended at 23:30: only the 20 minutes of it before 23:30 are subtracted (70 min)", async () => {
    const { core, store, clock } = await started("2026-08-13T22:00:00Z");
    clock.advance(70);
    await core.checkpoint(); // 23:10
    clock.ms = at("2026-08-14T07:05:00Z");
    expect((await core.checkpoint()).away?.minutes).toBe(475);
    const { session } = await core.end({ endAt: given("23:30") });
    expect(session).toMatchObject({ durationMinutes: 70, breakMinutes: 20, endedAt: "2026-08-13T23:30:00+00:00" });
    expect(fields(store, S(session.sessionId))).toMatchObject({
      break_minutes: 20,
      breaks: ["2026-08-13T23:10:00+00:00/2026-08-13T23:30:00+00:00"],
    });
  });

  it("a pause after 18:40 takes nothing from a session ended at 18:40 (30 min)", async () => {
    const { core, store, clock } = await started("2026-08-14T18:00:00Z");
    clock.advance(30);
    await core.pause();
    clock.advance(60);
    await core.continueSession();
    expect(fields(store, S((await core.status()).open?.draftId ?? ""))).toMatchObject({
      breaks: ["2026-08-14T18:30:00+00:00/2026-08-14T19:30:00+00:00"],
      break_minutes: 60,
    });
    const { session } = await core.end({ endAt: given("18:40") });
    expect(session).toMatchObject({ durationMinutes: 30, breakMinutes: 10 });
    expect(fields(store, S(session.sessionId)).breaks).toEqual(["2026-08-14T18:30:00+00:00/2026-08-14T18:40:00+00:00"]);
  });

  it("records the part of a break inside the span, and break_minutes as its total", async () => {
    const { core, store, clock } = await started("2026-08-14T18:00:00Z");
    clock.advance(30);
    await core.pause();
    clock.advance(60);
    await core.continueSession();
    clock.advance(30);
    const { session } = await core.end({ endAt: given("19:00") });
    expect(session).toMatchObject({ durationMinutes: 30, breakMinutes: 30 });
    expect(fields(store, S(session.sessionId))).toMatchObject({
      duration_minutes: 30,
      break_minutes: 30,
      breaks: ["2026-08-14T18:30:00+00:00/2026-08-14T19:00:00+00:00"],
    });
    const whole = await core.list();
    expect(whole.confirmed[0]?.breaks).toEqual(["2026-08-14T18:30:00+00:00/2026-08-14T19:00:00+00:00"]);
  });

  it("counts an open pause as a break from paused_at to a chosen end", () => {
    const session = { startedMs: at("2026-08-14T18:00:00Z"), lastCheckpointMs: null, breaks: [] };
    const paused = { ...session, pausedMs: at("2026-08-14T18:30:00Z") };
    const now = at("2026-08-14T20:00:00Z");
    expect(resolveEndAt(given("19:00"), paused, now, 15 * MIN, utc)).toMatchObject({
      breakMinutes: 30,
      durationMinutes: 30,
      breaks: [{ fromMs: at("2026-08-14T18:30:00Z"), toMs: at("2026-08-14T19:00:00Z") }],
    });
    expect(resolveEndAt(given("18:20"), paused, now, 15 * MIN, utc)).toMatchObject({
      breakMinutes: 0,
      durationMinutes: 20,
      breaks: [],
    });
  });

  /** An open session whose draft was written before version 3: 45 break minutes, no `breaks`. */
  async function legacyDraft() {
    const h = harness({ at: "2026-08-14T12:00:00Z" });
    await h.core.start({ topic: "T-a" });
    const draftId = (await h.core.status()).open?.draftId ?? "";
    const legacy = { started_at: "2026-08-14T10:00:00+00:00", last_checkpoint_at: "2026-08-14T11:55:00+00:00" };
    h.store.files.set(S(draftId), draftText({ session_id: draftId, topic_id: "T-a", ...legacy, break_minutes: 45 }));
    return { ...h, draftId };
  }

  it("reads a draft of before version 3 as one break ending at its last checkpoint", async () => {
    const { core, store } = await legacyDraft();
    // The break is 11:10–11:55: an end at 11:30 subtracts its first 20 minutes only.
    const { session } = await core.end({ endAt: given("11:30") });
    expect(session).toMatchObject({ durationMinutes: 70, breakMinutes: 20 });
    const kept = "2026-08-14T11:10:00+00:00/2026-08-14T11:30:00+00:00";
    expect(fields(store, S(session.sessionId)).breaks).toEqual([kept]);
  });

  it("a checkpoint of a draft of before version 3 writes its break as an interval: it stays put", async () => {
    const { core, store, clock, draftId } = await legacyDraft();
    clock.ms = at("2026-08-14T12:05:00Z");
    await core.checkpoint(); // read as 11:10–11:55; without `breaks` written it would slide to 11:20–12:05
    expect(fields(store, S(draftId))).toMatchObject({
      breaks: ["2026-08-14T11:10:00+00:00/2026-08-14T11:55:00+00:00"],
      break_minutes: 45,
    });
    const { session } = await core.end({ endAt: given("11:30") });
    expect(session).toMatchObject({ durationMinutes: 70, breakMinutes: 20 });
  });
});

describe("a draft's breaks as recorded", () => {
  const now = at("2026-08-14T12:00:00Z");
  const base = { started_at: "2026-08-14T10:00:00+00:00", last_checkpoint_at: "2026-08-14T11:00:00+00:00" };
  const span = (from: string, to: string) => ({ fromMs: at(from), toMs: at(to) });
  const read = (extra: Record<string, unknown>) => readDraftBreaks({ ...base, ...extra }, PATH, now, utc);

  it("reads the list oldest first, without warnings when break_minutes is their total", () => {
    const breaks = ["2026-08-14T10:40:00Z/2026-08-14T10:50:00Z", "2026-08-14T10:10:00Z/2026-08-14T10:15:00Z"];
    expect(read({ breaks, break_minutes: 15 })).toEqual({
      breaks: [
        span("2026-08-14T10:10:00Z", "2026-08-14T10:15:00Z"),
        span("2026-08-14T10:40:00Z", "2026-08-14T10:50:00Z"),
      ],
      warnings: [],
    });
  });

  it("reads break_minutes without breaks as one break ending at last_checkpoint_at", () => {
    expect(read({ break_minutes: 20 })).toEqual({
      breaks: [span("2026-08-14T10:40:00Z", "2026-08-14T11:00:00Z")],
      warnings: [],
    });
    expect(readDraftBreaks({ started_at: base.started_at, break_minutes: 20 }, PATH, now, utc).breaks).toEqual([
      span("2026-08-14T10:00:00Z", "2026-08-14T10:20:00Z"),
    ]);
  });

  it("names a breaks value that is not a list and reads break_minutes instead", () => {
    const result = read({ breaks: "2026-08-14T10:10:00Z/2026-08-14T10:15:00Z", break_minutes: 5 });
    expect(result.breaks).toEqual([span("2026-08-14T10:55:00Z", "2026-08-14T11:00:00Z")]);
    expect(result.warnings).toEqual([
      `${PATH}: breaks "2026-08-14T10:10:00Z/2026-08-14T10:15:00Z" is not a list of "<from>/<to>"; read as absent`,
    ]);
  });

  it.each([
    ["text without a slash", "yesterday", /is not "<from>\/<to>"/],
    ["a bad time", "2026-08-14T10:10:00Z/soon", /is not "<from>\/<to>"/],
    ["three parts", "2026-08-14T10:10:00Z/2026-08-14T10:15:00Z/x", /is not "<from>\/<to>"/],
    ["a number", 5, /is not "<from>\/<to>"/],
    ["an end before its start", "2026-08-14T10:15:00Z/2026-08-14T10:10:00Z", /ends before it starts/],
  ])("names an item that is %s and leaves it out", (_what, item, why) => {
    const good = "2026-08-14T10:40:00Z/2026-08-14T10:50:00Z";
    const result = read({ breaks: [item, good], break_minutes: 15 });
    expect(result.breaks).toEqual([span("2026-08-14T10:40:00Z", "2026-08-14T10:50:00Z")]);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]?.startsWith(`${PATH}: breaks item ${JSON.stringify(item)} `)).toBe(true);
    expect(result.warnings[0]).toMatch(why);
  });

  it("reads overlapping breaks as one, their shared time once, and says so", () => {
    const result = read({
      breaks: ["2026-08-14T10:10:00Z/2026-08-14T10:30:00Z", "2026-08-14T10:20:00Z/2026-08-14T10:40:00Z"],
      break_minutes: 40,
    });
    expect(result.breaks).toEqual([span("2026-08-14T10:10:00Z", "2026-08-14T10:40:00Z")]);
    expect(result.warnings).toEqual([`${PATH}: breaks overlap; the time they share is read as one break`]);
  });

  it("names a break_minutes that is not the total of breaks, and takes the breaks", () => {
    const result = read({ breaks: ["2026-08-14T10:10:00Z/2026-08-14T10:30:00Z"], break_minutes: 90 });
    expect(result.breaks).toEqual([span("2026-08-14T10:10:00Z", "2026-08-14T10:30:00Z")]);
    expect(result.warnings).toEqual([`${PATH}: break_minutes 90 is not the total of breaks; read as 20`]);
  });

  it("ends a break that reaches past the last checkpoint there, naming it (a clock that was ahead)", () => {
    const result = read({ breaks: ["2026-08-14T10:25:00Z/2026-08-15T10:30:00Z"], break_minutes: 1445 });
    expect(result.breaks).toEqual([span("2026-08-14T10:25:00Z", "2026-08-14T11:00:00Z")]);
    expect(result.warnings).toEqual([
      `${PATH}: break 2026-08-14T10:25:00+00:00/2026-08-15T10:30:00+00:00 reaches past the session's last sign of ` +
        "life (2026-08-14T11:00:00+00:00, a clock that was ahead); read as ending there",
    ]);
  });

  it("a draft with damaged breaks is still read, and the scan names the file", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(S("DRAFT-S-00000001"), draftText({ ...base, session_id: "DRAFT-S-00000001", breaks: ["x"] }));
    const listed = await core.list();
    expect(listed.drafts.map((d) => d.draftId)).toEqual(["DRAFT-S-00000001"]);
    expect(listed.warnings).toEqual([`${PATH}: breaks item "x" is not "<from>/<to>" (two ISO 8601 times); left out`]);
  });
});

describe("a clock that was ahead never counts as study or as a break", () => {
  it("a day-ahead checkpoint's break ends at the next sign of life once the clock is corrected", async () => {
    const { core, store, clock } = await started("2026-08-14T10:00:00Z");
    clock.advance(25);
    await core.checkpoint(); // 10:25
    clock.ms = at("2026-08-15T10:30:00Z"); // the clock jumps a day ahead
    expect((await core.checkpoint()).away?.minutes).toBe(1445);
    clock.ms = at("2026-08-14T10:40:00Z"); // and is corrected
    expect((await core.checkpoint()).away).toBeNull();
    clock.ms = at("2026-08-14T11:00:00Z");
    const { session } = await core.end({ summary: "done" });
    // 60 min, less the break 10:25–10:40 (it never reaches past the checkpoint at 10:40)
    expect(session).toMatchObject({ durationMinutes: 45, breakMinutes: 15 });
    expect(fields(store, S(session.sessionId)).breaks).toEqual(["2026-08-14T10:25:00+00:00/2026-08-14T10:40:00+00:00"]);
  });

  it("a last checkpoint in the future is no sign of life: no time away is invented from the start", async () => {
    const { core, clock, draftId, store } = await started("2026-08-14T10:00:00Z");
    const text = store.files.get(S(draftId)) ?? "";
    store.files.set(
      S(draftId),
      text.replace(/last_checkpoint_at: .*/, 'last_checkpoint_at: "2026-08-14T16:30:00+00:00"'),
    );
    clock.ms = at("2026-08-14T11:00:00Z");
    const ended = await core.end({ endAt: { kind: "last" } });
    expect(ended.session).toMatchObject({ endedAt: "2026-08-14T10:00:00+00:00", durationMinutes: 0 });
    expect(ended.warnings.join("\n")).toMatch(/last checkpoint \(16:30\) is 5 h 30 min in the future/);
  });
});

describe("Save never ends after now", () => {
  it("saves a draft whose last checkpoint is 30 days ahead at its last sign of life before now; warns", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      S("DRAFT-S-00000001"),
      draftText({
        session_id: "DRAFT-S-00000001",
        started_at: "2026-08-14T09:00:00+00:00",
        last_checkpoint_at: "2026-09-13T09:40:00+00:00",
        breaks: ["2026-08-14T09:30:00+00:00/2026-08-14T09:40:00+00:00"],
        break_minutes: 10,
      }),
    );
    const result = await core.recover("DRAFT-S-00000001", "save");
    if (result.status !== "saved") throw new Error(result.status);
    expect(result.session).toMatchObject({ endedAt: "2026-08-14T09:40:00+00:00", durationMinutes: 30 });
    expect(Date.parse(result.session.endedAt)).toBeLessThanOrEqual(at("2026-08-14T12:00:00Z"));
    expect(result.warnings).toContain(
      "DRAFT-S-00000001: last_checkpoint_at 2026-09-13T09:40:00+00:00 is in the future (a clock that was ahead): " +
        "not a sign of life, so the session ends at its last one before now",
    );
    expect(confirmedPaths(store)).toHaveLength(1);
  });

  it("records no more break than the span of a saved draft of before version 3", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      S("DRAFT-S-00000001"),
      draftText({
        session_id: "DRAFT-S-00000001",
        started_at: "2026-08-14T10:00:00+00:00",
        last_checkpoint_at: "2026-08-14T10:30:00+00:00",
        break_minutes: 45,
      }),
    );
    const result = await core.recover("DRAFT-S-00000001", "save");
    if (result.status !== "saved") throw new Error(result.status);
    expect(result.session).toMatchObject({ durationMinutes: 0, breakMinutes: 30 });
    expect(fields(store, S(result.session.sessionId)).breaks).toEqual([
      "2026-08-14T10:00:00+00:00/2026-08-14T10:30:00+00:00",
    ]);
  });
});

describe("resuming an interrupted draft", () => {
  it("records the gap since its last sign of life as a break, reports it, and lets it be counted", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      S("DRAFT-S-00000001"),
      draftText({
        session_id: "DRAFT-S-00000001",
        started_at: "2026-08-14T09:00:00+00:00",
        last_checkpoint_at: "2026-08-14T09:40:00+00:00",
      }),
    );
    const result = await core.recover("DRAFT-S-00000001", "resume");
    if (result.status !== "resumed") throw new Error(result.status);
    expect(result.away).toEqual({ fromMs: at("2026-08-14T09:40:00Z"), toMs: at("2026-08-14T12:00:00Z"), minutes: 140 });
    expect(fields(store, S("DRAFT-S-00000001")).breaks).toEqual([
      "2026-08-14T09:40:00+00:00/2026-08-14T12:00:00+00:00",
    ]);
    if (!result.away) return;
    await core.countAwayBack({ draftId: "DRAFT-S-00000001", ...result.away });
    expect(fields(store, S("DRAFT-S-00000001"))).toMatchObject({ breaks: [], break_minutes: 0 });
  });
});

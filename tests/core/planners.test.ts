/** The pure planners, tested directly: what reconcile, Save and end decide, before anything is written. */
import { classifyRecord } from "../../src/core/records/frontmatter";
import type { HotState } from "../../src/core/records/hot-memory";
import { EMPTY_HOT } from "../../src/core/records/hot-memory";
import type { ConfirmedSession, Draft } from "../../src/core/records/records";
import { interpretDraft } from "../../src/core/records/records";
import { copiesOf, planReconcile, previewSave, saveGroup, savePlanOf } from "../../src/core/recovery";
import { endStart } from "../../src/core/honest-time";
import { parseTimestamp } from "../../src/core/time";
import { draftText } from "../support/builders";

const utc = (): number => 0;
const ms = (text: string): number => parseTimestamp(text, utc) as number;
const MIN = 60_000;
const GRACE = 15 * MIN;

function draft(id: string, fields: Parameters<typeof draftText>[0] = { session_id: id }, body = ""): Draft {
  const result = interpretDraft(`palee/sessions/${id}.md`, classifyRecord(draftText(fields, body)), utc);
  if (!("record" in result)) throw new Error(result.reason);
  return result.record;
}

const saved = (sessionId: string): ConfirmedSession => ({ sessionId }) as ConfirmedSession;

function hot(fields: Partial<HotState>): HotState {
  return { ...EMPTY_HOT, ...fields };
}

describe("draft interpretation", () => {
  it("reads a draft's ID from its file name and its session_id as the record ID", () => {
    const d = draft("DRAFT-S-aaaa 2", { session_id: "DRAFT-S-aaaa" });
    expect(d.draftId).toBe("DRAFT-S-aaaa 2");
    expect(d.recordId).toBe("DRAFT-S-aaaa");
    expect(d.startedMs).toBe(ms("2026-08-14T11:00:00+00:00"));
    expect(d.lastCheckpointAt).toBe("2026-08-14T11:30:00+00:00");
    expect(d.device).toBe("laptop");
  });

  it("keeps a draft with a damaged start usable, without a start", () => {
    const d = draft("DRAFT-S-bbbb", { session_id: "DRAFT-S-bbbb", started_at: "yesterday" });
    expect(d.startedAt).toBeNull();
    expect(d.startedMs).toBeNull();
  });

  it("falls back to the file name when session_id is blank", () => {
    expect(draft("DRAFT-S-cccc", { session_id: "  " }).recordId).toBe("DRAFT-S-cccc");
  });

  it("refuses a file that is not a draft, with a reason", () => {
    const text = draftText({ session_id: "DRAFT-S-dddd", status: "completed" });
    expect(interpretDraft("palee/sessions/DRAFT-S-dddd.md", classifyRecord(text), utc)).toEqual({
      reason: 'status is "completed", expected "draft"',
    });
  });
});

describe("planReconcile", () => {
  const now = ms("2026-08-14T12:00:00+00:00");
  const context = { device: "laptop", now, graceMs: GRACE, offsetAt: utc };
  const a = draft("DRAFT-S-aaaa");
  const b = draft("DRAFT-S-bbbb");
  const files = new Set(["DRAFT-S-aaaa", "DRAFT-S-bbbb"]);

  it("trashes drafts a confirmed note absorbed and closes an open pointer to one", () => {
    const absorbed = new Map([["DRAFT-S-aaaa", saved("S-1")]]);
    const plan = planReconcile(
      hot({ openDraft: "DRAFT-S-aaaa", startedAt: "2026-08-14T11:00:00+00:00" }),
      [a, b],
      files,
      absorbed,
      context,
    );
    expect(plan.trash).toEqual([a]);
    expect(plan.closeOpen).toEqual({ draftId: "DRAFT-S-aaaa", reason: "absorbed" });
  });

  it("closes this device's pointer to a draft that no longer exists", () => {
    const open = hot({ openDraft: "DRAFT-S-gone", startedAt: "2026-08-14T11:55:00+00:00", device: "laptop" });
    expect(planReconcile(open, [a], files, new Map(), context).closeOpen).toEqual({
      draftId: "DRAFT-S-gone",
      reason: "missing",
    });
  });

  it("leaves another device's recent pointer alone: its draft may not have synced yet", () => {
    const open = hot({ openDraft: "DRAFT-S-gone", startedAt: "2026-08-14T11:55:00+00:00", device: "phone" });
    expect(planReconcile(open, [a], files, new Map(), context)).toEqual({ trash: [], closeOpen: null });
  });

  it("closes another device's pointer once it is older than the grace period", () => {
    const open = hot({ openDraft: "DRAFT-S-gone", startedAt: "2026-08-14T11:00:00+00:00", device: "phone" });
    expect(planReconcile(open, [a], files, new Map(), context).closeOpen?.reason).toBe("missing");
  });
});

describe("save plans", () => {
  const now = ms("2026-08-14T15:00:00+00:00");

  it("ends at the last checkpoint when saving an interrupted draft, keeping the recorded text", () => {
    const plan = savePlanOf([draft("DRAFT-S-aaaa")], now);
    expect(plan).toEqual({
      startedMs: ms("2026-08-14T11:00:00+00:00"),
      endedMs: ms("2026-08-14T11:30:00+00:00"),
      durationMinutes: 30,
      breakMinutes: 0,
      breaks: [],
      startedAt: "2026-08-14T11:00:00+00:00",
      endedAt: "2026-08-14T11:30:00+00:00",
      warnings: [],
    });
  });

  it("ends now when no copy has a checkpoint, and starts at the earliest start among copies", () => {
    const early = draft("DRAFT-S-aaaa", {
      session_id: "DRAFT-S-aaaa",
      started_at: "2026-08-14T10:00:00+00:00",
      last_checkpoint_at: null,
    });
    const late = draft("DRAFT-S-aaaa 2", { session_id: "DRAFT-S-aaaa", last_checkpoint_at: null });
    const plan = savePlanOf([early, late], now);
    expect(plan.endedMs).toBe(now);
    expect(plan.endedAt).toBeNull();
    expect(plan.startedAt).toBe("2026-08-14T10:00:00+00:00");
    expect(plan.durationMinutes).toBe(300);
  });

  it("ignores a start after the end: the session then has 0 minutes", () => {
    const d = draft("DRAFT-S-aaaa", { session_id: "DRAFT-S-aaaa", started_at: "2026-08-14T12:00:00+00:00" });
    const plan = savePlanOf([d], now);
    expect(plan.startedMs).toBe(plan.endedMs);
    expect(plan.durationMinutes).toBe(0);
  });

  it("groups a draft with its sync-conflict copies of the same topic, oldest first", () => {
    const original = draft("DRAFT-S-aaaa");
    const copy = draft("DRAFT-S-aaaa 2", { session_id: "DRAFT-S-aaaa", started_at: "2026-08-14T10:59:00+00:00" });
    const other = draft("DRAFT-S-bbbb");
    const otherTopic = draft("DRAFT-S-cccc", { session_id: "DRAFT-S-aaaa", topic_id: "T-other" });
    expect(copiesOf(original, [original, copy, other, otherTopic])).toEqual([copy, original]);
  });

  it("leaves out a copy that is still running on another device, never the chosen draft", () => {
    const now2 = ms("2026-08-14T11:35:00+00:00");
    const original = draft("DRAFT-S-aaaa");
    const running = draft("DRAFT-S-aaaa 2", { session_id: "DRAFT-S-aaaa", device: "phone" });
    expect(saveGroup(original, [original, running], "laptop", now2, GRACE)).toEqual([original]);
    const chosen = saveGroup(running, [original, running], "laptop", now2, GRACE);
    expect(chosen).toHaveLength(2);
    expect(chosen).toEqual(expect.arrayContaining([original, running]));
  });

  it("previews Save with the same rule: its copies, its plan, and whether it runs elsewhere", () => {
    const now2 = ms("2026-08-14T11:35:00+00:00");
    const mine = draft("DRAFT-S-aaaa");
    const phone = draft("DRAFT-S-bbbb", { session_id: "DRAFT-S-bbbb", device: "phone" });
    const context = { device: "laptop", now: now2, graceMs: GRACE };
    expect(previewSave(mine, [mine, phone], context)).toEqual({
      copies: [mine],
      plan: savePlanOf([mine], now2),
      aliveElsewhere: false,
    });
    expect(previewSave(phone, [mine, phone], context).aliveElsewhere).toBe(true);
  });

  it("previews this device's running open session as left to its own end", () => {
    const now2 = ms("2026-08-14T11:35:00+00:00");
    const interrupted = draft("DRAFT-S-aaaa 2", {
      session_id: "DRAFT-S-aaaa",
      last_checkpoint_at: "2026-08-14T11:10:00+00:00",
    });
    const open = draft("DRAFT-S-aaaa");
    const preview = previewSave(interrupted, [interrupted, open], {
      device: "laptop",
      now: now2,
      graceMs: GRACE,
      openDraft: "DRAFT-S-aaaa",
    });
    expect(preview.copies).toEqual([interrupted]);
    expect(preview.plan.durationMinutes).toBe(10);
  });
});

describe("the start of an ended session (three tiers)", () => {
  const now = ms("2026-08-14T12:00:00+00:00");
  const topic = "T-rust-ownership";

  it("tier 1: the earliest valid start among the topic's drafts, as written", () => {
    const later = draft("DRAFT-S-bbbb", { session_id: "DRAFT-S-bbbb", started_at: "2026-08-14T11:30:00+00:00" });
    const start = endStart(topic, [later, draft("DRAFT-S-aaaa")], EMPTY_HOT, now, utc);
    expect(start).toEqual({
      ms: ms("2026-08-14T11:00:00+00:00"),
      text: "2026-08-14T11:00:00+00:00",
      tier: 1,
      warning: null,
    });
  });

  it("a draft starting in the future is no valid start: the next tier dates the session, with a warning", () => {
    const future = draft("DRAFT-S-aaaa", { session_id: "DRAFT-S-aaaa", started_at: "2026-08-14T13:00:00+00:00" });
    const start = endStart(topic, [future], EMPTY_HOT, now, utc);
    expect(start).toMatchObject({ ms: now, text: null, tier: 3 });
    expect(start.warning).toContain("ignored DRAFT-S-aaaa's start in the future");
  });

  it("tier 2: hot.md's start for the same topic when no draft has one", () => {
    const start = endStart(topic, [], hot({ activeTopic: topic, startedAt: "2026-08-14T10:00:00+00:00" }), now, utc);
    expect(start).toEqual({
      ms: ms("2026-08-14T10:00:00+00:00"),
      text: "2026-08-14T10:00:00+00:00",
      tier: 2,
      warning: null,
    });
  });

  it("tier 2: a hot.md start less than a minute ahead is clamped to now", () => {
    const start = endStart(topic, [], hot({ activeTopic: topic, startedAt: "2026-08-14T12:00:30+00:00" }), now, utc);
    expect(start).toEqual({ ms: now, text: null, tier: 2, warning: null });
  });

  it("tier 3: now, with a warning, when hot.md's start is further ahead or of another topic", () => {
    const ahead = endStart(topic, [], hot({ activeTopic: topic, startedAt: "2026-08-14T13:00:00+00:00" }), now, utc);
    expect(ahead).toMatchObject({ ms: now, tier: 3 });
    expect(ahead.warning).toContain("is in the future");
    const other = endStart(
      topic,
      [],
      hot({ activeTopic: "T-other", startedAt: "2026-08-14T10:00:00+00:00" }),
      now,
      utc,
    );
    expect(other).toMatchObject({ ms: now, tier: 3 });
    expect(other.warning).toContain("no start was recorded");
  });
});

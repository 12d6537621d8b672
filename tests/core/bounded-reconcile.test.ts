/**
 * Reconcile reads only the notes that may have absorbed a draft (issue 13): those named, or written to disk,
 * since shortly before the oldest draft's start. These are the cases where a note absorbing a draft is dated
 * days before it: one end absorbed two drafts days apart, and the younger draft outlived the older one
 * (sync delivered the older deletion and the note first, or a crash fell between the two trashes). The note
 * is found by when it was written, never by its name, so the younger draft is recognised as saved.
 */
import { draftText, confirmedText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import type { Harness } from "../support/fakes";
import { HOT, S, confirmedPaths, draftPaths } from "../support/inspect";

const TOPIC = "T-rust-ownership";
const OLD = "DRAFT-S-0000a0a0"; // started three days ago, then interrupted
const YOUNG = "DRAFT-S-0000b1b1"; // started this morning
const NOTE = "S-20260811T090000-abcd"; // the end that absorbed both: dated by the older draft
const NOW = "2026-08-14T12:00:00Z";

/** A vault with a year of history written long ago, the note that absorbed both drafts, and the young draft. */
function vault(h: Harness, hot: Record<string, string | null>): void {
  for (let day = 1; day <= 300; day++) {
    const start = Date.parse("2025-10-01T08:00:00Z") + day * 86_400_000;
    const id = `S-${new Date(start)
      .toISOString()
      .replace(/[-:]|\.\d+/g, "")
      .replace("Z", "")}-${day.toString(16).padStart(4, "0")}`;
    const iso = new Date(start).toISOString().replace(".000Z", "+00:00");
    const ended = new Date(start + 1_800_000).toISOString().replace(".000Z", "+00:00");
    h.store.files.set(S(id), confirmedText({ session_id: id, started_at: iso, ended_at: ended, duration_minutes: 30 }));
    h.store.mtimes.set(S(id), start + 1_800_000); // written when it ended, long ago
  }
  h.store.files.set(
    S(NOTE),
    confirmedText(
      {
        session_id: NOTE,
        started_at: "2026-08-11T09:00:00+00:00",
        ended_at: "2026-08-14T11:00:00+00:00",
        duration_minutes: 80,
        absorbed_drafts: [OLD, YOUNG],
      },
      // With a next action, the working memory needs no older note (contract §2 hot.md carries one forward
      // otherwise, reading the topic's notes back to it: tests/core/topic-memory.test.ts pins that cost).
      // The note carries the young draft's notes it absorbed (a draft whose notes it lacked would be kept).
      { summary: "saved on the desk", next: "review the desk notes", notes: "desk notes\n\nyoung notes" },
    ),
  );
  h.store.mtimes.set(S(NOTE), Date.parse("2026-08-14T11:00:00Z")); // written an hour ago
  h.store.files.set(
    S(YOUNG),
    draftText(
      {
        session_id: YOUNG,
        topic_id: TOPIC,
        started_at: "2026-08-14T10:00:00+00:00",
        last_checkpoint_at: "2026-08-14T10:55:00+00:00",
        device: "laptop",
      },
      "young notes\n",
    ),
  );
  h.store.mtimes.set(S(YOUNG), Date.parse("2026-08-14T10:55:00Z"));
  h.store.files.set(HOT, hotText({ active_topic: TOPIC, last_session: NOTE, ...hot }));
}

describe("bounded reconcile: a note dated days before the draft it absorbed", () => {
  it("start trashes the young draft as saved instead of offering it for recovery", async () => {
    const h = harness({ at: NOW, bounded: true });
    vault(h, {});
    const started = await h.core.start({ topic: TOPIC });
    expect(started.status).toBe("started");
    expect(h.store.trashed.map((t) => t.path)).toEqual([S(YOUNG)]);
  });

  it("end of a session another device saved reports it as saved, never a second note", async () => {
    // This laptop started YOUNG at 10:00; the desk, where it was left open, ended the topic with both drafts.
    const h = harness({ at: NOW, bounded: true });
    vault(h, { started_at: "2026-08-14T10:00:00+00:00", open_draft: YOUNG, device: "laptop" });
    const before = confirmedPaths(h.store);
    const result = await h.core.end({ summary: "again" });
    expect(result.alreadySaved).toBe(true);
    expect(result.session.sessionId).toBe(NOTE);
    expect(confirmedPaths(h.store)).toEqual(before);
    expect(draftPaths(h.store)).toEqual([]);
  });

  it("a checkpoint does not write the learner's notes into the saved draft", async () => {
    const h = harness({ at: NOW, bounded: true });
    vault(h, { started_at: "2026-08-14T10:00:00+00:00", open_draft: YOUNG, device: "laptop" });
    const result = await h.core.checkpoint({ notes: "typed after the crash" });
    // The notes go into a new session's draft; the saved draft goes to the trash untouched.
    expect(result.draft.draftId).not.toBe(YOUNG);
    expect(h.store.trashed.map((t) => t.path)).toContain(S(YOUNG));
    expect(h.store.trashed.find((t) => t.path === S(YOUNG))?.content).not.toContain("typed after the crash");
    const live = draftPaths(h.store).map((p) => h.store.files.get(p) ?? "");
    expect(live.some((text) => text.includes("typed after the crash"))).toBe(true);
  });

  it("end reads only the notes written since shortly before the young draft, not the year of history", async () => {
    const h = harness({ at: NOW, bounded: true });
    vault(h, { started_at: "2026-08-11T09:00:00+00:00", open_draft: YOUNG, device: "laptop" });
    await h.core.rebuild(); // index.md as a rebuild writes it: end then only inserts into it
    const reads: string[] = [];
    const read = h.store.read.bind(h.store);
    h.store.read = (path: string) => {
      reads.push(path);
      return read(path);
    };
    await h.core.end({});
    expect(reads.filter((p) => p.endsWith(`${NOTE}.md`)).length).toBeGreaterThan(0);
    expect(reads.filter((p) => /\/S-2025|\/S-2026(0[1-7])/.test(p))).toEqual([]);
  });
});

/**
 * Draft IDs are 8 random hex digits, so over years one comes round again. A note that ended long before a
 * draft began saved another draft of that ID: the new draft is never trashed or reported as saved because of it
 * (recovery/absorbed.ts savedIn), by a bounded scan or a full one, and the two notes are not "saved twice".
 */
describe("a draft ID that comes round again", () => {
  const OLD_NOTE = "S-20250301T090000-0abc";
  function reused(h: Harness): void {
    h.store.files.set(
      S(OLD_NOTE),
      confirmedText({
        session_id: OLD_NOTE,
        started_at: "2025-03-01T09:00:00+00:00",
        ended_at: "2025-03-01T10:00:00+00:00",
        duration_minutes: 60,
        absorbed_drafts: [YOUNG],
      }),
    );
    h.store.mtimes.set(S(OLD_NOTE), Date.parse("2025-03-01T10:00:00Z"));
    h.store.files.set(
      S(YOUNG),
      draftText(
        {
          session_id: YOUNG,
          topic_id: TOPIC,
          started_at: "2026-08-14T11:00:00+00:00",
          last_checkpoint_at: "2026-08-14T11:55:00+00:00",
          device: "laptop",
        },
        "today's notes\n",
      ),
    );
    h.store.files.set(
      HOT,
      hotText({ active_topic: TOPIC, started_at: "2026-08-14T11:00:00+00:00", open_draft: YOUNG, device: "laptop" }),
    );
  }

  it("a full scan (rebuild, recover) leaves today's draft alone, and end saves it with its notes", async () => {
    const h = harness({ at: NOW });
    reused(h);
    await h.core.rebuild();
    // recover reconciles over every note (a full scan), as the plugin does once its scan cache is warm
    expect(await h.core.recover(YOUNG, "ignore")).toEqual({ status: "ignored", draftId: YOUNG, warnings: [] });
    const offered = await h.core.triageOnOpen();
    expect(offered.resumed?.draftId).toBe(YOUNG);
    expect(h.store.trashed).toEqual([]);
    const ended = await h.core.end({ summary: "today" });
    expect(ended.alreadySaved).toBe(false);
    expect(ended.absorbedDrafts).toEqual([YOUNG]);
    expect(h.store.files.get(ended.session.path)).toContain("today's notes");
    expect(await h.core.savedTwice()).toEqual([]);
    expect((await h.core.rebuild()).warnings).toEqual([]);
  });

  it("the CLI's bounded end saves it too", async () => {
    const h = harness({ at: NOW, bounded: true });
    reused(h);
    const ended = await h.core.end({ summary: "today" });
    expect([ended.alreadySaved, ended.absorbedDrafts]).toEqual([false, [YOUNG]]);
  });

  it("two notes naming one draft within a week are still reported as saved twice", async () => {
    const h = harness({ at: NOW });
    reused(h);
    const copy = "S-20250301T090000-0def";
    h.store.files.set(S(copy), (h.store.files.get(S(OLD_NOTE)) ?? "").replace(new RegExp(OLD_NOTE, "g"), copy));
    expect(await h.core.savedTwice()).toEqual([
      expect.stringContaining(`${S(OLD_NOTE)} and ${S(copy)} both record the session ${YOUNG}`),
    ]);
  });
});

describe("start reads the recent notes only", () => {
  it("reads no note written more than a week (and a day) ago", async () => {
    const h = harness({ at: NOW, bounded: true });
    vault(h, {});
    await h.core.rebuild(); // index.md as a rebuild writes it
    const reads: string[] = [];
    const read = h.store.read.bind(h.store);
    h.store.read = (path: string) => {
      reads.push(path);
      return read(path);
    };
    const started = await h.core.start({ topic: "T-b", ignorePending: true });
    expect(started.status).toBe("started");
    expect(reads.filter((p) => /\/S-2025|\/S-2026(0[1-7])/.test(p))).toEqual([]);
    expect(started.status === "started" && started.lastSession).toBe(NOTE);
  });
});

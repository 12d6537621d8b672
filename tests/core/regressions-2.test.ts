/**
 * Bugs found in the second review (of the first round of fixes), each pinned by the test that would have caught it.
 */
import { ConflictError } from "../../src/core/errors";
import { layoutFor } from "../../src/core/layout";
import { PaleeSessions } from "../../src/core/sessions";
import { confirmedText, draftText, hotText } from "../support/builders";
import { FakeClock, SeededRandom, harness } from "../support/fakes";
import { HOT, S, confirmedPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";
import { WatchedStore } from "../support/watched-store";

const TOPIC = "T-rust-ownership";

// An interrupted session from two days ago that the learner chose to Ignore (SPEC §4 recover: ignore).
const OLD_DRAFT = "DRAFT-S-0000a1d0";
const oldDraft = () =>
  draftText(
    { session_id: OLD_DRAFT, started_at: "2026-08-12T09:00:00+00:00", last_checkpoint_at: "2026-08-12T09:40:00+00:00", device: "laptop" },
    "notes from two days ago\n",
  );

describe("end: a retry of an end that already saved the session", () => {
  it("reports the session as already saved even when the topic has an ignored older draft, and writes no second note", async () => {
    const inner = new MemoryStore({ [S(OLD_DRAFT)]: oldDraft() });
    const store = new WatchedStore(inner, HOT);
    const clock = FakeClock.at("2026-08-14T12:00:00Z");
    const core = new PaleeSessions({ store, clock, random: new SeededRandom(7), device: "laptop" }, layoutFor("palee"));
    const started = await core.start({ topic: TOPIC, ignoreDrafts: new Set([OLD_DRAFT]) });
    expect(started.status).toBe("started");
    clock.advance(45);

    // End saves the session, then hot.md conflicts twice: "… is saved, but palee/hot.md changed …" (exit 4).
    store.conflicts = 2;
    await expect(core.end({ summary: "Moves and borrows" })).rejects.toBeInstanceOf(ConflictError);
    expect(confirmedPaths(inner)).toHaveLength(1);

    // The learner retries. The open session is already saved: the retry must say so, not save again.
    clock.advance(1);
    const retry = await core.end({ summary: "Moves and borrows" });
    expect(retry.alreadySaved).toBe(true);
    expect(confirmedPaths(inner)).toHaveLength(1);
    // The ignored interrupted session is still the learner's to recover, untouched.
    expect(inner.files.get(S(OLD_DRAFT))).toBe(oldDraft());
  });
});

describe("checkpoint never revives an interrupted draft (SPEC §4 checkpoint, §9 Save)", () => {
  it("a checkpoint with no open session creates a new draft from now and leaves a two-day-old interrupted draft untouched", async () => {
    const { core, store, clock } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(HOT, hotText({ active_topic: TOPIC }));
    store.files.set(S(OLD_DRAFT), oldDraft());

    // `palee session draft --topic T-rust-ownership --note …` (or the plugin's checkpoint) with nothing open.
    const result = await core.checkpoint({ topic: TOPIC, notes: "today's first note" });
    expect(result.created).toBe(true);
    // Its last_checkpoint_at is what Save ends at: bumping it turns a 40-minute session into a 2-day one.
    expect(store.files.get(S(OLD_DRAFT))).toBe(oldDraft());

    clock.advance(30);
    const ended = await core.end({ summary: "today" });
    expect(ended.session.startedAt).toBe("2026-08-14T12:00:00+00:00");
    expect(ended.session.durationMinutes).toBe(30);
  });
});

describe("checkpoint after an end that saved the session but did not finish (SPEC §4 end, §6.2)", () => {
  // end wrote S-… (absorbing DRAFT-S-0000aaaa) and trashed the draft, then crashed before rewriting hot.md
  // (or its hot.md write conflicted): hot.md still names the finished session as open.
  const SAVED = "S-20260814T100000-aaaa";
  const seed = (store: MemoryStore, draftStillThere: boolean) => {
    store.files.set(
      S(SAVED),
      confirmedText(
        {
          session_id: SAVED,
          started_at: "2026-08-14T10:00:00+00:00",
          ended_at: "2026-08-14T10:45:00+00:00",
          duration_minutes: 45,
          absorbed_drafts: ["DRAFT-S-0000aaaa"],
        },
        { summary: "Moves", notes: "first notes" },
      ),
    );
    store.files.set(HOT, hotText({ active_topic: TOPIC, started_at: "2026-08-14T10:00:00+00:00", open_draft: "DRAFT-S-0000aaaa", device: "laptop" }));
    if (draftStillThere) {
      store.files.set(S("DRAFT-S-0000aaaa"), draftText({ session_id: "DRAFT-S-0000aaaa", started_at: "2026-08-14T10:00:00+00:00", last_checkpoint_at: "2026-08-14T10:40:00+00:00" }, "first notes\n"));
    }
  };

  it("a new session after the saved one is not dated from the saved session's start (no time counted twice)", async () => {
    const { core, store, clock } = harness({ at: "2026-08-14T10:50:00Z" });
    seed(store, false);
    await core.checkpoint({ notes: "a new sitting" });
    clock.advance(30);
    const ended = await core.end({ summary: "Borrows" });
    // 10:00–10:45 is already recorded in S-20260814T100000-aaaa; the new session cannot start before 10:45.
    expect(Date.parse(ended.session.startedAt)).toBeGreaterThanOrEqual(Date.parse("2026-08-14T10:45:00+00:00"));
  });

  it("notes checkpointed after the crash end up in a confirmed note or a live draft, not only in the trash", async () => {
    const { core, store, clock } = harness({ at: "2026-08-14T10:50:00Z" });
    seed(store, true);
    await core.checkpoint({ notes: "remember: lifetimes next" });
    clock.advance(10);
    await core.end({ summary: "Borrows" }).catch(() => undefined); // the learner ends (or retries the end)
    const live = [...store.files.entries()].filter(([p]) => p.startsWith("palee/sessions/")).map(([, text]) => text);
    expect(live.some((text) => text.includes("remember: lifetimes next"))).toBe(true);
  });
});

describe("devices: hot.md synced before the other device's draft", () => {
  it("end on the desktop does not record the laptop's running session whose draft has not arrived yet", async () => {
    // The laptop started 40 min ago: start writes hot.md first, then the draft; the sync tool has delivered
    // hot.md to the desktop but not the draft yet. The desktop runs `palee session end`.
    const store = new MemoryStore({
      [HOT]: hotText({ active_topic: TOPIC, started_at: "2026-08-14T11:20:00+00:00", open_draft: "DRAFT-S-0000bbbb", device: "laptop" }),
    });
    const desktop = harness({ store, device: "desktop", at: "2026-08-14T12:00:00Z" });
    await desktop.core.end({ summary: "from the desktop" }).catch(() => undefined);
    // A 40-minute desktop record of 11:20–12:00 is the laptop's sitting; the laptop will record it again.
    expect(confirmedPaths(store)).toEqual([]);
  });
});

describe("checkpoint leaves a hot.md of another schema alone (SPEC §2)", () => {
  it("a checkpoint does not rewrite a palee_schema: 2 hot.md", async () => {
    const { core, store } = harness();
    const foreign = hotText({ palee_schema: 2, active_topic: TOPIC, new_v2_field: "kept" }, "Written by a newer PALEE.\n");
    store.files.set(HOT, foreign);
    await core.checkpoint({ topic: TOPIC, notes: "a note" });
    // "a palee_schema: 2 record is reported as unsupported and never silently consumed or rewritten"
    expect(store.files.get(HOT)).toBe(foreign);
  });
});

describe("summaries keep Obsidian tags", () => {
  it("a summary line starting with a #tag (not a heading) is written unescaped", async () => {
    const { core, store, clock } = harness();
    await core.start({ topic: TOPIC });
    clock.advance(30);
    const ended = await core.end({ summary: "#rust borrow checker basics", nextAction: "#todo read chapter 5" });
    const text = store.files.get(ended.session.path) ?? "";
    // "#rust" is a tag, not a heading (a heading needs "# "); "\#rust" shows as text and drops the tag.
    expect(text).toContain("\n#rust borrow checker basics\n");
    expect(text).toContain("\n#todo read chapter 5\n");
    expect(fields(store, ended.session.path).status).toBe("completed");
  });
});

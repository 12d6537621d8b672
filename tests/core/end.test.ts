/**
 * end: what one end records, its start-time tiers, and a retry of an end that already saved the session
 * (contract §4 end, §6.2). Retries that only concern the "not recorded" warning are in end-retry.test.ts.
 */
import { ConflictError, PaleeError } from "../../src/core/errors";
import { draftText, hotText } from "../support/builders";
import { SeededRandom, harness } from "../support/fakes";
import { HOT, INDEX, S, confirmedPaths, draftPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";
import { WatchedStore } from "../support/watched-store";

const TOPIC = "T-rust-ownership";

// An interrupted session from two days ago that the learner chose to Ignore (contract §4 recover: ignore).
const OLD_DRAFT = "DRAFT-S-0000a1d0";
const oldDraft = () =>
  draftText(
    {
      session_id: OLD_DRAFT,
      started_at: "2026-08-12T09:00:00+00:00",
      last_checkpoint_at: "2026-08-12T09:40:00+00:00",
      device: "laptop",
    },
    "notes from two days ago\n",
  );

const YESTERDAY = "DRAFT-S-0000000c";

/** Yesterday's interrupted draft of the topic, left alone by the learner (Ignore). */
function withYesterday(): MemoryStore {
  return new MemoryStore({
    [S(YESTERDAY)]: draftText(
      {
        session_id: YESTERDAY,
        started_at: "2026-08-13T09:00:00+00:00",
        last_checkpoint_at: "2026-08-13T09:20:00+00:00",
      },
      "Yesterday's notes\n",
    ),
  });
}

async function startedToday(store: MemoryStore) {
  const laptop = harness({ store, device: "laptop" });
  const started = await laptop.core.start({ topic: TOPIC, ignoreDrafts: new Set([YESTERDAY]) });
  if (started.status !== "started") throw new Error(started.status);
  return { laptop, draftId: started.draftId };
}

describe("end never duplicates a session", () => {
  it("retrying end after it reported a conflict (exit 4) does not write a second confirmed note", async () => {
    const inner = new MemoryStore();
    const store = new WatchedStore(inner, HOT);
    const { clock, core } = harness({ store, random: new SeededRandom(7) });
    const started = await core.start({ topic: "T-rust-ownership" });
    expect(started.status).toBe("started");
    clock.advance(45);

    // hot.md changes twice underneath end's last step: end reports a conflict ("try again")...
    store.conflicts = 2;
    await expect(core.end({ summary: "Moves and borrows" })).rejects.toBeInstanceOf(ConflictError);
    expect(confirmedPaths(inner)).toHaveLength(1);

    // ...so the learner tries again, as the message says.
    clock.advance(1);
    await core.end({ summary: "Moves and borrows" }).catch(() => undefined);
    expect(confirmedPaths(inner)).toHaveLength(1);
  });

  it("two concurrent ends of one open session (a double click) write one confirmed note", async () => {
    const { core, store, clock } = harness();
    await core.start({ topic: "T-rust-ownership" });
    clock.advance(30);
    await Promise.allSettled([core.end({ summary: "once" }), core.end({ summary: "once" })]);
    expect(confirmedPaths(store)).toHaveLength(1);
  });
});

describe("end: a retry of an end that already saved the session", () => {
  it(
    "reports the session as already saved even when the topic has an ignored older draft, and " +
      "writes no second note",
    async () => {
      const inner = new MemoryStore({ [S(OLD_DRAFT)]: oldDraft() });
      const store = new WatchedStore(inner, HOT);
      const { clock, core } = harness({ store, random: new SeededRandom(7) });
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
    },
  );
});

describe(
  "end: a retry after the index.md write failed is recognised as already saved " + "(contract §6.2, README end)",
  () => {
    it(
      "re-running the same `end --topic … --summary …` after exit 4 on index.md writes no second " + "session",
      async () => {
        const inner = new MemoryStore();
        const store = new WatchedStore(inner, INDEX);
        const { clock, core } = harness({ store, random: new SeededRandom(3) });
        await core.start({ topic: TOPIC });
        clock.advance(45);

        // end saves S-…, trashes the draft, clears the pointer in hot.md, then index.md conflicts twice:
        // "S-… is saved, but palee/index.md changed …" (exit 4). A crash between the hot.md and index.md
        // writes leaves the same state.
        store.conflicts = 2;
        await expect(core.end({ topic: TOPIC, summary: "Moves and borrows" })).rejects.toBeInstanceOf(ConflictError);
        expect(confirmedPaths(inner)).toHaveLength(1);

        // The learner (or a script) re-runs the very same command.
        clock.advance(1);
        const retry = await core.end({ topic: TOPIC, summary: "Moves and borrows" }).catch((e: Error) => e);
        // Pins one note and a retry that resolves as already saved. As hot.md no longer names the session, the
        // retry used to record a second, 0-minute session with the same summary and point hot.md at it.
        expect(confirmedPaths(inner)).toHaveLength(1);
        expect(retry).not.toBeInstanceOf(Error);
        if (retry instanceof Error) throw retry;
        expect(retry.alreadySaved).toBe(true);
      },
    );
  },
);

describe("end's start time, tier 2 (hot.md's started_at)", () => {
  it("uses hot.md's started_at when the open session's draft is missing (90 minutes, not 0)", async () => {
    // e.g. a crash in start between writing hot.md and creating the draft, or a draft renamed by hand.
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      HOT,
      hotText({
        active_topic: "T-rust-ownership",
        started_at: "2026-08-14T10:30:00+00:00",
        open_draft: "DRAFT-S-deadbeef",
        device: "laptop",
      }),
    );
    const result = await core.end({ summary: "done" });
    expect(result.session.startedAt).toBe("2026-08-14T10:30:00+00:00");
    expect(result.session.durationMinutes).toBe(90);
  });
});

describe(
  "end with the open session's draft unreadable: the sitting is recorded exactly once " +
    "(contract §6.2, §4 end step 3)",
  () => {
    it("after end, fixing the draft and resolving what start offers, one session covers the sitting", async () => {
      const DRAFT = "DRAFT-S-0000cccc";
      const good = draftText(
        {
          session_id: DRAFT,
          started_at: "2026-08-14T11:00:00+00:00",
          last_checkpoint_at: "2026-08-14T11:40:00+00:00",
          device: "laptop",
        },
        "my notes on borrowing\n",
      );
      // A sync tool or a slip in source mode leaves the frontmatter unparseable for a while.
      const broken = good.replace("topic_id: T-rust-ownership", "topic_id: [T-rust-ownership");
      const store = new MemoryStore({
        [HOT]: hotText({
          active_topic: TOPIC,
          started_at: "2026-08-14T11:00:00+00:00",
          open_draft: DRAFT,
          device: "laptop",
        }),
        [S(DRAFT)]: broken,
      });
      const { core, clock } = harness({ store, at: "2026-08-14T11:45:00Z" });

      await core.end({ summary: "Borrowing" }).catch(() => undefined);

      // The learner repairs the draft, then does what the tool offers next.
      store.files.set(S(DRAFT), good);
      clock.advance(60);
      const started = await core.start({ topic: "T-other" });
      if (started.status === "drafts_pending") for (const d of started.drafts) await core.recover(d.draftId, "save");
      if (started.status === "already_open") await core.end({});

      // Pins one record of the sitting. end used to record 11:00–11:45 with absorbed_drafts [] and leave the
      // draft; once readable it was a pending draft, and Save recorded 11:00–11:40 a second time.
      const sittings = confirmedPaths(store).filter((p) => fields(store, p).started_at === "2026-08-14T11:00:00+00:00");
      expect(sittings).toHaveLength(1);
    });
  },
);

describe("end of the caller's open session when hot.md cannot tell (EndOptions.open)", () => {
  it(
    "refuses, naming the draft, when hot.md is missing and the caller's draft cannot be read — " +
      "and never records another draft of the topic",
    async () => {
      const store = withYesterday();
      const { laptop, draftId } = await startedToday(store);
      laptop.clock.advance(30);
      store.files.delete(HOT);
      store.files.set(S(draftId), (store.files.get(S(draftId)) ?? "").replace("status: draft", "status: [draft"));
      const outcome = await laptop.core
        .end({ open: { draftId, topicId: TOPIC }, summary: "today" })
        .catch((e: unknown) => e);
      // Pins a refusal; end used to resolve with a confirmed note absorbing yesterday's draft (1650 min).
      expect(confirmedPaths(store)).toEqual([]);
      expect(outcome).toBeInstanceOf(PaleeError);
      expect(String((outcome as Error).message)).toMatch(/cannot be read/);
      expect(draftPaths(store)).toEqual([S(YESTERDAY), S(draftId)].sort());
    },
  );

  it(
    "reports the caller's session as already saved when hot.md is missing and a confirmed note " +
      "absorbed its draft — and never records another draft of the topic",
    async () => {
      const store = withYesterday();
      const { laptop, draftId } = await startedToday(store);
      laptop.clock.advance(30);
      // Another writer (the CLI with this device's name, or sync) ended it; hot.md is gone.
      const cli = harness({ store, device: "laptop", at: "2026-08-14T12:20:00Z" });
      await cli.core.end({ topic: TOPIC, open: { draftId, topicId: TOPIC } });
      const [saved] = confirmedPaths(store);
      store.files.delete(HOT);
      const result = await laptop.core.end({ open: { draftId, topicId: TOPIC } }).catch((e: unknown) => e);
      // Pins one confirmed note; end used to write a second one absorbing yesterday's draft (from 09:00 yesterday).
      expect(confirmedPaths(store)).toEqual([saved]);
      expect(draftPaths(store)).toEqual([S(YESTERDAY)]);
      expect(result).toMatchObject({ alreadySaved: true, session: { path: saved } });
    },
  );
});

describe("end of a session that was saved meanwhile (EndOptions.open, hot.md already closed)", () => {
  it("says that the summary and next action given to this end were not recorded", async () => {
    const store = new MemoryStore();
    const { laptop, draftId } = await startedToday(store);
    const cli = harness({ store, device: "laptop", at: "2026-08-14T12:20:00Z" });
    await cli.core.end({ topic: TOPIC }); // ended elsewhere (no summary)
    laptop.clock.advance(25);
    const result = await laptop.core.end({
      open: { draftId, topicId: TOPIC },
      summary: "What I learned",
      nextAction: "Lifetimes",
    });
    expect(result.alreadySaved).toBe(true);
    expect(fields(store, confirmedPaths(store)[0]).absorbed_drafts).toEqual([draftId]);
    // Pins the "not recorded" warning. The warnings used to be []: the summary was dropped without a word (the
    // other "already saved" path warned "this end's summary and next action were not recorded").
    expect(result.warnings.join("\n")).toMatch(/summary and next action were not recorded/);
  });
});

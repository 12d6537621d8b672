/**
 * checkpoint: one draft per open session, never reviving an interrupted draft, the state an unfinished end
 * leaves, a hot.md of another schema, and what a checkpoint reads (contract §4 checkpoint, §5, §9).
 */
import { confirmedText, draftText, hotText } from "../support/builders";
import { SeededRandom, harness } from "../support/fakes";
import { HOT, S, draftPaths } from "../support/inspect";
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

describe("one draft per open session (contract §9)", () => {
  it("checkpoints after hot.md became corrupt create at most one new draft, not a new file each time", async () => {
    const { core, store, clock } = harness();
    const started = await core.start({ topic: "T-rust-ownership" });
    if (started.status !== "started") throw new Error(started.status);
    store.files.set(HOT, "---\nactive_topic: [unclosed\n---\nbody\n"); // e.g. a bad hand edit or a sync merge
    for (let i = 0; i < 3; i++) {
      clock.advance(5);
      await core.checkpoint({ topic: "T-rust-ownership" });
    }
    // start's draft plus at most one more: the first new draft must be the one later checkpoints update.
    expect(draftPaths(store).length).toBeLessThanOrEqual(2);
  });

  it(
    "checkpoints after the open draft's frontmatter was broken by an edit create no new draft " +
      "and say which file to fix",
    async () => {
      const { core, store, clock } = harness();
      const started = await core.start({ topic: "T-rust-ownership" });
      if (started.status !== "started") throw new Error(started.status);
      store.files.set(S(started.draftId), "---\ntopic_id: [oops\n---\nmy notes\n");
      for (let i = 0; i < 3; i++) {
        clock.advance(5);
        await expect(core.checkpoint({ topic: "T-rust-ownership", notes: `checkpoint ${i}` })).rejects.toThrow(
          `${S(started.draftId)} cannot be read`,
        );
      }
      // Never a new file per automatic checkpoint, and the learner's text stays as it is.
      expect(draftPaths(store)).toEqual([S(started.draftId)]);
      expect(store.files.get(S(started.draftId))).toBe("---\ntopic_id: [oops\n---\nmy notes\n");
    },
  );
});

describe("one draft per open session when hot.md does not exist yet (contract §9)", () => {
  it(
    "a checkpoint in a vault without hot.md opens the session, so the next checkpoint updates " + "the same draft",
    async () => {
      // `palee session draft --topic T-a --note …` twice in a fresh vault.
      const { core, store, clock } = harness();
      const first = await core.checkpoint({ topic: "T-rust-ownership", notes: "one" });
      clock.advance(5);
      const second = await core.checkpoint({ topic: "T-rust-ownership", notes: "two" });
      expect(second.created).toBe(false);
      expect(draftPaths(store)).toEqual([first.draft.path]);
    },
  );
});

describe("a checkpoint that opens a session", () => {
  it("a checkpoint with no open session says that it opened one", async () => {
    const { core } = harness();
    await expect(core.checkpoint({ topic: TOPIC })).resolves.toMatchObject({ created: true, opened: true });
    await expect(core.checkpoint({ topic: TOPIC })).resolves.toMatchObject({ created: false, opened: false });
  });
});

describe("checkpoint never revives an interrupted draft (contract §4 checkpoint, §9 Save)", () => {
  it(
    "a checkpoint with no open session creates a new draft from now and leaves a two-day-old " +
      "interrupted draft untouched",
    async () => {
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
    },
  );
});

describe("checkpoint after an end that saved the session but did not finish (contract §4 end, §6.2)", () => {
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
    store.files.set(
      HOT,
      hotText({
        active_topic: TOPIC,
        started_at: "2026-08-14T10:00:00+00:00",
        open_draft: "DRAFT-S-0000aaaa",
        device: "laptop",
      }),
    );
    if (draftStillThere) {
      store.files.set(
        S("DRAFT-S-0000aaaa"),
        draftText(
          {
            session_id: "DRAFT-S-0000aaaa",
            started_at: "2026-08-14T10:00:00+00:00",
            last_checkpoint_at: "2026-08-14T10:40:00+00:00",
          },
          "first notes\n",
        ),
      );
    }
  };

  it(
    "a new session after the saved one is not dated from the saved session's start (no time " + "counted twice)",
    async () => {
      const { core, store, clock } = harness({ at: "2026-08-14T10:50:00Z" });
      seed(store, false);
      await core.checkpoint({ notes: "a new sitting" });
      clock.advance(30);
      const ended = await core.end({ summary: "Borrows" });
      // 10:00–10:45 is already recorded in S-20260814T100000-aaaa; the new session cannot start before 10:45.
      expect(Date.parse(ended.session.startedAt)).toBeGreaterThanOrEqual(Date.parse("2026-08-14T10:45:00+00:00"));
    },
  );

  it(
    "notes checkpointed after the crash end up in a confirmed note or a live draft, not only " + "in the trash",
    async () => {
      const { core, store, clock } = harness({ at: "2026-08-14T10:50:00Z" });
      seed(store, true);
      await core.checkpoint({ notes: "remember: lifetimes next" });
      clock.advance(10);
      await core.end({ summary: "Borrows" }).catch(() => undefined); // the learner ends (or retries the end)
      const live = [...store.files.entries()].filter(([p]) => p.startsWith("palee/sessions/")).map(([, text]) => text);
      expect(live.some((text) => text.includes("remember: lifetimes next"))).toBe(true);
    },
  );
});

describe("checkpoint leaves a hot.md of another schema alone (contract §2)", () => {
  it("a checkpoint does not rewrite a palee_schema: 2 hot.md", async () => {
    const { core, store } = harness();
    const foreign = hotText(
      { palee_schema: 2, active_topic: TOPIC, new_v2_field: "kept" },
      "Written by a newer PALEE.\n",
    );
    store.files.set(HOT, foreign);
    await core.checkpoint({ topic: TOPIC, notes: "a note" });
    // "a palee_schema: 2 record is reported as unsupported and never silently consumed or rewritten"
    expect(store.files.get(HOT)).toBe(foreign);
  });
});

describe("checkpoints do not re-read the whole history (contract §5: a checkpoint every 5 minutes)", () => {
  it("a checkpoint of the open session reads no confirmed note that started before that session", async () => {
    const inner = new MemoryStore();
    for (let i = 0; i < 200; i++) {
      const day = String(1 + (i % 28)).padStart(2, "0");
      const hour = String(i % 24).padStart(2, "0");
      const id = `S-202607${day}T${hour}0000-${i.toString(16).padStart(4, "0")}`;
      inner.files.set(
        S(id),
        confirmedText({
          session_id: id,
          started_at: `2026-07-${day}T${hour}:00:00+00:00`,
          ended_at: `2026-07-${day}T${hour}:30:00+00:00`,
          duration_minutes: 30,
        }),
      );
      inner.mtimes.set(S(id), Date.parse(`2026-07-${day}T${hour}:30:00Z`)); // written when that session ended
    }
    const store = new WatchedStore(inner);
    const { clock, core } = harness({ store, random: new SeededRandom(5) });
    await core.start({ topic: TOPIC });
    clock.advance(5);

    store.reads.length = 0;
    await core.checkpoint({});
    // Pins no read of the confirmed notes; every checkpoint used to scan and parse all 200 of them.
    const history = store.reads.filter((p) => /\/sessions\/S-202607/.test(p));
    expect(history).toEqual([]);
  });
});

describe("a checkpoint for another topic while a session is open on this device (contract §4 checkpoint)", () => {
  it("is refused other_session_open, naming the open session, and writes nothing", async () => {
    const { core, store, clock } = harness();
    const started = await core.start({ topic: TOPIC });
    if (started.status !== "started") throw new Error(started.status);
    clock.advance(20);
    const before = new Map(store.files);
    // The same minutes must not count twice: no parallel session on T-go.
    await expect(core.checkpoint({ topic: "T-go", notes: "channels" })).rejects.toMatchObject({
      kind: "other_session_open",
      exitCode: 2,
      message: expect.stringContaining(
        `a session on ${TOPIC} is open on this device (started 2026-08-14T12:00`,
      ) as string,
    });
    expect(store.files).toEqual(before);
    expect(draftPaths(store)).toEqual([S(started.draftId)]);
  });

  it("a checkpoint of the open session's own topic still works, and one after it ended opens the other", async () => {
    const { core, clock } = harness();
    await core.start({ topic: TOPIC });
    clock.advance(20);
    await expect(core.checkpoint({ topic: TOPIC })).resolves.toMatchObject({ created: false });
    await core.end({});
    await expect(core.checkpoint({ topic: "T-go" })).resolves.toMatchObject({ created: true, opened: true });
  });
});

describe("appended notes carry the checkpoint's local time (contract §4 checkpoint)", () => {
  it("each note is headed '- HH:MM' in the local time, and the session note keeps them in order", async () => {
    // 12:00 UTC at +02:00 is 14:00 local.
    const { core, store, clock } = harness({ offset: 120 });
    const started = await core.start({ topic: TOPIC });
    if (started.status !== "started") throw new Error(started.status);
    clock.advance(20);
    await core.checkpoint({ notes: "lifetimes: elision rules" });
    clock.advance(15);
    await core.checkpoint({ notes: "borrowing\n\nwith two paragraphs" });
    const body = store.files.get(S(started.draftId)) ?? "";
    expect(body).toContain("- 14:20 lifetimes: elision rules\n");
    expect(body).toContain("- 14:35 borrowing\n\n  with two paragraphs\n");
    const ended = await core.end({});
    const note = store.files.get(`palee/sessions/${ended.session.sessionId}.md`) ?? "";
    expect(note.indexOf("- 14:20 lifetimes")).toBeGreaterThan(-1);
    expect(note.indexOf("- 14:35 borrowing")).toBeGreaterThan(note.indexOf("- 14:20 lifetimes"));
  });

  it("a checkpoint that creates the draft times its notes too; a blank note adds nothing", async () => {
    const { core, store, clock } = harness();
    const made = await core.checkpoint({ topic: TOPIC, notes: "first thoughts" });
    expect(store.files.get(made.draft.path)).toContain("- 12:00 first thoughts\n");
    clock.advance(5);
    const before = store.files.get(made.draft.path) ?? "";
    await core.checkpoint({ notes: "   " });
    expect(store.files.get(made.draft.path)?.split("\n---\n")[1]).toBe(before.split("\n---\n")[1]);
  });
});

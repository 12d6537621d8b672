/**
 * Bugs found in review (core level), each pinned by the test that would have caught it.
 */
import { promises as nodeFs } from "node:fs";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConflictError } from "../../src/core/errors";
import { classifyRecord } from "../../src/core/frontmatter";
import { layoutFor } from "../../src/core/layout";
import { PaleeSessions } from "../../src/core/sessions";
import { NodeStore } from "../../src/node/node-store";
import { draftText, hotText } from "../support/builders";
import { FakeClock, SeededRandom, harness } from "../support/fakes";
import { HOT, S, confirmedPaths, draftPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";
import { WatchedStore } from "../support/watched-store";



describe("end never duplicates a session", () => {
  it("retrying end after it reported a conflict (exit 4) does not write a second confirmed note", async () => {
    const inner = new MemoryStore();
    const store = new WatchedStore(inner, HOT);
    const clock = FakeClock.at("2026-08-14T12:00:00Z");
    const core = new PaleeSessions({ store, clock, random: new SeededRandom(7), device: "laptop" }, layoutFor("palee"));
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

describe("end's start time, tier 2 (hot.md's started_at)", () => {
  it("uses hot.md's started_at when the open session's draft is missing (90 minutes, not 0)", async () => {
    // e.g. a crash in start between writing hot.md and creating the draft, or a draft renamed by hand.
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      HOT,
      hotText({ active_topic: "T-rust-ownership", started_at: "2026-08-14T10:30:00+00:00", open_draft: "DRAFT-S-deadbeef", device: "laptop" }),
    );
    const result = await core.end({ summary: "done" });
    expect(result.session.startedAt).toBe("2026-08-14T10:30:00+00:00");
    expect(result.session.durationMinutes).toBe(90);
  });
});

describe("devices", () => {
  it("end on a second device does not record a session for the topic whose draft is alive on the first", async () => {
    // laptop started T-rust-ownership 40 min ago and checkpointed 2 min ago; desktop (same synced vault) runs end.
    const store = new MemoryStore({
      [HOT]: hotText({ active_topic: "T-rust-ownership", started_at: "2026-08-14T11:20:00+00:00", open_draft: "DRAFT-S-0000aaaa", device: "laptop" }),
      [S("DRAFT-S-0000aaaa")]: draftText(
        { session_id: "DRAFT-S-0000aaaa", started_at: "2026-08-14T11:20:00+00:00", last_checkpoint_at: "2026-08-14T11:58:00+00:00", device: "laptop" },
        "laptop's notes\n",
      ),
    });
    const desktop = harness({ store, device: "desktop" });
    await desktop.core.end({ summary: "from the desktop" }).catch(() => undefined);
    // When the laptop ends its session, it will write the real record of 11:20–12:xx. A desktop record that
    // also starts at 11:20 (without the laptop's notes) is the same sitting counted twice.
    expect(confirmedPaths(store)).toEqual([]);
  });
});

describe("one draft per open session (SPEC §9)", () => {
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

  it("checkpoints after the open draft's frontmatter was broken by an edit create no new draft and say which file to fix", async () => {
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
  });

});

describe("one draft per open session when hot.md does not exist yet (SPEC §9)", () => {
  it("a checkpoint in a vault without hot.md opens the session, so the next checkpoint updates the same draft", async () => {
    // `palee session draft --topic T-a --note …` twice in a fresh vault.
    const { core, store, clock } = harness();
    const first = await core.checkpoint({ topic: "T-rust-ownership", notes: "one" });
    clock.advance(5);
    const second = await core.checkpoint({ topic: "T-rust-ownership", notes: "two" });
    expect(second.created).toBe(false);
    expect(draftPaths(store)).toEqual([first.draft.path]);
  });
});

describe("timestamps are written with seconds and an offset (SPEC §2)", () => {
  const WRITTEN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

  it("end writes started_at with seconds and the local offset even when the draft's was edited to Obsidian's 2026-08-14T11:00 form", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z", offset: 120 });
    store.files.set(
      S("DRAFT-S-0000bbbb"),
      draftText({ session_id: "DRAFT-S-0000bbbb", started_at: "2026-08-14T11:00", last_checkpoint_at: "2026-08-14T13:50:00+02:00", device: "laptop" }),
    );
    const result = await core.end({ topic: "T-rust-ownership" });
    expect(result.session.startedAt).toMatch(WRITTEN);
    expect(fields(store, result.session.path).started_at).toMatch(WRITTEN);
  });

  it("save writes ended_at with seconds and the local offset even when last_checkpoint_at has neither", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z", offset: 120 });
    store.files.set(
      S("DRAFT-S-0000cccc"),
      draftText({ session_id: "DRAFT-S-0000cccc", started_at: "2026-08-14T12:00:00+02:00", last_checkpoint_at: "2026-08-14T12:40", device: "laptop" }),
    );
    const result = await core.recover("DRAFT-S-0000cccc", "save");
    if (result.status !== "saved") throw new Error(result.status);
    expect(fields(store, result.session.path).ended_at).toMatch(WRITTEN);
  });
});

describe("working memory shows the summary as written", () => {
  it("a summary containing Markdown headings is not cut short or mistaken for another section in hot.md", async () => {
    const { core, store, clock } = harness();
    await core.start({ topic: "T-rust-ownership" });
    clock.advance(30);
    await core.end({ summary: "Covered two parts.\n# Part two: borrowing\n## Next action\nnot the next action", nextAction: "Read chapter 5" });
    const hot = classifyRecord(store.files.get(HOT) ?? null);
    if (hot.state !== "ok") throw new Error(hot.state);
    expect(hot.body).toContain("Part two: borrowing");
    const nextSection = hot.body.split(/^## Next action$/m)[1] ?? "";
    expect(nextSection).toContain("Read chapter 5");
    expect(nextSection).not.toContain("not the next action");
  });
});

describe("NodeStore on a file system without hard links", () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "palee-review-"));
  });
  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("trash still moves a draft to .trash when link() fails with EPERM (create already falls back)", async () => {
    const store = new NodeStore(root);
    await store.create("palee/sessions/DRAFT-S-00000001.md", "draft\n"); // before the mock
    jest.spyOn(nodeFs, "link").mockRejectedValue(Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" }));
    await store.create("palee/sessions/DRAFT-S-00000002.md", "draft 2\n"); // falls back: works
    await store.trash("palee/sessions/DRAFT-S-00000001.md");
    expect(fs.existsSync(path.join(root, "palee/sessions/DRAFT-S-00000001.md"))).toBe(false);
    expect(fs.readFileSync(path.join(root, ".trash/DRAFT-S-00000001.md"), "utf8")).toBe("draft\n");
  });
});

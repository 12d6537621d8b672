import { classifyRecord } from "../../src/core/records/frontmatter";
import type { FieldValue } from "../../src/core/records/frontmatter";
import { layoutFor } from "../../src/core/records/layout";
import type { SessionStore } from "../../src/core/ports";
import { PaleeSessions } from "../../src/core/sessions";
import { draftText, hotText } from "../support/builders";
import { CrashingStore } from "../support/crashing-store";
import { FakeClock, SeededRandom } from "../support/fakes";
import { HOT, INDEX, S, confirmedPaths, draftPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

/**
 * A sync tool (iCloud, Syncthing, Obsidian Sync) leaves a conflict copy of a draft under another file name
 * that keeps the original's session_id. Both record one sitting: saving either records it once.
 */
const X = "DRAFT-S-12345678";
const X2 = "DRAFT-S-12345678 2";
const XC = "DRAFT-S-12345678 (conflict 2026-08-15)";
const OTHER = "DRAFT-S-0000beef";

function draft(id: string, fields: Partial<Record<string, FieldValue>>, body: string): [string, string] {
  return [
    S(id),
    draftText(
      {
        session_id: X,
        topic_id: "T-sync",
        started_at: "2026-08-14T09:00:00+00:00",
        last_checkpoint_at: "2026-08-14T09:20:00+00:00",
        device: "old-laptop",
        ...fields,
      },
      body,
    ),
  ];
}

function vault(...drafts: Array<[string, string]>): MemoryStore {
  return new MemoryStore({ [HOT]: hotText({ active_topic: "T-sync" }), ...Object.fromEntries(drafts) });
}

/** The original and its copy, which went on to 09:40 with other notes. */
const pair = (): MemoryStore =>
  vault(
    draft(X, {}, "Laptop notes.\n"),
    draft(X2, { last_checkpoint_at: "2026-08-14T09:40:00+00:00" }, "Phone notes.\n"),
  );

function core(store: SessionStore, device = "laptop"): PaleeSessions {
  return new PaleeSessions(
    { store, clock: FakeClock.at("2026-08-14T12:00:00Z"), random: new SeededRandom(7), device },
    layoutFor("palee"),
  );
}

function notesOf(store: MemoryStore, path: string): string {
  const read = classifyRecord(store.files.get(path) ?? null);
  if (read.state !== "ok") throw new Error(`${path} is ${read.state}`);
  return read.body.slice(read.body.indexOf("## Notes"));
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe("sync-conflict copies of a draft", () => {
  it("saving the original records the sitting once, absorbing the copy and keeping its notes", async () => {
    const store = pair();
    const c = core(store);
    const saved = await c.recover(X, "save");
    expect(saved).toMatchObject({
      status: "saved",
      draftId: X,
      alreadySaved: false,
      session: { absorbedDrafts: [X, X2], outcome: "interrupted", topicId: "T-sync", durationMinutes: 40 },
    });
    const [note] = confirmedPaths(store);
    expect(confirmedPaths(store)).toHaveLength(1);
    expect(fields(store, note ?? "")).toMatchObject({
      absorbed_drafts: [X, X2],
      started_at: "2026-08-14T09:00:00+00:00",
      ended_at: "2026-08-14T09:40:00+00:00",
      duration_minutes: 40,
    });
    expect(notesOf(store, note ?? "")).toBe("## Notes\n\nLaptop notes.\n\nPhone notes.\n");
    // Note first, then the copies to the trash, then the views.
    expect(store.writes).toEqual([
      `create ${note ?? ""}`,
      `trash ${S(X)}`,
      `trash ${S(X2)}`,
      `replace ${INDEX}`,
      `replace ${HOT}`,
    ]);
    expect(draftPaths(store)).toEqual([]);
    expect(store.files.get(INDEX)).toContain("Total sessions: 1");

    // Nothing more to recover, from any entry point; the copy is reported as already saved.
    await expect(core(store).triageOnOpen()).resolves.toMatchObject({ pending: [] });
    await expect(core(store).recover(X2, "save")).resolves.toMatchObject({
      status: "saved",
      alreadySaved: true,
      session: { sessionId: saved.status === "saved" ? saved.session.sessionId : "?" },
    });
    await expect(core(store).start({ topic: "T-sync" })).resolves.toMatchObject({ status: "started" });
    expect(confirmedPaths(store)).toHaveLength(1);
  });

  /** X saved; then the phone's copy arrives, with a note written there before it synced. */
  async function savedThenLateCopy() {
    const store = vault(draft(X, {}, "Laptop notes.\n"));
    const saved = await core(store).recover(X, "save");
    if (saved.status !== "saved") throw new Error(saved.status);
    const [copyPath, copyText] = draft(X2, {}, "Laptop notes.\n\nPhone-only note.\n");
    store.files.set(copyPath, copyText);
    return { store, saved, copyPath, copyText };
  }

  it("a copy that syncs in after the save with notes the note lacks is kept, never counted twice", async () => {
    const { store, saved, copyPath, copyText } = await savedThenLateCopy();
    const triage = await core(store).triageOnOpen();
    expect(triage).toMatchObject({ pending: [] });
    expect(store.trashed.map((t) => t.path)).toEqual([S(X)]);
    expect(store.files.get(copyPath)).toBe(copyText);
    expect(triage.warnings.join("\n")).toContain(`with notes that ${saved.session.sessionId} lacks`);
    await expect(core(store).start({ topic: "T-sync" })).resolves.toMatchObject({ status: "started" });
    const ended = await core(store).end({ summary: "next sitting" });
    expect(ended.session.absorbedDrafts).not.toContain(X2);
    expect(confirmedPaths(store)).toHaveLength(2);
    // A copy whose notes are all in the saved note is finished business: trashed as before.
    const same = vault(draft(X, {}, "Laptop notes.\n"));
    await core(same).recover(X, "save");
    same.files.set(copyPath, draft(X2, {}, "Laptop notes.\n")[1]);
    await core(same).triageOnOpen();
    expect(same.trashed.map((t) => t.path)).toEqual([S(X), S(X2)]);
  });

  it("a kept copy with notes the note lacks goes to the trash when the learner discards it", async () => {
    const { store, saved, copyPath } = await savedThenLateCopy();
    const discarded = await core(store).recover(X2, "discard");
    expect(discarded).toMatchObject({ status: "discarded", alreadySavedIn: saved.session.sessionId });
    expect(store.files.has(copyPath)).toBe(false);
    expect(store.trashed.map((t) => t.path)).toEqual([S(X), copyPath]);
  });

  it("saving the copy first records exactly the same note", async () => {
    const fromOriginal = pair();
    await core(fromOriginal).recover(X, "save");
    const fromCopy = pair();
    const saved = await core(fromCopy).recover(X2, "save");
    expect(saved).toMatchObject({ status: "saved", draftId: X2, session: { absorbedDrafts: [X, X2] } });
    expect(fromCopy.snapshot()).toEqual(fromOriginal.snapshot());
    expect(fromCopy.trashed.map((t) => t.path)).toEqual([S(X), S(X2)]);
    await expect(core(fromCopy).triageOnOpen()).resolves.toMatchObject({ pending: [] });
  });

  it("carries identical bodies once, and an empty body not at all", async () => {
    const store = vault(draft(X, {}, "Same notes.\n"), draft(X2, {}, "\nSame notes.  \n"), draft(XC, {}, ""));
    const saved = await core(store).recover(X2, "save");
    expect(saved).toMatchObject({ session: { absorbedDrafts: [X, XC, X2] } });
    const [note] = confirmedPaths(store);
    expect(notesOf(store, note ?? "")).toBe("## Notes\n\nSame notes.\n");
    expect(occurrences(store.files.get(note ?? "") ?? "", "Same notes.")).toBe(1);
  });

  it("starts at the earliest valid start and ends at the latest checkpoint among the copies", async () => {
    const store = vault(
      draft(X, { started_at: "2026-08-14T09:10:00+00:00" }, "a\n"),
      // A damaged start cannot date the sitting; a start after every checkpoint is not valid either.
      draft(X2, { started_at: "2026-13-01T09:00:00+00:00", last_checkpoint_at: "2026-08-14T09:30:00+00:00" }, "b\n"),
      draft(XC, { started_at: "2026-08-14T08:55:00+00:00", last_checkpoint_at: "2026-08-14T09:45:00+00:00" }, "c\n"),
      draft(`${X} 3`, { started_at: "2026-08-14T10:00:00+00:00", last_checkpoint_at: null }, "d\n"),
    );
    const saved = await core(store).recover(X, "save");
    expect(saved).toMatchObject({
      session: { startedAt: "2026-08-14T08:55:00+00:00", endedAt: "2026-08-14T09:45:00+00:00", durationMinutes: 50 },
    });
    if (saved.status !== "saved") throw new Error("not saved");
    expect([...saved.session.absorbedDrafts].sort()).toEqual([X, X2, `${X} 3`, XC].sort());
    // Bodies in the drafts' order: oldest recorded start first, a damaged start last.
    expect(notesOf(store, saved.session.path)).toBe("## Notes\n\nc\n\na\n\nd\n\nb\n");
    expect(draftPaths(store)).toEqual([]);
  });

  it("links a copy whose session_id is the original's file name (the original records none)", async () => {
    const store = vault(draft(X, { session_id: null }, "a\n"), draft(XC, {}, "b\n"));
    await expect(core(store).recover(X, "save")).resolves.toMatchObject({ session: { absorbedDrafts: [X, XC] } });
    expect(draftPaths(store)).toEqual([]);
  });

  it("does not absorb a copy of another topic or a draft of another sitting", async () => {
    const store = vault(
      draft(X, {}, "a\n"),
      draft(X2, { topic_id: "T-elsewhere" }, "other topic\n"),
      draft(OTHER, { session_id: OTHER }, "another sitting\n"),
    );
    const saved = await core(store).recover(X, "save");
    expect(saved).toMatchObject({ session: { absorbedDrafts: [X] } });
    if (saved.status !== "saved") throw new Error("not saved");
    expect(notesOf(store, saved.session.path)).toBe("## Notes\n\na\n");
    expect(draftPaths(store)).toEqual([S(OTHER), S(X2)]);
    const opened = await core(store).triageOnOpen();
    expect(opened.pending.map((d) => d.draftId).sort()).toEqual([OTHER, X2]);
  });

  it("does not link two drafts whose session_id is blank (each falls back to its own file name)", async () => {
    // Raised in review; optionalString already treats blank text as absent, so this pins the behaviour.
    const store = vault(draft(X, { session_id: "  " }, "a\n"), draft(OTHER, { session_id: "" }, "b\n"));
    const saved = await core(store).recover(X, "save");
    expect(saved).toMatchObject({ session: { absorbedDrafts: [X] } });
    expect(draftPaths(store)).toEqual([S(OTHER)]);
  });

  it(
    "leaves a copy that is running (this device's open session, or alive on another device) to " + "its own end",
    async () => {
      for (const [device, hot] of [
        [
          "laptop",
          { active_topic: "T-sync", started_at: "2026-08-14T09:00:00+00:00", open_draft: X, device: "laptop" },
        ],
        ["phone", {}],
      ] as const) {
        const store = new MemoryStore({
          [HOT]: hotText(hot),
          ...Object.fromEntries([
            draft(X, { device, last_checkpoint_at: "2026-08-14T11:55:00+00:00" }, "running\n"),
            draft(X2, {}, "copy\n"),
          ]),
        });
        const saved = await core(store).recover(X2, "save");
        expect(saved).toMatchObject({ session: { absorbedDrafts: [X2], endedAt: "2026-08-14T09:20:00+00:00" } });
        expect(saved.warnings).toContain(`left ${X} alone: it is a copy of ${X2} that is open on ${device}`);
        expect(draftPaths(store)).toEqual([S(X)]);
        expect(fields(store, HOT)).toMatchObject({ open_draft: device === "laptop" ? X : null });
      }
    },
  );

  it("absorbs an interrupted open copy and closes the pointer to it", async () => {
    const store = new MemoryStore({
      [HOT]: hotText({
        active_topic: "T-sync",
        started_at: "2026-08-14T09:00:00+00:00",
        open_draft: X,
        device: "laptop",
      }),
      ...Object.fromEntries([draft(X, { device: "laptop" }, "a\n"), draft(X2, {}, "b\n")]),
    });
    await expect(core(store).recover(X2, "save")).resolves.toMatchObject({ session: { absorbedDrafts: [X, X2] } });
    expect(fields(store, HOT)).toMatchObject({ open_draft: null, started_at: null, device: null });
    expect(draftPaths(store)).toEqual([]);
  });

  it(
    "after a crash at every write of the save, start-up and a retry leave exactly one note for " + "the sitting",
    async () => {
      const withOther = (): MemoryStore => {
        const store = pair();
        const [path, text] = draft(OTHER, { session_id: OTHER }, "another sitting\n");
        store.files.set(path, text);
        return store;
      };
      const counting = new CrashingStore(withOther());
      await core(counting).recover(X, "save");
      // The note, both copies to the trash, then index.md and hot.md: 5 crash points, and a run that finishes.
      expect(counting.log.map((w) => w.replace(/S-\d{8}T\d{6}-[0-9a-f]{4}/, "S-…"))).toEqual([
        "create palee/sessions/S-….md",
        `trash ${S(X)}`,
        `trash ${S(X2)}`,
        `replace ${INDEX}`,
        `replace ${HOT}`,
      ]);
      for (let k = 0; k <= counting.writes; k++) {
        const files = withOther();
        const outcome = await core(new CrashingStore(files, k))
          .recover(X, "save")
          .then(
            () => "finished",
            (e: unknown) => (e instanceof Error ? e.message : String(e)),
          );
        expect([k, outcome]).toEqual([k, k < counting.writes ? "simulated crash" : "finished"]);

        // Start-up: reconcile (the vault opens), then a rebuild.
        const opened = await core(files).triageOnOpen();
        await core(files).rebuild();
        const notes = confirmedPaths(files);
        const pending = opened.pending.map((d) => d.draftId).sort();
        if (notes.length === 0) expect([k, pending]).toEqual([k, [OTHER, X, X2]]);
        else expect([k, notes.length, pending]).toEqual([k, 1, [OTHER]]);

        // The learner saves the sitting again (by its copy this time): it is never recorded twice.
        await core(files).recover(X2, "save");
        const after = confirmedPaths(files);
        expect([k, after.length]).toEqual([k, 1]);
        expect([k, fields(files, after[0] ?? "").absorbed_drafts]).toEqual([k, [X, X2]]);
        expect([k, occurrences(files.files.get(after[0] ?? "") ?? "", "Phone notes.")]).toEqual([k, 1]);
        expect([k, draftPaths(files)]).toEqual([k, [S(OTHER)]]);
        expect([k, files.files.get(INDEX)]).toEqual([k, expect.stringContaining("Total sessions: 1")]);
        expect([k, classifyRecord(files.files.get(HOT) ?? null).state]).toEqual([k, "ok"]);
      }
    },
  );
});

/**
 * One sitting saved twice: two devices ended or saved the same session before sync carried the first note
 * across (tests/plugin/two-devices.test.ts reproduces the race). No local check can prevent it, and a confirmed
 * note is never deleted, so every start-up (triageOnOpen) and every rebuild names both notes.
 */
import { confirmedText, draftText } from "../support/builders";
import { harness } from "../support/fakes";
import { confirmedPaths } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const A = "S-20260814T100000-aaaa";
const B = "S-20260814T100000-bbbb";
const DRAFT = "DRAFT-S-0000000d";

function twiceSaved(): MemoryStore {
  return new MemoryStore({
    [`palee/sessions/${A}.md`]: confirmedText({
      session_id: A,
      started_at: "2026-08-14T10:00:00+00:00",
      ended_at: "2026-08-14T10:30:00+00:00",
      duration_minutes: 30,
      absorbed_drafts: [DRAFT],
    }),
    [`palee/sessions/${B}.md`]: confirmedText({
      session_id: B,
      started_at: "2026-08-14T10:00:00+00:00",
      ended_at: "2026-08-14T10:20:00+00:00",
      duration_minutes: 20,
      outcome: "interrupted",
      absorbed_drafts: [DRAFT],
    }),
    "palee/sessions/S-20260813T090000-cccc.md": confirmedText({
      session_id: "S-20260813T090000-cccc",
      absorbed_drafts: ["DRAFT-S-0000000c"],
    }),
  });
}

const expected =
  `palee/sessions/${A}.md and palee/sessions/${B}.md both record the session ${DRAFT} (saved ` +
  `twice, e.g. on two devices at once); keep one and delete the others by hand`;

describe("a session saved twice", () => {
  it("is named by rebuild, which keeps both notes and lists both in the index", async () => {
    const h = harness({ store: twiceSaved() });
    const before = h.store.snapshot();
    const result = await h.core.rebuild();
    expect(result.warnings).toEqual([expected]);
    expect(confirmedPaths(h.store)).toEqual(
      Object.keys(before)
        .filter((p) => p.includes("/S-"))
        .sort(),
    );
    for (const p of confirmedPaths(h.store)) expect(h.store.files.get(p)).toBe(before[p]);
    expect(h.store.files.get("palee/index.md")).toContain("Total sessions: 3");
  });

  it(
    "is named once per start-up, not again by every operation (it would push their own " +
      "warnings out of the notice)",
    async () => {
      const h = harness({ store: twiceSaved() });
      // The start-up check reads only what changed (issue 13); the plugin asks for every note right after it.
      expect((await h.core.triageOnOpen()).warnings).not.toContain(expected);
      expect(await h.core.savedTwice()).toEqual([expected]);
      const started = await h.core.start({ topic: "T-a" });
      expect(started.status).toBe("started");
      if (started.status !== "started") throw new Error(`expected a start, got ${started.status}`);
      expect(started.warnings).not.toContain(expected);
      h.clock.advance(10);
      expect((await h.core.end()).warnings).not.toContain(expected);
      expect(h.store.trashed.map((t) => t.path)).toEqual([expect.stringMatching(/DRAFT-S-/)]);
    },
  );

  it("is not reported for one note per draft, nor for a note listing the same draft twice", async () => {
    const h = harness({
      store: new MemoryStore({
        [`palee/sessions/${A}.md`]: confirmedText({ session_id: A, absorbed_drafts: [DRAFT, DRAFT] }),
        [`palee/sessions/${B}.md`]: confirmedText({ session_id: B, absorbed_drafts: ["DRAFT-S-0000000e"] }),
      }),
    });
    expect((await h.core.rebuild()).warnings).toEqual([]);
    expect((await h.core.triageOnOpen()).warnings).toEqual([]);
    expect(await h.core.savedTwice()).toEqual([]);
  });

  it("draft text absorbed twice never makes a draft of it reappear (both notes name it)", async () => {
    const store = twiceSaved();
    store.files.set(
      `palee/sessions/${DRAFT}.md`,
      draftText(
        { session_id: DRAFT, topic_id: "T-rust-ownership", started_at: "2026-08-14T10:00:00+00:00" },
        // No notes of its own: a draft whose notes its note lacks is kept (conflict-copies.test.ts).
        "",
      ),
    );
    const h = harness({ store });
    const open = await h.core.triageOnOpen();
    expect(open.pending).toEqual([]);
    expect(h.store.trashed.map((t) => t.path)).toEqual([`palee/sessions/${DRAFT}.md`]);
  });
});

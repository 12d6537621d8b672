/**
 * A draft that an end saved and then failed to trash (a crash between the note and the trash), and that the
 * learner then typed into, holds notes its saved note lacks: reconcile keeps it where it is (issue 35 §4). When
 * the learner then explicitly discards that very draft (`recover --draft … --action discard`), contract §4
 * recover says what Discard does: the draft goes to the trash — with the learner's text, so nothing is lost —
 * and the answer never says "discarded" while the draft is still there (the model test's seed 852137200).
 */
import { CrashingStore } from "../support/crashing-store";
import { harness } from "../support/fakes";
import { S, confirmedPaths, draftPaths } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const TYPED = "Typed after the end: lifetimes need a diagram.";

/** start, 20 minutes, then an end that writes its note and crashes before trashing the draft; then the edit. */
async function savedDraftEditedAfterACrash() {
  const files = new MemoryStore();
  const h = harness({ store: files });
  const started = await h.core.start({ topic: "T-a" });
  if (started.status !== "started") throw new Error(started.status);
  h.clock.advance(20);
  const crashing = harness({ store: new CrashingStore(files, 1), at: new Date(h.clock.now()).toISOString() });
  await expect(crashing.core.end({})).rejects.toThrow("simulated crash");
  const [note] = confirmedPaths(files);
  if (note === undefined) throw new Error("the end wrote no note");
  const path = S(started.draftId);
  files.files.set(path, `${files.files.get(path) ?? ""}\n${TYPED}\n`);
  return { ...h, store: files, draftId: started.draftId, path, note, noteText: files.files.get(note) };
}

describe("discarding a saved draft the learner typed into after a crash", () => {
  it("is kept at start-up, not offered, with a warning naming the note to copy the text into", async () => {
    const { core, store, path, note } = await savedDraftEditedAfterACrash();
    const opened = await core.triageOnOpen();
    expect(opened.pending).toEqual([]);
    expect(opened.warnings.filter((w) => w.startsWith(path))).toEqual([expect.stringContaining(note)]);
    expect(store.files.get(path)).toContain(TYPED);
  });

  it("moves it to the trash with the learner's text when they discard it, and says so truthfully", async () => {
    const { core, store, path, draftId, note, noteText } = await savedDraftEditedAfterACrash();
    const discarded = await core.recover(draftId, "discard");
    const saved = /S-[0-9T]+-[0-9a-f]{4}/.exec(note)?.[0];
    expect(discarded).toMatchObject({ status: "discarded", draftId, alreadySavedIn: saved, trashedKept: true });
    // Reconcile's "left it where it is" would send the learner looking for a file that is in the trash now.
    expect(discarded.warnings.filter((w) => w.includes(path))).toEqual([]);
    // Before the fix: "discarded", and the draft still in the sessions folder.
    expect(draftPaths(store)).toEqual([]);
    expect(store.files.has(path)).toBe(false);
    expect(store.trashed.filter((t) => t.path === path).map((t) => t.content.includes(TYPED))).toEqual([true]);
    expect(store.files.get(note)).toBe(noteText);
    expect(confirmedPaths(store)).toEqual([note]);
  });

  it("leaves it where it is when they ignore it", async () => {
    const { core, store, path, draftId } = await savedDraftEditedAfterACrash();
    const ignored = await core.recover(draftId, "ignore");
    expect(ignored).toMatchObject({ status: "ignored", draftId });
    expect(ignored.warnings.filter((w) => w.startsWith(path))).toEqual([expect.stringContaining("left it where")]);
    expect(store.files.get(path)).toContain(TYPED);
    expect(store.trashed.filter((t) => t.path === path)).toEqual([]);
  });
});

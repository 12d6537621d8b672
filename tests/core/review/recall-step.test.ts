/**
 * The recall step of end and log, and a next action marked done (contract §4c, acceptance example 7 at the
 * core): optional everywhere, written only into the new note, refused before anything is written when the
 * rating is not one; a done next action is no longer carried by hot.md, the brief or the queue.
 */
import { classifyRecord } from "../../../src/core/records/frontmatter";
import { extractSection } from "../../../src/core/records/session-note";
import { harness } from "../../support/fakes";
import type { Harness } from "../../support/fakes";
import { HOT, INDEX, confirmedPaths, draftPaths, fields } from "../../support/inspect";

function snapshot(h: Harness): Map<string, string> {
  return new Map(h.store.files);
}

function newestNote(h: Harness): { fields: Record<string, unknown>; body: string } {
  const path = confirmedPaths(h.store).at(-1) as string;
  const read = classifyRecord(h.store.files.get(path) ?? null);
  if (read.state !== "ok") throw new Error(read.state);
  return { fields: read.fields, body: read.body };
}

async function started(h: Harness, topic = "T-rust"): Promise<void> {
  await h.core.start({ topic });
  h.clock.advance(30);
}

describe.each([false, true])("the recall step (bounded views: %s)", (bounded) => {
  it.each([["7"], ["great"], ["0"], ["2.5"], ["good enough"]])(
    "refuses --rating %s with invalid_rating: nothing written, the session still open",
    async (rating) => {
      const h = harness({ bounded });
      await started(h);
      const before = snapshot(h);
      const refusal = h.core.end({ rating, recall: "borrow rules" });
      await expect(refusal).rejects.toMatchObject({ kind: "invalid_rating", exitCode: 2 });
      await expect(refusal).rejects.toThrow("a rating is 1-4 or again, hard, good, easy");
      expect(snapshot(h)).toEqual(before);
      expect((await h.core.status()).open?.topicId).toBe("T-rust");
    },
  );

  it("writes recall_rating 3 and a ## Recall section for --rating good --recall", async () => {
    const h = harness({ bounded });
    await started(h);
    const r = await h.core.end({ summary: "Borrowing", rating: "good", recall: "borrow rules", nextAction: "ch. 5" });
    const note = newestNote(h);
    expect(note.fields.recall_rating).toBe(3);
    expect(note.fields.next_done).toBeUndefined();
    expect(extractSection(note.body, "Recall")).toBe("borrow rules");
    expect(note.body).toMatch(/## Summary\n\nBorrowing\n\n## Recall\n\nborrow rules\n\n## Next action\n\nch. 5\n/);
    expect(r.session.recallRating).toBe(3);
  });

  it("without recall or rating the note is as in version 3 (no recall_rating, no ## Recall)", async () => {
    const h = harness({ bounded });
    await started(h);
    await h.core.end({ summary: "Borrowing" });
    const note = newestNote(h);
    expect("recall_rating" in note.fields).toBe(false);
    expect(note.body).not.toContain("## Recall");
  });

  it("log takes recall and rating, and refuses a bad rating before writing", async () => {
    const h = harness({ bounded });
    const before = snapshot(h);
    await expect(h.core.log({ topic: "T-rust", minutes: 20, rating: 5 })).rejects.toMatchObject({
      kind: "invalid_rating",
    });
    expect(snapshot(h)).toEqual(before);
    await h.core.log({ topic: "T-rust", minutes: 20, rating: "EASY", recall: "all of it" });
    expect(newestNote(h).fields.recall_rating).toBe(4);
    expect(extractSection(newestNote(h).body, "Recall")).toBe("all of it");
  });

  it("a rating changes no time: the duration is the same with and without one", async () => {
    const a = harness({ bounded });
    const b = harness({ bounded });
    await started(a);
    await started(b);
    const rated = await a.core.end({ rating: 1 });
    const plain = await b.core.end({});
    expect(rated.session.durationMinutes).toBe(plain.session.durationMinutes);
    expect(rated.session.endedAt).toBe(plain.session.endedAt);
  });
});

describe.each([false, true])("a next action marked done (bounded views: %s)", (bounded) => {
  async function withCarried(h: Harness): Promise<void> {
    await started(h);
    await h.core.end({ summary: "one", nextAction: "Read chapter 5" });
    h.clock.advance(60);
    await started(h);
  }

  it("end --done writes next_done and hot.md, the brief and the queue stop carrying it", async () => {
    const h = harness({ bounded });
    await withCarried(h);
    const r = await h.core.end({ summary: "two", done: true });
    expect(r.warnings).toEqual([]);
    expect(newestNote(h).fields.next_done).toBe(true);
    expect(h.store.files.get(HOT)).not.toContain("Read chapter 5");
    const brief = await h.core.brief({ topic: "T-rust" });
    expect([brief.nextAction, brief.text.includes("Read chapter 5")]).toEqual([null, false]);
    const next = await h.core.next({ topic: "T-rust" });
    expect(next.entry?.nextAction).toBeNull();
    await h.core.rebuild();
    expect(h.store.files.get(HOT)).not.toContain("Read chapter 5");
  });

  it("a new next action in the same end becomes the topic's next action", async () => {
    const h = harness({ bounded });
    await withCarried(h);
    await h.core.end({ done: true, nextAction: "Do the exercises" });
    expect(newestNote(h).fields.next_done).toBe(true);
    expect(h.store.files.get(HOT)).toContain("## Next action\n\nDo the exercises");
    expect((await h.core.next({ topic: "T-rust" })).entry?.nextAction).toBe("Do the exercises");
  });

  it("--done with no next action carried warns and ends as without it", async () => {
    const h = harness({ bounded });
    await started(h);
    const r = await h.core.end({ done: true });
    expect(r.warnings).toEqual(["no next action is carried on T-rust: nothing to mark done"]);
    expect("next_done" in newestNote(h).fields).toBe(false);
  });

  it("a later session without a next action still carries the one given after the done", async () => {
    const h = harness({ bounded });
    await withCarried(h);
    await h.core.end({ done: true });
    h.clock.advance(60);
    await started(h);
    await h.core.end({ nextAction: "Lifetimes" });
    h.clock.advance(60);
    await started(h);
    await h.core.end({ summary: "three" });
    expect(h.store.files.get(HOT)).toContain("Lifetimes");
    expect(fields(h.store, INDEX).type).toBe("session_index");
    expect(draftPaths(h.store)).toEqual([]);
  });
});

describe("save of an interrupted draft writes no recall", () => {
  it("has neither recall_rating nor ## Recall", async () => {
    const h = harness();
    await started(h);
    const draftId = (await h.core.status()).open?.draftId as string;
    const saved = await h.core.recover(draftId, "save");
    expect(saved.status).toBe("saved");
    const note = newestNote(h);
    expect(["recall_rating" in note.fields, "next_done" in note.fields, note.body.includes("## Recall")]).toEqual([
      false,
      false,
      false,
    ]);
  });
});

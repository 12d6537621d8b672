/**
 * The learning loop through `palee mcp` (contract §5 version 4; invariant 15, acceptance examples 7 and 14):
 * study_next gives the CLI's `next` document, end_session and log_session take recall, rating and done, and a
 * bad rating is a tool error carrying invalid_rating with nothing written.
 */
import { studyNote } from "../support/review-vault";
import { call, servedPerTest } from "./mcp-support";
import {
  ago,
  confirmedFiles,
  draftId,
  makeVault,
  palee,
  readRecord,
  snapshot,
  writeDraft,
  writeFile,
  writeHot,
} from "./support";

jest.setTimeout(30_000);

const serve = servedPerTest();

function openSession(): string {
  const v = makeVault();
  const id = draftId("0000abcd");
  writeDraft(v, { id, topic: "T-rust", startedAt: ago(30), lastCheckpointAt: ago(1) });
  writeHot(v, { activeTopic: "T-rust", startedAt: ago(30), openDraft: id, device: "test-device" });
  return v;
}

describe("palee mcp: the learning loop", () => {
  it("study_next gives the same document as the CLI's next (example 14)", async () => {
    const v = makeVault();
    for (const day of ["2026-08-03", "2026-08-04", "2026-08-07"]) {
      const note = studyNote({ topic: "T-a", at: `${day}T10:00` });
      writeFile(v, note.path, note.text);
    }
    const { client } = await serve(v);
    const tool = await call(client, "study_next", { as_of: "2026-08-17" });
    expect(tool.isError).toBe(false);
    const cli = palee(v, ["next", "--as-of", "2026-08-17", "--json"]).json();
    expect(JSON.stringify(tool.doc)).toBe(JSON.stringify(cli));
    expect(tool.doc).toMatchObject({ total: 1, queue: [{ topic_id: "T-a", group: "due", overdue_days: 3 }] });
    const one = await call(client, "study_next", { as_of: "2026-08-17", topic: "T-a" });
    expect((one.doc.history as unknown[]).length).toBe(3);
    const late = await call(client, "study_next", { as_of: "2999-01-01" });
    expect([late.isError, late.doc.code]).toEqual([true, "invalid_date"]);
  });

  it.each([[7], ["great"]])("end_session rating %p is a tool error invalid_rating; nothing written", async (rating) => {
    const v = openSession();
    const before = snapshot(v);
    const { client } = await serve(v);
    const r = await call(client, "end_session", { rating });
    expect([r.isError, r.doc.code]).toEqual([true, "invalid_rating"]);
    expect(snapshot(v)).toEqual(before);
  });

  it("end_session writes recall, rating and next_done; log_session takes recall and rating", async () => {
    const v = openSession();
    const { client } = await serve(v);
    const r = await call(client, "end_session", { rating: "good", recall: "borrow rules", done: true });
    expect(r.isError).toBe(false);
    // No next action was carried: done is warned about and not written.
    expect(r.doc.session).toMatchObject({ recall_rating: 3, next_done: false });
    expect((r.doc.warnings as string[]).some((w) => w.includes("nothing to mark done"))).toBe(true);
    const note = readRecord(v, `palee/sessions/${confirmedFiles(v)[0]}`);
    expect(note.body).toContain("## Recall\n\nborrow rules\n");
    const logged = await call(client, "log_session", {
      topic: "T-sql",
      minutes: 20,
      to: ago(120),
      rating: 2,
      recall: "joins",
    });
    expect(logged.isError).toBe(false);
    expect(logged.doc.session).toMatchObject({ recall_rating: 2 });
  });
});

/**
 * The CLI reads only the notes that may matter (issue 13, docs/architecture.md "Cost that does not grow with
 * history"), by file name and modification time: here on real files, through NodeStore.changedAmong.
 */
import path from "node:path";
import {
  ago,
  cleanupVaults,
  confirmedFiles,
  draftFiles,
  draftId,
  makeVault,
  palee,
  readText,
  sessionIdFor,
  trashFiles,
  writeConfirmed,
  writeDraft,
  writeHot,
  writeOld,
} from "./support";

afterEach(cleanupVaults);

const OLD = draftId("0000a0a0");
const YOUNG = draftId("0000b1b1");
const DAY = 24 * 60;

describe("bounded scans on real files", () => {
  it("start trashes a draft saved by a note dated days before it, found by when the note was written", () => {
    const vault = makeVault();
    for (let day = 30; day >= 5; day--) writeOld(vault, day * DAY);
    // Another device's end took both drafts, dated by the older (ten days ago: before the week start reads
    // anyway), an hour ago; the older draft's deletion has synced here, the younger one's not yet.
    const started = ago(10 * DAY);
    const note = writeConfirmed(vault, {
      id: sessionIdFor(Date.parse(started), "abcd"),
      topic: "T-a",
      startedAt: started,
      endedAt: ago(60),
      duration: 90,
      absorbed: [OLD, YOUNG],
      summary: "saved on the desk",
      notes: "young notes",
    });
    writeDraft(vault, {
      id: YOUNG,
      topic: "T-a",
      startedAt: ago(180),
      lastCheckpointAt: ago(70),
      body: "young notes\n",
    });
    writeHot(vault, { activeTopic: "T-a" });

    const run = palee(vault, ["start", "--topic", "T-b", "--json"]);
    expect(run.status).toBe(0);
    expect(run.json()).toMatchObject({ status: "started", topic_id: "T-b" });
    expect(run.stderr).toContain(`${YOUNG}.md was already saved in`);
    expect(trashFiles(vault)).toEqual([`${YOUNG}.md`]);
    expect(confirmedFiles(vault)).toContain(path.basename(note));
  });

  it("end inserts its line into index.md, which stays exactly what a rebuild writes", () => {
    const vault = makeVault();
    for (let day = 40; day >= 2; day--) writeOld(vault, day * DAY);
    expect(palee(vault, ["rebuild"]).status).toBe(0);
    expect(palee(vault, ["start", "--topic", "T-a"]).status).toBe(0);
    expect(palee(vault, ["draft", "--note", "one note"]).status).toBe(0);
    const ended = palee(vault, ["end", "--summary", "done", "--at", "now"]);
    expect(ended.status).toBe(0);
    const index = readText(vault, "palee/index.md");
    expect(index).toContain("Total sessions: 40");
    expect(palee(vault, ["rebuild"]).status).toBe(0);
    expect(readText(vault, "palee/index.md")).toBe(index);
    expect(draftFiles(vault)).toEqual([]);
    const listed = palee(vault, ["list", "--json"]);
    expect(listed.status).toBe(0);
    expect(listed.json()).toMatchObject({ total_confirmed: 40 });
  });
});

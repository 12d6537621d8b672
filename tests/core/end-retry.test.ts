/**
 * An end that finds its session already saved (contract §4 end, §6.2: a retry after a crash or a conflict, or the
 * plugin's end of a session saved meanwhile) warns about the summary and next action only when the saved note
 * lacks them.
 */
import { unrecordedWarning } from "../../src/core/records/session-note";
import { LockLostError } from "../../src/core/errors";
import { harness } from "../support/fakes";
import { HOT, confirmedPaths } from "../support/inspect";

const notRecorded = (warnings: string[]): string[] => warnings.filter((w) => w.includes("not recorded"));

/** Starts and ends a session, then puts hot.md back as it was before end's last write (a crash there). */
async function endCutBeforeItsLastWrite(summary: string, nextAction: string) {
  const h = harness();
  const started = await h.core.start({ topic: "T-a" });
  if (started.status !== "started") throw new Error(started.status);
  const pointer = h.store.files.get(HOT) as string;
  h.clock.advance(30);
  await h.core.end({ summary, nextAction });
  h.store.files.set(HOT, pointer);
  return { ...h, draftId: started.draftId, saved: confirmedPaths(h.store)[0] };
}

describe("the same end run again after a crash", () => {
  it("reports the saved session without claiming the summary and next action were lost", async () => {
    const summary = "- borrowing rules\r\n# not a heading\n";
    const { core } = await endCutBeforeItsLastWrite(summary, "Lifetimes");
    // Before the fix it warned "this end's summary and next action were not recorded: add them to … by
    // hand", although the saved note holds both.
    const again = await core.end({ summary, nextAction: "Lifetimes" });
    expect(again.alreadySaved).toBe(true);
    expect(notRecorded(again.warnings)).toEqual([]);
  });

  it("names only what this run adds: a different summary", async () => {
    const { core, saved } = await endCutBeforeItsLastWrite("first", "Lifetimes");
    const again = await core.end({ summary: "second", nextAction: "Lifetimes" });
    expect(notRecorded(again.warnings)).toEqual([`this end's summary was not recorded: add it to ${saved} by hand`]);
  });

  it("names both when both differ", async () => {
    const { core, saved } = await endCutBeforeItsLastWrite("first", "Lifetimes");
    const again = await core.end({ summary: "second", nextAction: "Traits" });
    expect(notRecorded(again.warnings)).toEqual([
      `this end's summary and next action were not recorded: add them to ${saved} by hand`,
    ]);
  });
});

describe("the plugin's end of a session saved meanwhile with the same text", () => {
  it("does not warn", async () => {
    const { core, store } = harness();
    const started = await core.start({ topic: "T-a" });
    if (started.status !== "started") throw new Error(started.status);
    await core.end({ summary: "cc", nextAction: "nn" });
    const again = await core.end({
      open: { draftId: started.draftId, topicId: "T-a" },
      summary: "cc",
      nextAction: "nn",
    });
    expect(again.alreadySaved).toBe(true);
    expect(again.warnings).toEqual([]);
    expect(confirmedPaths(store)).toHaveLength(1);
  });
});

describe("the plugin's end of a session saved meanwhile, with hot.md gone", () => {
  it("warns about a summary the saved note lacks (it was dropped without a word)", async () => {
    const { core, store } = harness();
    const started = await core.start({ topic: "T-a" });
    if (started.status !== "started") throw new Error(started.status);
    await core.end({ summary: "cc" });
    store.files.delete(HOT);
    const open = { draftId: started.draftId, topicId: "T-a" };
    const same = await core.end({ open, summary: "cc" });
    expect(same.alreadySaved).toBe(true);
    expect(notRecorded(same.warnings)).toEqual([]);
    store.files.delete(HOT);
    const other = await core.end({ open, summary: "dd", nextAction: "nn" });
    expect(other.alreadySaved).toBe(true);
    expect(notRecorded(other.warnings)).toEqual([
      `this end's summary and next action were not recorded: add them to ${confirmedPaths(store)[0]} by hand`,
    ]);
  });
});

describe("unrecordedWarning", () => {
  const body =
    "# Session: S-1\n\n## Summary\n\n\\# escaped\nline two\n\n## Next action\n\nRead ch. 5\n\n## Notes\n\n## Summary\n";
  it.each([
    [{ summary: "# escaped\nline two", nextAction: "Read ch. 5" }, null],
    [{ summary: "  # escaped\r\nline two  ", nextAction: null }, null],
    [{ summary: "", nextAction: "   " }, null],
    [{}, null],
    [{ summary: "other" }, "this end's summary was not recorded: add it to p.md by hand"],
    [{ nextAction: "Read ch. 6" }, "this end's next action was not recorded: add it to p.md by hand"],
  ])("%j → %j", (given, expected) => {
    expect(unrecordedWarning("p.md", body, given)).toBe(expected);
  });

  it("a section that is missing from the note counts as lost", () => {
    expect(unrecordedWarning("p.md", "# Session: S-1\n", { nextAction: "x" })).toBe(
      "this end's next action was not recorded: add it to p.md by hand",
    );
  });
});

describe("an end whose vault lock is taken after its note is written", () => {
  it("is busy (exit 4), says the session is saved, and writes nothing more", async () => {
    const h = harness();
    const started = await h.core.start({ topic: "T-a" });
    expect(started.status).toBe("started");
    h.clock.advance(30);
    const create = h.store.create.bind(h.store);
    let lost = false;
    h.store.create = async (path, content) => {
      if (lost) throw new LockLostError("/tmp/palee-0/x.lock", "its file was removed");
      await create(path, content);
      lost = path.startsWith("palee/sessions/S-"); // taken right after the note
    };
    h.store.replace = () => Promise.reject(new LockLostError("/tmp/palee-0/x.lock", "its file was removed"));
    h.store.trash = () => Promise.reject(new LockLostError("/tmp/palee-0/x.lock", "its file was removed"));
    const saved = () => confirmedPaths(h.store);
    const ending = h.core.end({ summary: "done" });
    await expect(ending).rejects.toMatchObject({ kind: "busy", exitCode: 4 });
    const lostText =
      "the vault lock /tmp/palee-0/x.lock was taken from this process while it was writing (its file was removed)";
    await expect(ending).rejects.toThrow(
      new RegExp(`^S-\\S+ is saved, but then ${lostText.replace(/[()./]/g, "\\$&")}: nothing more was written; `),
    );
    expect(saved()).toHaveLength(1);
  });
});

/**
 * Second review of the plugin's core changes (EndOptions.open and the caller's draft dating a session when
 * hot.md cannot tell). Each test is named after the behaviour that should hold; "Observed" says what
 * happens instead.
 */
import { PaleeError } from "../../src/core/errors";
import { draftText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT, S, confirmedPaths, draftPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const TOPIC = "T-rust-ownership";
const YESTERDAY = "DRAFT-S-0000000c";

/** Yesterday's interrupted draft of the topic, left alone by the learner (Ignore). */
function withYesterday(): MemoryStore {
  return new MemoryStore({
    [S(YESTERDAY)]: draftText(
      { session_id: YESTERDAY, started_at: "2026-08-13T09:00:00+00:00", last_checkpoint_at: "2026-08-13T09:20:00+00:00" },
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

describe("end of the caller's open session when hot.md cannot tell (EndOptions.open)", () => {
  it("refuses, naming the draft, when hot.md is missing and the caller's draft cannot be read — and never records another draft of the topic", async () => {
    const store = withYesterday();
    const { laptop, draftId } = await startedToday(store);
    laptop.clock.advance(30);
    store.files.delete(HOT);
    store.files.set(S(draftId), (store.files.get(S(draftId)) ?? "").replace("status: draft", "status: [draft"));
    const outcome = await laptop.core.end({ open: { draftId, topicId: TOPIC }, summary: "today" }).catch((e: unknown) => e);
    // Observed: resolves, with a confirmed note S-20260813T090000-… absorbing yesterday's draft (1650 min).
    expect(confirmedPaths(store)).toEqual([]);
    expect(outcome).toBeInstanceOf(PaleeError);
    expect(String((outcome as Error).message)).toMatch(/cannot be read/);
    expect(draftPaths(store)).toEqual([S(YESTERDAY), S(draftId)].sort());
  });

  it("reports the caller's session as already saved when hot.md is missing and a confirmed note absorbed its draft — and never records another draft of the topic", async () => {
    const store = withYesterday();
    const { laptop, draftId } = await startedToday(store);
    laptop.clock.advance(30);
    // Another writer (the CLI with this device's name, or sync) ended it; hot.md is gone.
    const cli = harness({ store, device: "laptop", at: "2026-08-14T12:20:00Z" });
    await cli.core.end({ topic: TOPIC, open: { draftId, topicId: TOPIC } });
    const [saved] = confirmedPaths(store);
    store.files.delete(HOT);
    const result = await laptop.core.end({ open: { draftId, topicId: TOPIC } }).catch((e: unknown) => e);
    // Observed: a second confirmed note, S-20260813T090000-…, absorbing yesterday's draft (started 09:00 yesterday).
    expect(confirmedPaths(store)).toEqual([saved]);
    expect(draftPaths(store)).toEqual([S(YESTERDAY)]);
    expect(result).toMatchObject({ alreadySaved: true, session: { path: saved } });
  });
});

describe("end of a session that was saved meanwhile (EndOptions.open, hot.md already closed)", () => {
  it("says that the summary and next action given to this end were not recorded", async () => {
    const store = new MemoryStore();
    const { laptop, draftId } = await startedToday(store);
    const cli = harness({ store, device: "laptop", at: "2026-08-14T12:20:00Z" });
    await cli.core.end({ topic: TOPIC }); // ended elsewhere (no summary)
    laptop.clock.advance(25);
    const result = await laptop.core.end({ open: { draftId, topicId: TOPIC }, summary: "What I learned", nextAction: "Lifetimes" });
    expect(result.alreadySaved).toBe(true);
    expect(fields(store, confirmedPaths(store)[0]).absorbed_drafts).toEqual([draftId]);
    // Observed: warnings [] — the learner's summary is dropped without a word (the other "already saved" path
    // warns "this end's summary and next action were not recorded: add them to … by hand").
    expect(result.warnings.join("\n")).toMatch(/summary and next action were not recorded/);
  });
});

/**
 * Bugs found in the fourth review, each pinned by the test that fails before the fix.
 */
import { UsageError } from "../../src/core/errors";
import { harness } from "../support/fakes";
import { HOT, confirmedPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const TOPIC = "T-rust-ownership";

describe("devices: a session another device took over is recorded once (SPEC §4 Devices, §6.2)", () => {
  it("end on the device that started a session, while the device that took it over is checkpointing it, records nothing; the session is recorded once, where it runs", async () => {
    const store = new MemoryStore();
    const laptop = harness({ store, device: "laptop", at: "2026-08-14T12:00:00Z" });
    const desktop = harness({ store, device: "desktop", at: "2026-08-14T12:00:00Z" });

    // 12:00 the laptop starts. The learner moves to the desktop; at 12:20 (the laptop silent for longer
    // than the 15-minute grace period) the desktop's checkpoint takes the session over: the draft now
    // names the desktop. hot.md still names the laptop.
    await laptop.core.start({ topic: TOPIC });
    desktop.clock.advance(20);
    await desktop.core.checkpoint({ notes: "typed on the desktop" });

    // 12:25 on the laptop: the session is alive on the desktop (checkpointed 5 minutes ago). end must
    // refuse, as it does when hot.md names the other device. Today it saves 12:00–12:25 from hot.md's
    // start (tier 2) with absorbed_drafts [], warns "left DRAFT-S-… alone: it is open on desktop",
    // exits 0, and leaves the session open.
    laptop.clock.advance(25);
    const onLaptop = await laptop.core.end({ summary: "ended on the laptop" }).catch((e: unknown) => e);
    expect(onLaptop).toBeInstanceOf(UsageError);
    expect(confirmedPaths(store)).toEqual([]);

    // 12:30 the desktop ends the session: it is recorded once. Today this is a second note for the same
    // 12:00 sitting (two 30-ish-minute sessions in the index and in every total).
    desktop.clock.advance(10);
    await desktop.core.end({ summary: "ended on the desktop" });
    expect(confirmedPaths(store)).toHaveLength(1);
  });
});

describe("hot.md names the device a session runs on", () => {
  it("a checkpoint that takes over a silent device's session records this device in hot.md", async () => {
    const store = new MemoryStore();
    const laptop = harness({ store, device: "laptop", at: "2026-08-14T11:00:00Z" });
    const started = await laptop.core.start({ topic: TOPIC });
    if (started.status !== "started") throw new Error(started.status);
    const desktop = harness({ store, device: "desktop", at: "2026-08-14T11:40:00Z" }); // the laptop went silent
    const result = await desktop.core.checkpoint({ notes: "carried on here" });
    expect(result).toMatchObject({ created: false, opened: false, draft: { draftId: started.draftId, device: "desktop" } });
    expect(fields(store, HOT)).toMatchObject({ open_draft: started.draftId, device: "desktop" });
    expect((await desktop.core.status()).open).toMatchObject({ device: "desktop" });
  });

  it("a checkpoint with no open session says that it opened one", async () => {
    const { core } = harness();
    await expect(core.checkpoint({ topic: TOPIC })).resolves.toMatchObject({ created: true, opened: true });
    await expect(core.checkpoint({ topic: TOPIC })).resolves.toMatchObject({ created: false, opened: false });
  });
});

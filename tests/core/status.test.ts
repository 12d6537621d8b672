/**
 * status answers as reconcile would, without writing (contract §4 status, Reconcile), and shows the silence
 * that makes the next end refuse `long_silence` (contract §4 honest time).
 */
import { harness } from "../support/fakes";
import { HOT, S } from "../support/inspect";

const TOPIC = "T-rust-ownership";

describe("status after an end that stopped before it rewrote hot.md", () => {
  it.each([
    ["after the draft was trashed", false],
    ["before the draft was trashed", true],
  ])("%s: no open session, the saved one named, nothing written", async (_when, keepDraft) => {
    const { core, store, clock } = harness();
    const started = await core.start({ topic: TOPIC });
    if (started.status !== "started") throw new Error(started.status);
    const hotOpen = store.files.get(HOT) ?? "";
    const draft = store.files.get(S(started.draftId)) ?? "";
    clock.advance(30);
    const ended = await core.end({});
    // The kill: hot.md still names the open session (and the draft may still be there).
    store.files.set(HOT, hotOpen);
    if (keepDraft) store.files.set(S(started.draftId), draft);
    const writes = store.writes.length;
    const files = new Map(store.files);

    const status = await core.status();
    expect(status).toMatchObject({ open: null, savedAs: ended.session.sessionId, silence: null });
    expect(status.warnings).toEqual([expect.stringContaining(`already saved as ${ended.session.sessionId}`)]);
    expect(store.writes.length).toBe(writes);
    expect(store.files).toEqual(files);
  });
});

describe("status shows a long silence", () => {
  it("names the silence past the grace period, and marks it long past 2 hours", async () => {
    const { core, clock } = harness();
    await core.start({ topic: TOPIC });
    clock.advance(10);
    await expect(core.status()).resolves.toMatchObject({ silence: null }); // within the grace period
    clock.advance(20);
    await expect(core.status()).resolves.toMatchObject({
      silence: {
        seconds: 30 * 60,
        long: false,
        text: expect.stringMatching(/^No activity since 12:00, 30 min ago$/) as string,
      },
    });
    clock.advance(150);
    const late = await core.status();
    expect(late.silence).toMatchObject({ seconds: 180 * 60, long: true });
    // The next end without --at refuses, as status warned.
    await expect(core.end({})).rejects.toMatchObject({ kind: "long_silence" });
  });

  it("a paused session is not silent: it ends at its pause", async () => {
    const { core, clock } = harness();
    await core.start({ topic: TOPIC });
    await core.pause();
    clock.advance(300);
    await expect(core.status()).resolves.toMatchObject({ silence: null, open: { topicId: TOPIC } });
  });
});

/**
 * Devices sharing one synced vault (contract §4 Devices, §6.2, §6.7): a session is recorded once, where it runs,
 * whatever order sync delivers hot.md and the draft in, and hot.md names the device a session runs on.
 */
import { UsageError } from "../../src/core/errors";
import type { Draft } from "../../src/core/records/records";
import { isAliveElsewhere } from "../../src/core/recovery";

import { draftText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT, S, confirmedPaths, fields } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const MINUTE = 60_000;
const TOPIC = "T-rust-ownership";

describe("devices: end while the other device's draft is alive", () => {
  it("end on a second device does not record a session for the topic whose draft is alive on the first", async () => {
    // laptop started T-rust-ownership 40 min ago and checkpointed 2 min ago; desktop (same synced vault) runs end.
    const store = new MemoryStore({
      [HOT]: hotText({
        active_topic: "T-rust-ownership",
        started_at: "2026-08-14T11:20:00+00:00",
        open_draft: "DRAFT-S-0000aaaa",
        device: "laptop",
      }),
      [S("DRAFT-S-0000aaaa")]: draftText(
        {
          session_id: "DRAFT-S-0000aaaa",
          started_at: "2026-08-14T11:20:00+00:00",
          last_checkpoint_at: "2026-08-14T11:58:00+00:00",
          device: "laptop",
        },
        "laptop's notes\n",
      ),
    });
    const desktop = harness({ store, device: "desktop" });
    await desktop.core.end({ summary: "from the desktop" }).catch(() => undefined);
    // When the laptop ends its session, it will write the real record of 11:20–12:xx. A desktop record that
    // also starts at 11:20 (without the laptop's notes) is the same sitting counted twice.
    expect(confirmedPaths(store)).toEqual([]);
  });
});

describe("devices: hot.md synced before the other device's draft", () => {
  it("end on the desktop does not record the laptop's running session whose draft has not arrived yet", async () => {
    // The laptop started 40 min ago: start writes hot.md first, then the draft; the sync tool has delivered
    // hot.md to the desktop but not the draft yet. The desktop runs `palee session end`.
    const store = new MemoryStore({
      [HOT]: hotText({
        active_topic: TOPIC,
        started_at: "2026-08-14T11:20:00+00:00",
        open_draft: "DRAFT-S-0000bbbb",
        device: "laptop",
      }),
    });
    const desktop = harness({ store, device: "desktop", at: "2026-08-14T12:00:00Z" });
    await desktop.core.end({ summary: "from the desktop" }).catch(() => undefined);
    // A 40-minute desktop record of 11:20–12:00 is the laptop's sitting; the laptop will record it again.
    expect(confirmedPaths(store)).toEqual([]);
  });
});

describe("devices: a checkpoint never takes over another device's running session (contract §4 Devices, §6.7)", () => {
  it(
    "a checkpoint on the desktop while the laptop's 5-minute-old session has not synced its " +
      "draft yet leaves hot.md naming the laptop's session",
    async () => {
      // The laptop started at 11:55 and checkpoints every 5 minutes; hot.md has reached the desktop, the
      // draft has not (the case end already refuses: "its draft not synced here yet").
      const laptopHot = hotText({
        active_topic: TOPIC,
        started_at: "2026-08-14T11:55:00+00:00",
        open_draft: "DRAFT-S-0000bbbb",
        device: "laptop",
      });
      const store = new MemoryStore({ [HOT]: laptopHot });
      const desktop = harness({ store, device: "desktop", at: "2026-08-14T12:00:00Z" });

      await desktop.core.checkpoint({ notes: "a note typed on the desktop" }).catch(() => undefined);

      // Pins hot.md still naming the laptop's draft. The desktop used to create its own draft dated 11:55
      // (inherited from the laptop's pointer) and point hot.md at it: the laptop's session was replaced
      // silently, and once both devices ended, 11:55–… was recorded twice.
      expect(fields(store, HOT).open_draft).toBe("DRAFT-S-0000bbbb");
      expect(fields(store, HOT).device).toBe("laptop");
      const desktopDrafts = [...store.files.entries()].filter(
        ([p, t]) => p.includes("/DRAFT-S-") && t.includes('started_at: "2026-08-14T11:55:00+00:00"'),
      );
      expect(desktopDrafts).toEqual([]);
    },
  );
});

describe("devices: a session another device took over is recorded once (contract §4 Devices, §6.2)", () => {
  it(
    "end on the device that started a session, while the device that took it over is " +
      "checkpointing it, records nothing; the session is recorded once, where it runs",
    async () => {
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
    },
  );
});

describe("hot.md names the device a session runs on", () => {
  it("a checkpoint that takes over a silent device's session records this device in hot.md", async () => {
    const store = new MemoryStore();
    const laptop = harness({ store, device: "laptop", at: "2026-08-14T11:00:00Z" });
    const started = await laptop.core.start({ topic: TOPIC });
    if (started.status !== "started") throw new Error(started.status);
    const desktop = harness({ store, device: "desktop", at: "2026-08-14T11:40:00Z" }); // the laptop went silent
    const result = await desktop.core.checkpoint({ notes: "carried on here" });
    expect(result).toMatchObject({
      created: false,
      opened: false,
      draft: { draftId: started.draftId, device: "desktop" },
    });
    expect(fields(store, HOT)).toMatchObject({ open_draft: started.draftId, device: "desktop" });
    expect((await desktop.core.status()).open).toMatchObject({ device: "desktop" });
  });
});

describe("devices: a checkpoint in the future is no sign of life (contract §4 end, version 3)", () => {
  const draft = (lastCheckpointMs: number | null): Draft => ({
    draftId: "DRAFT-S-0000aaaa",
    recordId: "DRAFT-S-0000aaaa",
    path: S("DRAFT-S-0000aaaa"),
    topicId: "T-rust-ownership",
    startedAt: "2026-08-14T11:20:00+00:00",
    startedMs: Date.parse("2026-08-14T11:20:00Z"),
    lastCheckpointAt: null,
    lastCheckpointMs,
    device: "laptop",
    topicNote: null,
    body: "",
    pausedAt: null,
    pausedMs: null,
    breaks: [],
    breakMinutes: 0,
  });
  const now = Date.parse("2026-08-14T12:00:00Z");

  it("a draft another device checkpointed 30 days ahead is not alive elsewhere", () => {
    expect(isAliveElsewhere(draft(now + 30 * 24 * 60 * MINUTE), "desktop", now, 15 * MINUTE)).toBe(false);
  });

  it("one checkpointed a few minutes ago, or ahead by less than a day (a clock that is fast), is", () => {
    expect(isAliveElsewhere(draft(now - 2 * MINUTE), "desktop", now, 15 * MINUTE)).toBe(true);
    expect(isAliveElsewhere(draft(now + 2 * MINUTE), "desktop", now, 15 * MINUTE)).toBe(true);
    // A phone whose clock is 6 h ahead is still running there: left alone.
    expect(isAliveElsewhere(draft(now + 6 * 60 * MINUTE), "desktop", now, 15 * MINUTE)).toBe(true);
    expect(isAliveElsewhere(draft(now - 20 * MINUTE), "desktop", now, 15 * MINUTE)).toBe(false);
  });
});

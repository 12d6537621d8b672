/**
 * Times in the future (issue 35 §4): a clock that was ahead never makes a session end after now, and a start in
 * the future in hot.md with nothing else is nothing studied (nothing_open), not a 0-minute session.
 */
import { PaleeError } from "../../src/core/errors";
import { draftText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT, S, confirmedPaths } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const ID = "DRAFT-S-0000abcd";
const AHEAD = "2026-08-14T14:00:00+00:00"; // the harness's clock reads 12:00

describe("a start in the future", () => {
  it("of a draft: Save ends the session now, never in the future", async () => {
    const store = new MemoryStore({
      [S(ID)]: draftText(
        { session_id: ID, topic_id: "T-a", started_at: AHEAD, last_checkpoint_at: AHEAD, device: "laptop" },
        "",
      ),
    });
    const { core, clock } = harness({ store });
    const saved = await core.recover(ID, "save");
    if (saved.status !== "saved") throw new Error(saved.status);
    expect(Date.parse(saved.session.endedAt)).toBeLessThanOrEqual(clock.now());
    expect(Date.parse(saved.session.startedAt)).toBeLessThanOrEqual(clock.now());
    expect(saved.warnings.join("\n")).toContain(`started_at ${AHEAD} is in the future`);
  });

  it("in hot.md with no draft: end refuses nothing_open and writes nothing", async () => {
    const store = new MemoryStore({
      [HOT]: hotText({ active_topic: "T-a", started_at: AHEAD, open_draft: null, device: null }),
    });
    const { core } = harness({ store });
    const before = new Map(store.files);
    const error = await core.end({ topic: "T-a" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaleeError);
    expect((error as PaleeError).kind).toBe("nothing_open");
    expect(confirmedPaths(store)).toEqual([]);
    expect(store.files).toEqual(before);
  });
});

describe("recover save without hot.md", () => {
  it("makes the saved session's topic the active one, as rebuild does", async () => {
    const store = new MemoryStore({
      [S(ID)]: draftText(
        {
          session_id: ID,
          topic_id: "T-b",
          started_at: "2026-08-14T10:00:00+00:00",
          last_checkpoint_at: "2026-08-14T10:40:00+00:00",
          device: "laptop",
        },
        "",
      ),
    });
    const { core } = harness({ store });
    await core.recover(ID, "save");
    expect(store.files.get(HOT)).toMatch(/^active_topic: T-b$/m);
  });
});

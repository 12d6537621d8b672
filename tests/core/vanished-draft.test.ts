/**
 * An end of a session whose draft is gone (issue 35 §4): only hot.md's start dates it, so after a long silence
 * an end at now is refused (long_silence) and writes nothing. The plugin, whose own ticks are signs of life the
 * files do not hold, names the session its timer shows; this rule is not for it.
 */
import { LongSilenceError } from "../../src/core/errors";
import { hotText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT } from "../support/inspect";
import { MemoryStore } from "../support/memory-store";

const ID = "DRAFT-S-0000dead";

/** This device's session on T-a, open since 09:00 (the clock reads 12:00), its draft gone. */
function vanished(): MemoryStore {
  const hot = hotText({
    active_topic: "T-a",
    started_at: "2026-08-14T09:00:00+00:00",
    open_draft: ID,
    device: "laptop",
  });
  return new MemoryStore({ [HOT]: hot });
}

describe("ending a session whose draft is gone, 3 h after its start", () => {
  it.each([[undefined], [{ kind: "now" as const }]])("at %j: refused long_silence, nothing written", async (endAt) => {
    const store = vanished();
    const before = new Map(store.files);
    const error = await harness({ store })
      .core.end({ endAt })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LongSilenceError);
    expect((error as LongSilenceError).nowRefused).toBe(true);
    expect(store.files).toEqual(before);
  });

  it("at last: 0 minutes, the pointer closed", async () => {
    const store = vanished();
    const ended = await harness({ store }).core.end({ endAt: { kind: "last" } });
    expect(ended.session).toMatchObject({ durationMinutes: 0, startedAt: "2026-08-14T09:00:00+00:00" });
    expect(store.files.get(HOT)).toMatch(/^open_draft: null$/m);
  });

  it("at a time given: until then", async () => {
    const ended = await harness({ store: vanished() }).core.end({ endAt: { kind: "given", text: "10:30" } });
    expect(ended.session.durationMinutes).toBe(90);
  });

  it("from the plugin's timer (the open session named): not this rule, the plugin's answer as before", async () => {
    const error = await harness({ store: vanished() })
      .core.end({ endAt: { kind: "now" }, open: { draftId: ID, topicId: "T-a" } })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(LongSilenceError);
    expect(error).toMatchObject({ kind: "nothing_open" });
  });
});

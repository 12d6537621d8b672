/**
 * A recorded start is the learner's: Save never moves it, and end does not date a session from a draft start
 * that lies in the future (it falls back to the next tier, hot.md's start).
 */
import { draftText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT, S, confirmedPaths, fields } from "../support/inspect";

const DRAFT = "DRAFT-S-0000abcd";

describe("Save of a draft whose last checkpoint is before its start", () => {
  it("keeps the recorded started_at and records 0 minutes", async () => {
    const { store, core } = harness();
    store.files.set(
      S(DRAFT),
      draftText(
        { session_id: DRAFT, started_at: "2026-08-14T11:00:00+00:00", last_checkpoint_at: "2026-08-14T10:00:00+00:00" },
        "notes\n",
      ),
    );
    const result = await core.recover(DRAFT, "save");
    expect(result).toMatchObject({
      status: "saved",
      session: { startedAt: "2026-08-14T11:00:00+00:00", durationMinutes: 0 },
    });
    const [path] = confirmedPaths(store);
    expect(path).toMatch(/\/S-20260814T110000-[0-9a-f]{4}\.md$/);
    expect(fields(store, path)).toMatchObject({
      started_at: "2026-08-14T11:00:00+00:00",
      ended_at: "2026-08-14T11:00:00+00:00",
      duration_minutes: 0,
      outcome: "interrupted",
    });
  });

  it("still ends at the last checkpoint when it is after the start", async () => {
    const { store, core } = harness();
    store.files.set(S(DRAFT), draftText({ session_id: DRAFT }));
    const result = await core.recover(DRAFT, "save");
    expect(result).toMatchObject({
      session: { startedAt: "2026-08-14T11:00:00+00:00", endedAt: "2026-08-14T11:30:00+00:00", durationMinutes: 30 },
    });
  });
});

describe("end with a draft that starts in the future", () => {
  it("falls back to hot.md's start and says why", async () => {
    const { store, core } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      HOT,
      hotText({
        active_topic: "T-rust-ownership",
        started_at: "2026-08-14T11:15:00+00:00",
        open_draft: DRAFT,
        device: "laptop",
      }),
    );
    store.files.set(
      S(DRAFT),
      draftText({
        session_id: DRAFT,
        started_at: "2026-08-14T15:00:00+00:00",
        last_checkpoint_at: "2026-08-14T11:50:00+00:00",
      }),
    );
    const result = await core.end({ summary: "done" });
    expect(result.session).toMatchObject({ startedAt: "2026-08-14T11:15:00+00:00", durationMinutes: 45 });
    expect(result.absorbedDrafts).toEqual([DRAFT]);
    expect(result.warnings).toContainEqual(
      expect.stringMatching(
        /^ignored DRAFT-S-0000abcd's start in the future \(2026-08-14T15:00:00\+00:00\); dated from hot\.md's start$/,
      ),
    );
  });

  it("counts from now, saying so, when hot.md has no start either", async () => {
    const { store, core } = harness({ at: "2026-08-14T12:00:00Z" });
    store.files.set(
      S(DRAFT),
      draftText({
        session_id: DRAFT,
        started_at: "2026-08-14T15:00:00+00:00",
        last_checkpoint_at: "2026-08-14T11:50:00+00:00",
      }),
    );
    const result = await core.end({ topic: "T-rust-ownership" });
    expect(result.session.durationMinutes).toBe(0);
    expect(result.warnings).toContainEqual(expect.stringMatching(/start in the future .*; no start was recorded/));
  });
});

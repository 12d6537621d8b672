/**
 * A hot.md whose open_draft is not a draft ID (a hand edit, a hostile file) is a damaged pointer: reported as
 * such, never turned into a path (contract §2 IDs, §4 deletion boundary).
 */
import { confirmedText, hotText } from "../support/builders";
import { harness } from "../support/fakes";
import { HOT, S, draftPaths, fields } from "../support/inspect";

const LAST = "S-20260813T100000-abcd";

function damaged(openDraft: string) {
  const h = harness();
  h.store.files.set(
    HOT,
    hotText({
      active_topic: "T-rust-ownership",
      started_at: "2026-08-14T11:00:00+00:00",
      open_draft: openDraft,
      device: "laptop",
    }),
  );
  return h;
}

describe("a damaged open-session pointer in hot.md", () => {
  it.each(["../../../outside", "DRAFT-S-../../x", "notes/DRAFT-S-00000001", "S-20260813T100000-abcd"])(
    "status reports %j as a damaged pointer and no open session, reading nothing outside",
    async (pointer) => {
      const { store, core } = damaged(pointer);
      const read = jest.spyOn(store, "read");
      const status = await core.status();
      expect(status.open).toBeNull();
      expect(status.warnings).toEqual([
        expect.stringMatching(
          /^palee\/hot\.md: open_draft ".*" is not a draft ID \(DRAFT-S-…\), so no session is open/,
        ),
      ]);
      expect(read.mock.calls.map(([p]) => p)).toEqual([HOT]);
      expect(store.writes).toEqual([]);
    },
  );

  it("a checkpoint says so and opens a new session instead of failing", async () => {
    const { store, core } = damaged("../../../outside");
    const result = await core.checkpoint({ topic: "T-rust-ownership", notes: "a note" });
    expect(result.created).toBe(true);
    expect(result.warnings).toEqual([expect.stringContaining("is not a draft ID")]);
    expect(draftPaths(store)).toEqual([result.draft.path]);
    expect(fields(store, HOT)).toMatchObject({ open_draft: result.draft.draftId });
    expect(store.trashed).toEqual([]);
  });

  it("rebuild clears it and makes the newest session's topic the active one", async () => {
    const { store, core } = damaged("../../../outside");
    store.files.set(S(LAST), confirmedText({ session_id: LAST, topic_id: "T-graphs" }));
    await core.rebuild();
    expect(fields(store, HOT)).toMatchObject({
      active_topic: "T-graphs",
      open_draft: null,
      started_at: null,
      device: null,
      last_session: LAST,
    });
  });
});

describe("rebuild and the active topic", () => {
  it("sets active_topic to the newest session's topic when hot.md is missing", async () => {
    const { store, core } = harness();
    store.files.set(S(LAST), confirmedText({ session_id: LAST, topic_id: "T-graphs" }));
    await core.rebuild();
    expect(fields(store, HOT)).toMatchObject({ active_topic: "T-graphs", open_draft: null });
    const started = await core.start();
    expect(started).toMatchObject({ status: "started", topicId: "T-graphs" });
  });

  it("leaves an open session's topic alone", async () => {
    const { store, core } = harness();
    store.files.set(S(LAST), confirmedText({ session_id: LAST, topic_id: "T-graphs" }));
    await core.start({ topic: "T-rust-ownership" });
    await core.rebuild();
    expect(fields(store, HOT)).toMatchObject({ active_topic: "T-rust-ownership" });
  });
});

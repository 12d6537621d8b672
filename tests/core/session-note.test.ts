import { renderConfirmedNote, renderDraft } from "../../src/core/records/session-note";
import { draftText } from "../support/builders";
import { harness } from "../support/fakes";
import { S, fields } from "../support/inspect";

const TOPIC = "T-rust-ownership";

describe("rendering breaks and logged sessions", () => {
  const note = {
    sessionId: "S-20260814T100000-abcd",
    topicId: "T-sql",
    startedAt: "2026-08-14T10:00:00+00:00",
    endedAt: "2026-08-14T11:00:00+00:00",
    durationMinutes: 60,
    outcome: "completed" as const,
    absorbedDrafts: [],
    topicNote: null,
    summary: null,
    nextAction: null,
    notes: null,
  };

  it("writes break_minutes only when there was a break", () => {
    expect(renderConfirmedNote({ ...note, breakMinutes: 0 })).toBe(renderConfirmedNote(note));
    expect(renderConfirmedNote(note)).not.toContain("break_minutes");
    expect(renderConfirmedNote({ ...note, durationMinutes: 48, breakMinutes: 12 })).toContain(
      "duration_minutes: 48\nbreak_minutes: 12\nstatus: completed\n",
    );
  });

  it("writes outcome: logged", () => {
    expect(renderConfirmedNote({ ...note, outcome: "logged" })).toContain("outcome: logged\nabsorbed_drafts: []\n");
  });

  it("writes paused_at and break_minutes into a draft only when set", () => {
    const draft = {
      draftId: "DRAFT-S-0000abcd",
      topicId: "T-sql",
      startedAt: "2026-08-14T10:00:00+00:00",
      lastCheckpointAt: "2026-08-14T10:30:00+00:00",
      device: "laptop",
      topicNote: null,
      notes: "",
    };
    expect(renderDraft({ ...draft, pausedAt: null, breakMinutes: 0 })).toBe(renderDraft(draft));
    expect(renderDraft({ ...draft, pausedAt: "2026-08-14T10:40:00+00:00", breakMinutes: 3 })).toContain(
      'device: laptop\npaused_at: "2026-08-14T10:40:00+00:00"\nbreak_minutes: 3\n---\n',
    );
  });
});

describe("timestamps are written with seconds and an offset (contract §2)", () => {
  const WRITTEN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

  it(
    "end writes started_at with seconds and the local offset even when the draft's was edited " +
      "to Obsidian's 2026-08-14T11:00 form",
    async () => {
      const { core, store } = harness({ at: "2026-08-14T12:00:00Z", offset: 120 });
      store.files.set(
        S("DRAFT-S-0000bbbb"),
        draftText({
          session_id: "DRAFT-S-0000bbbb",
          started_at: "2026-08-14T11:00",
          last_checkpoint_at: "2026-08-14T13:50:00+02:00",
          device: "laptop",
        }),
      );
      const result = await core.end({ topic: "T-rust-ownership" });
      expect(result.session.startedAt).toMatch(WRITTEN);
      expect(fields(store, result.session.path).started_at).toMatch(WRITTEN);
    },
  );

  it("save writes ended_at with seconds and the local offset even when last_checkpoint_at has neither", async () => {
    const { core, store } = harness({ at: "2026-08-14T12:00:00Z", offset: 120 });
    store.files.set(
      S("DRAFT-S-0000cccc"),
      draftText({
        session_id: "DRAFT-S-0000cccc",
        started_at: "2026-08-14T12:00:00+02:00",
        last_checkpoint_at: "2026-08-14T12:40",
        device: "laptop",
      }),
    );
    const result = await core.recover("DRAFT-S-0000cccc", "save");
    if (result.status !== "saved") throw new Error(result.status);
    expect(fields(store, result.session.path).ended_at).toMatch(WRITTEN);
  });
});

describe("summaries keep Obsidian tags", () => {
  it("a summary line starting with a #tag (not a heading) is written unescaped", async () => {
    const { core, store, clock } = harness();
    await core.start({ topic: TOPIC });
    clock.advance(30);
    const ended = await core.end({ summary: "#rust borrow checker basics", nextAction: "#todo read chapter 5" });
    const text = store.files.get(ended.session.path) ?? "";
    // "#rust" is a tag, not a heading (a heading needs "# "); "\#rust" shows as text and drops the tag.
    expect(text).toContain("\n#rust borrow checker basics\n");
    expect(text).toContain("\n#todo read chapter 5\n");
    expect(fields(store, ended.session.path).status).toBe("completed");
  });
});

import { renderConfirmedNote, renderDraft } from "../../src/core/session-note";

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
    expect(renderConfirmedNote({ ...note, durationMinutes: 48, breakMinutes: 12 })).toContain("duration_minutes: 48\nbreak_minutes: 12\nstatus: completed\n");
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

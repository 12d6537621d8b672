import type { Draft } from "../../src/core/records/records";
import { previewSave } from "../../src/core/recovery";

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 7, 14, 10, 0);

function draft(id: string, fields: Partial<Draft> = {}): Draft {
  const startedMs = fields.startedMs ?? T0;
  const lastCheckpointMs = fields.lastCheckpointMs === undefined ? startedMs + 30 * MINUTE : fields.lastCheckpointMs;
  return {
    draftId: id,
    recordId: id,
    path: `palee/sessions/${id}.md`,
    topicId: "T-rust",
    startedAt: new Date(startedMs).toISOString(),
    startedMs,
    lastCheckpointAt: lastCheckpointMs === null ? null : new Date(lastCheckpointMs).toISOString(),
    lastCheckpointMs,
    device: "laptop",
    topicNote: null,
    body: "",
    pausedAt: null,
    pausedMs: null,
    breaks: [],
    breakMinutes: 0,
    ...fields,
  };
}

const here = { device: "laptop", now: T0 + 3 * 60 * MINUTE, graceMs: 15 * MINUTE };

describe("previewSave", () => {
  it("ends an interrupted draft at its last checkpoint", () => {
    const d = draft("DRAFT-S-a");
    expect(previewSave(d, [d], here)).toMatchObject({ plan: { durationMinutes: 30 }, aliveElsewhere: false });
  });

  it("ends at now when the draft was never checkpointed", () => {
    const d = draft("DRAFT-S-a", { lastCheckpointMs: null });
    expect(previewSave(d, [d], here).plan.durationMinutes).toBe(180);
  });

  it("counts the draft's sync-conflict copies, as Save does", () => {
    const d = draft("DRAFT-S-a");
    const copy = draft("DRAFT-S-a 2", { recordId: "DRAFT-S-a", lastCheckpointMs: T0 + 50 * MINUTE });
    expect(previewSave(d, [d, copy], here).plan.durationMinutes).toBe(50);
  });

  it("leaves out a copy that is this device's open session, still running", () => {
    const d = draft("DRAFT-S-a");
    const open = draft("DRAFT-S-a 2", { recordId: "DRAFT-S-a", lastCheckpointMs: here.now - MINUTE });
    expect(previewSave(d, [d, open], { ...here, openDraft: "DRAFT-S-a 2" }).plan.durationMinutes).toBe(30);
    expect(previewSave(d, [d, open], here).plan.durationMinutes).toBe(179);
  });

  it("says a draft another device checkpointed within the grace period is alive there", () => {
    const d = draft("DRAFT-S-a", { device: "phone", lastCheckpointMs: here.now - 10 * MINUTE });
    expect(previewSave(d, [d], here).aliveElsewhere).toBe(true);
    expect(previewSave(d, [d], { ...here, graceMs: 5 * MINUTE }).aliveElsewhere).toBe(false);
    expect(previewSave(d, [d], { ...here, device: "phone" }).aliveElsewhere).toBe(false);
  });
});
